/**
 * Gathers one 2-D field out of an N-D raw array: picks cells through the
 * per-axis source indices from cf-grid.ts (flip, roll, transposition) and
 * decodes CF packing (cf-packing.ts) on the way, one pass, no per-cell
 * allocation.
 */
import type { Packing } from './cf-packing.js';

export interface SlabGeometry {
  /** Source index along the x dimension for each output column. */
  xIndex: Int32Array;
  /** Source index along the y dimension for each output row (row 0 = south). */
  yIndex: Int32Array;
  /** Element strides of the x and y dimensions in the raw array. */
  xStride: number;
  yStride: number;
}

function isIdentity(idx: Int32Array): boolean {
  for (let i = 0; i < idx.length; i++) if (idx[i] !== i) return false;
  return true;
}

/** True when the packing changes nothing (no scale, offset, fill or range). */
function isPlain(p: Packing): boolean {
  return p.scale === 1 && p.offset === 0 && p.missing.length === 0 && p.validMin === -Infinity && p.validMax === Infinity;
}

/** Output row-major [y][x] field for the 2-D slab that starts at raw element `base`. */
export function gatherField(raw: Float32Array | Float64Array, base: number, g: SlabGeometry, p: Packing): Float32Array {
  const nx = g.xIndex.length;
  const ny = g.yIndex.length;
  const out = new Float32Array(nx * ny);
  if (raw instanceof Float32Array && g.xStride === 1 && isPlain(p) && isIdentity(g.xIndex)) {
    // Common case (plain float32, x contiguous): copy rows.
    for (let j = 0; j < ny; j++) {
      const from = base + g.yIndex[j]! * g.yStride;
      out.set(raw.subarray(from, from + nx), j * nx);
    }
    return out;
  }
  // Decode with the packing in locals (the CF rule of cf-packing.ts, inlined:
  // missing when NaN, outside the valid range, or equal to a fill/missing value).
  const { scale, offset, validMin, validMax } = p;
  const m0 = p.missing[0] ?? NaN;
  const m1 = p.missing[1] ?? NaN;
  const more = p.missing.length > 2 ? p.missing.slice(2) : undefined;
  if (g.xStride === 1 && isIdentity(g.xIndex)) {
    // x contiguous and in order (the usual layout): no index indirection.
    for (let j = 0; j < ny; j++) {
      const row = base + g.yIndex[j]! * g.yStride;
      const o = j * nx;
      for (let i = 0; i < nx; i++) {
        const r = raw[row + i]!;
        const bad = r !== r || r < validMin || r > validMax || r === m0 || r === m1 || (more !== undefined && more.includes(r));
        out[o + i] = bad ? NaN : r * scale + offset;
      }
    }
    return out;
  }
  const xOff = new Int32Array(nx);
  for (let i = 0; i < nx; i++) xOff[i] = g.xIndex[i]! * g.xStride;
  for (let j = 0; j < ny; j++) {
    const row = base + g.yIndex[j]! * g.yStride;
    const o = j * nx;
    for (let i = 0; i < nx; i++) {
      const r = raw[row + xOff[i]!]!;
      const bad = r !== r || r < validMin || r > validMax || r === m0 || r === m1 || (more !== undefined && more.includes(r));
      out[o + i] = bad ? NaN : r * scale + offset;
    }
  }
  return out;
}
