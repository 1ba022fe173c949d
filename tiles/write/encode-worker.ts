/**
 * An encode thread's task (./encode-threads.ts): pack, shuffle and
 * zstd-compress every chunk of one time chunk of a variable, with the very
 * functions the calling thread uses (./chunk-encode.ts, tiles/codecs/zstd.ts),
 * so the bytes are the same. The chunks come back as one buffer (about a
 * quarter of a megabyte for a year's time chunk: copied back, piscina moves
 * only a top-level buffer).
 */
import { zstdEncode } from '../codecs/zstd.js';
import type { Packing } from '../codecs/packing.js';
import { chunkCount } from './chunking.js';
import { encodeChunkRow } from './chunk-encode.js';

export interface EncodeTask {
  /** The time chunk's planes, step-major, `cells` values each (fewer than `steps` planes at the axis' end). */
  values: Float32Array;
  nx: number;
  ny: number;
  edge: number;
  steps: number;
  packing: Packing;
}

/** Compressed chunks in order cy, then cx, laid end to end; `ends[k]` is where chunk k ends. */
export interface EncodedChunks {
  bytes: Uint8Array;
  ends: number[];
}

export async function encodeTimeChunk(task: EncodeTask): Promise<EncodedChunks> {
  const { values, nx, ny, edge, steps, packing } = task;
  const cells = nx * ny;
  const planes = Array.from({ length: values.length / cells }, (_, t) => values.subarray(t * cells, (t + 1) * cells));
  const parts: Uint8Array[] = [];
  for (let cy = 0; cy < chunkCount(ny, edge); cy++) {
    for (const raw of encodeChunkRow(planes, { nx, ny, edge, t0: 0, steps, cy }, packing)) parts.push(await zstdEncode(raw));
  }
  const ends: number[] = [];
  let n = 0;
  for (const p of parts) ends.push((n += p.byteLength));
  const bytes = new Uint8Array(n);
  for (const [k, p] of parts.entries()) bytes.set(p, k === 0 ? 0 : ends[k - 1]!);
  return { bytes, ends };
}

export default encodeTimeChunk;
