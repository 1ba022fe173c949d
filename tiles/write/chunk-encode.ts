/**
 * Packing and byte-shuffling the chunks of one row of a variable's chunk grid
 * in a single pass over its step planes, ready for zstd. A chunk holds
 * `steps` consecutive planes of an `edge` × `edge` tile, laid out
 * [time][row][col] as Zarr v2 stores it; cells beyond the grid and steps
 * beyond the time axis keep the fill value (Zarr always stores full chunks).
 *
 * Why one pass per chunk row: copying chunk by chunk walked every one of a
 * year's 8,760 step planes once per chunk through generic array accesses and
 * then packed and shuffled in two more passes; a profile of a year's ingest
 * put 23 % of its time there. Here each plane row is read once, packed
 * (tiles/codecs/packing.ts, same rounding) and written straight into the
 * shuffled byte layout of numcodecs' `shuffle` (byte b of element i at
 * b·n + i), so the bytes are those of pack → shuffle, unchanged.
 */
import { clampRound, INT16_FILL, type Packing } from '../codecs/packing.js';
import { shuffle } from '../codecs/shuffle.js';

/** Where a chunk row lies: grid size, tile edge, and the steps [t0, t0 + steps) of one time chunk. */
export interface ChunkRow {
  nx: number;
  ny: number;
  edge: number;
  /** First step of the time chunk (0 for static variables). */
  t0: number;
  /** Steps per chunk (1 for static variables). */
  steps: number;
  /** Chunk row (tile index along y). */
  cy: number;
}

/** The shuffled bytes of chunks (cy, cx) for cx = 0 … ⌈nx / edge⌉ − 1, each to be zstd-encoded as it is. */
export function encodeChunkRow(planes: readonly Float32Array[], row: ChunkRow, packing: Packing): Uint8Array[] {
  return packing.dtype === 'int16' ? int16Row(planes, row, packing.scale, packing.offset) : float32Row(planes, row);
}

function int16Row(planes: readonly Float32Array[], row: ChunkRow, scale: number, offset: number): Uint8Array[] {
  const { nx, ny, edge, t0, steps, cy } = row;
  const ncx = Math.ceil(nx / edge);
  const plane = edge * edge;
  const n = steps * plane;
  const out: Uint8Array[] = [];
  for (let cx = 0; cx < ncx; cx++) {
    const b = new Uint8Array(2 * n);
    // INT16_FILL (−32768 = 0x8000): low bytes 0x00, high bytes 0x80.
    b.fill(INT16_FILL & 0xff, 0, n);
    b.fill((INT16_FILL >> 8) & 0xff, n);
    out.push(b);
  }
  const j0 = cy * edge;
  const rows = Math.min(edge, ny - j0);
  const tEnd = Math.min(planes.length, t0 + steps);
  for (let t = t0; t < tEnd; t++) {
    const src = planes[t]!;
    const dt = (t - t0) * plane;
    for (let r = 0; r < rows; r++) {
      const s = (j0 + r) * nx;
      const d = dt + r * edge;
      for (let cx = 0; cx < ncx; cx++) {
        const b = out[cx]!;
        const i0 = cx * edge;
        const cols = Math.min(edge, nx - i0);
        for (let c = 0; c < cols; c++) {
          const v = src[s + i0 + c]!;
          // packInt16 (tiles/codecs/packing.ts), its NaN test inlined: this loop runs once per stored value.
          const p = v !== v ? INT16_FILL : clampRound((v - offset) / scale);
          b[d + c] = p & 0xff;
          b[n + d + c] = (p >> 8) & 0xff;
        }
      }
    }
  }
  return out;
}

function float32Row(planes: readonly Float32Array[], row: ChunkRow): Uint8Array[] {
  const { nx, ny, edge, t0, steps, cy } = row;
  const ncx = Math.ceil(nx / edge);
  const plane = edge * edge;
  const j0 = cy * edge;
  const rows = Math.min(edge, ny - j0);
  const tEnd = Math.min(planes.length, t0 + steps);
  const out: Uint8Array[] = [];
  for (let cx = 0; cx < ncx; cx++) {
    const chunk = new Float32Array(steps * plane).fill(NaN);
    const i0 = cx * edge;
    const cols = Math.min(edge, nx - i0);
    for (let t = t0; t < tEnd; t++) {
      const src = planes[t]!;
      for (let r = 0; r < rows; r++) chunk.set(src.subarray((j0 + r) * nx + i0, (j0 + r) * nx + i0 + cols), (t - t0) * plane + r * edge);
    }
    out.push(shuffle(new Uint8Array(chunk.buffer), 4));
  }
  return out;
}
