/**
 * In-memory layout of the point reader's cache: a *block* holds one spatial
 * chunk of every variable of one kind (int16 or float32, time-varying or
 * static), interleaved as [cell][time][variable].
 *
 * Why: a warm lookup is bound by memory latency, not arithmetic. In the
 * on-disk layout ([time][y][x] per variable, Zarr) each variable's four
 * neighbours at the two bracketing steps sit on four cache lines of their
 * own chunk, so a request reading ~10 variables (30 with the Developer
 * fields) touches 40–120 lines spread over hundreds of MB. Interleaved, all
 * variables of a cell at both steps are contiguous: a few lines per
 * neighbour for the whole request, and the step three hours back (the trend)
 * is a few dozen bytes away.
 */
import type { ChunkData } from './chunk-cache.js';

/** Block kinds: bit 0 set = float32 (else int16), bit 1 set = static (else time-varying). */
export const BLOCK_KINDS = 4;

export function blockKind(int16: boolean, isStatic: boolean): number {
  return (int16 ? 0 : 1) | (isStatic ? 2 : 0);
}

export function kindIsInt16(kind: number): boolean {
  return (kind & 1) === 0;
}

export function kindIsStatic(kind: number): boolean {
  return (kind & 2) !== 0;
}

/**
 * Interleave the decoded chunks of a block's variables (each [time][cell],
 * `steps` × `plane` values, in member order) into [cell][time][member]:
 * element (cell, t, m) at (cell × steps + t) × members + m.
 */
export function interleave(chunks: readonly ChunkData[], steps: number, plane: number, int16: boolean): ChunkData {
  const members = chunks.length;
  const out = int16 ? new Int16Array(steps * plane * members) : new Float32Array(steps * plane * members);
  const cellStride = steps * members;
  for (let m = 0; m < members; m++) {
    const src = chunks[m]!;
    for (let t = 0; t < steps; t++) {
      const row = t * plane;
      for (let cell = 0, o = t * members + m; cell < plane; cell++, o += cellStride) out[o] = src[row + cell]!;
    }
  }
  return out;
}
