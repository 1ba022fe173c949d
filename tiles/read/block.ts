/**
 * In-memory layout of the point reader's cache: a *block* holds one spatial
 * chunk of every variable of one *kind*, interleaved as [cell][time][member].
 * A kind is a cache group named by the manifest (`variables[v].block`: what
 * requests read together, e.g. nwp's 'base' fields apart from its
 * 'developer' inputs) crossed with the element type (int16 / float32) and
 * whether the variable varies in time; so a request decodes only the groups
 * it reads.
 *
 * Why interleave: a warm lookup is bound by memory latency, not arithmetic.
 * In the on-disk layout ([time][y][x] per variable, Zarr) each variable's four
 * neighbours at the two bracketing steps sit on four cache lines of their own
 * chunk, so a request reading ~10 variables (30 with the Developer fields)
 * touches 40–120 lines spread over hundreds of MB. Interleaved, all variables
 * of a cell at both steps are contiguous: a few lines per neighbour for the
 * whole request, and the step three hours back (the trend) is a few dozen
 * bytes away.
 *
 * Except in stores chunked along time (a reanalysis year: `chunk.t` in the
 * manifest): `time=` asks random hours of the year, so most lookups there
 * are misses, and a miss's cost is the p99. Their blocks are *planar*, each
 * member's chunk as stored ([member][time][cell], ./planar-block.ts), and
 * each variable is a kind of its own, so a miss decodes only the variables
 * asked for (a Free request leaves relative humidity out of 'base') and
 * nothing is interleaved. A warm lookup there touches a few more cache lines
 * (measured in docs/benchmarks-journal.md). A store of more variables than
 * there can be kinds keeps the manifest's groups, planar too.
 */
import type { ChunkData, ChunkFile } from './chunk-file.js';

/** A block to load: the same spatial chunk of several variables of one kind. */
export interface BlockRequest {
  id: number;
  int16: boolean;
  /** The member variables' chunk files, in member order. */
  files: ChunkFile[];
  /** Time steps per block (1 for static variables, 2 for a bridge). */
  steps: number;
  /** Time steps per chunk file (default: `steps`). */
  chunkSteps?: number;
  /** A bridge: the members' chunk files of the next time chunk, whose first step follows the last of `files`. */
  next?: ChunkFile[];
  /** Cells per chunk plane (chunk rows × columns). */
  plane: number;
  /** Planar layout (stores chunked along time) instead of interleaved. */
  planar?: boolean;
  /** The stored bytes of `files` (and of `next`), already fetched: a bucket's chunks are fetched on the main thread. */
  data?: Uint8Array[];
  nextData?: Uint8Array[];
}

/** One kind of block of a version: its group, element type and time dependence. */
export interface BlockKind {
  group: string;
  int16: boolean;
  isStatic: boolean;
}

/** Kinds per version are numbered 0..n−1 and recorded in a 32-bit mask per variable list. */
export const MAX_BLOCK_KINDS = 31;

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
