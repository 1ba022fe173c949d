/**
 * Pure interpolation for the point reader: bilinear in the grid's own
 * coordinates (Press et al., Numerical Recipes 3rd ed., §3.6, "bilinear
 * interpolation"), linear between the two time steps that bracket the asked
 * time. Everything works on caller-owned scratch objects so the hot path
 * allocates nothing.
 */
import { INT16_FILL } from '../codecs/packing.js';

/** The 2×2 neighbourhood of a fractional grid index. */
export interface Neighbourhood {
  i0: number;
  i1: number;
  j0: number;
  j1: number;
  /** Weights of (i0,j0), (i1,j0), (i0,j1), (i1,j1); they sum to 1. */
  w: Float64Array;
}

export function newNeighbourhood(): Neighbourhood {
  return { i0: 0, i1: 0, j0: 0, j1: 0, w: new Float64Array(4) };
}

/**
 * Fill `out` with the neighbours and bilinear weights of fractional index
 * (x, y) on an nx × ny grid. Points within half a cell beyond the edge cells
 * (gridIndexOf accepts them) clamp to the edge: the outer weight becomes 0.
 */
export function bilinearNeighbourhood(x: number, y: number, nx: number, ny: number, out: Neighbourhood): Neighbourhood {
  const xc = x < 0 ? 0 : x > nx - 1 ? nx - 1 : x;
  const yc = y < 0 ? 0 : y > ny - 1 ? ny - 1 : y;
  let i0 = Math.floor(xc);
  let j0 = Math.floor(yc);
  // On the last column/row the pair is (n−2, n−1) with full weight on n−1, so i1 stays in range.
  if (i0 > nx - 2) i0 = Math.max(0, nx - 2);
  if (j0 > ny - 2) j0 = Math.max(0, ny - 2);
  const i1 = Math.min(i0 + 1, nx - 1);
  const j1 = Math.min(j0 + 1, ny - 1);
  const fx = i1 === i0 ? 0 : xc - i0;
  const fy = j1 === j0 ? 0 : yc - j0;
  out.i0 = i0;
  out.i1 = i1;
  out.j0 = j0;
  out.j1 = j1;
  out.w[0] = (1 - fx) * (1 - fy);
  out.w[1] = fx * (1 - fy);
  out.w[2] = (1 - fx) * fy;
  out.w[3] = fx * fy;
  return out;
}

/** The time steps around an instant: value = (1 − w)·v[k0] + w·v[k1]. */
export interface TimeBracket {
  k0: number;
  k1: number;
  w: number;
}

export function newTimeBracket(): TimeBracket {
  return { k0: 0, k1: 0, w: 0 };
}

/**
 * Bracket `tMs` in the ascending axis `timesMs` (binary search). Returns
 * false when it lies outside [first, last]; an exact step gives w = 0.
 */
export function bracketTime(timesMs: Float64Array, tMs: number, out: TimeBracket): boolean {
  const n = timesMs.length;
  if (n === 0 || !(tMs >= timesMs[0]!) || !(tMs <= timesMs[n - 1]!)) return false;
  let lo = 0;
  let hi = n - 1;
  while (hi - lo > 1) {
    const mid = (lo + hi) >> 1;
    if (timesMs[mid]! <= tMs) lo = mid;
    else hi = mid;
  }
  if (timesMs[lo] === tMs || n === 1) {
    out.k0 = out.k1 = lo;
    out.w = 0;
  } else if (timesMs[hi] === tMs) {
    out.k0 = out.k1 = hi;
    out.w = 0;
  } else {
    out.k0 = lo;
    out.k1 = hi;
    out.w = (tMs - timesMs[lo]!) / (timesMs[hi]! - timesMs[lo]!);
  }
  return true;
}

/** Linear in time; NaN when a step with non-zero weight is missing. */
export function lerpTime(a: number, b: number, w: number): number {
  return w === 0 ? a : w === 1 ? b : (1 - w) * a + w * b;
}

/**
 * Combine the four neighbour values with their weights, skipping missing
 * ones (NaN) and renormalising over the valid ones. All missing → null. When
 * the valid neighbours all carry weight 0 (the point sits exactly on a
 * missing cell), their plain mean is used rather than a discontinuous null.
 */
export function combineNeighbours(v0: number, v1: number, v2: number, v3: number, w: Float64Array): number | null {
  let sum = 0;
  let wsum = 0;
  let plain = 0;
  let n = 0;
  if (v0 === v0) { sum += w[0]! * v0; wsum += w[0]!; plain += v0; n++; }
  if (v1 === v1) { sum += w[1]! * v1; wsum += w[1]!; plain += v1; n++; }
  if (v2 === v2) { sum += w[2]! * v2; wsum += w[2]!; plain += v2; n++; }
  if (v3 === v3) { sum += w[3]! * v3; wsum += w[3]!; plain += v3; n++; }
  if (n === 0) return null;
  if (n === 4) return sum;
  return wsum > 1e-12 ? sum / wsum : plain / n;
}

/**
 * Point lookups are bound by memory latency (see tiles/read/block.ts), so the
 * reader gathers the raw values of all variables first, in a tight loop
 * whose loads the CPU overlaps, and computes afterwards
 * ({@link rawToValueInt16}, {@link rawToValueFloat32}).
 *
 * gather*: for neighbour k in block `dk` (layout [cell][time][member]), the
 * raw values at `off[k] × cellStride + i0` and `… + i1` (i0/i1: the bracketing
 * steps' positions within the cell, step × members + member; equal for
 * static variables; i1 is not read when w = 0) into raw[at + 2k] and
 * raw[at + 2k + 1]. One function per element type keeps the typed-array
 * loads monomorphic.
 */
export function gatherInt16(
  d0: Int16Array, d1: Int16Array, d2: Int16Array, d3: Int16Array, off: Int32Array, cellStride: number, i0: number, i1: number, w: number,
  raw: Float64Array, at: number,
): void {
  const c0 = off[0]! * cellStride;
  const c1 = off[1]! * cellStride;
  const c2 = off[2]! * cellStride;
  const c3 = off[3]! * cellStride;
  raw[at] = d0[c0 + i0]!;
  raw[at + 2] = d1[c1 + i0]!;
  raw[at + 4] = d2[c2 + i0]!;
  raw[at + 6] = d3[c3 + i0]!;
  if (w === 0) return;
  raw[at + 1] = d0[c0 + i1]!;
  raw[at + 3] = d1[c1 + i1]!;
  raw[at + 5] = d2[c2 + i1]!;
  raw[at + 7] = d3[c3 + i1]!;
}

export function gatherFloat32(
  d0: Float32Array, d1: Float32Array, d2: Float32Array, d3: Float32Array, off: Int32Array, cellStride: number, i0: number, i1: number, w: number,
  raw: Float64Array, at: number,
): void {
  const c0 = off[0]! * cellStride;
  const c1 = off[1]! * cellStride;
  const c2 = off[2]! * cellStride;
  const c3 = off[3]! * cellStride;
  raw[at] = d0[c0 + i0]!;
  raw[at + 2] = d1[c1 + i0]!;
  raw[at + 4] = d2[c2 + i0]!;
  raw[at + 6] = d3[c3 + i0]!;
  if (w === 0) return;
  raw[at + 1] = d0[c0 + i1]!;
  raw[at + 3] = d1[c1 + i1]!;
  raw[at + 5] = d2[c2 + i1]!;
  raw[at + 7] = d3[c3 + i1]!;
}

/**
 * One int16-packed variable from its gathered raw values (CF §8.1: value =
 * raw × scale + offset; INT16_FILL = missing): per neighbour unpacked and
 * linear in time with weight `w`, then combined with the bilinear weights
 * `nw` ({@link combineNeighbours}).
 */
export function rawToValueInt16(raw: Float64Array, at: number, w: number, scale: number, offset: number, nw: Float64Array): number | null {
  // Every neighbour present (the common case): interpolate the raw values and unpack once, a linear map commuting with the weights (they sum to 1).
  const a0 = raw[at]!;
  const a1 = raw[at + 2]!;
  const a2 = raw[at + 4]!;
  const a3 = raw[at + 6]!;
  if (a0 !== INT16_FILL && a1 !== INT16_FILL && a2 !== INT16_FILL && a3 !== INT16_FILL) {
    if (w === 0) return (nw[0]! * a0 + nw[1]! * a1 + nw[2]! * a2 + nw[3]! * a3) * scale + offset;
    const b0 = raw[at + 1]!;
    const b1 = raw[at + 3]!;
    const b2 = raw[at + 5]!;
    const b3 = raw[at + 7]!;
    if (b0 !== INT16_FILL && b1 !== INT16_FILL && b2 !== INT16_FILL && b3 !== INT16_FILL) {
      const u = 1 - w;
      return (nw[0]! * (u * a0 + w * b0) + nw[1]! * (u * a1 + w * b1) + nw[2]! * (u * a2 + w * b2) + nw[3]! * (u * a3 + w * b3)) * scale + offset;
    }
  }
  return combineNeighbours(
    cellInt16(raw[at]!, raw[at + 1]!, w, scale, offset),
    cellInt16(raw[at + 2]!, raw[at + 3]!, w, scale, offset),
    cellInt16(raw[at + 4]!, raw[at + 5]!, w, scale, offset),
    cellInt16(raw[at + 6]!, raw[at + 7]!, w, scale, offset),
    nw,
  );
}

/** As {@link rawToValueInt16} for float32 values (NaN = missing, no unpacking). */
export function rawToValueFloat32(raw: Float64Array, at: number, w: number, nw: Float64Array): number | null {
  return combineNeighbours(
    w === 0 ? raw[at]! : lerpTime(raw[at]!, raw[at + 1]!, w),
    w === 0 ? raw[at + 2]! : lerpTime(raw[at + 2]!, raw[at + 3]!, w),
    w === 0 ? raw[at + 4]! : lerpTime(raw[at + 4]!, raw[at + 5]!, w),
    w === 0 ? raw[at + 6]! : lerpTime(raw[at + 6]!, raw[at + 7]!, w),
    nw,
  );
}

/** One neighbour, unpacked and linear in time; NaN when a step it needs is missing (r1 unused when w = 0). */
function cellInt16(r0: number, r1: number, w: number, scale: number, offset: number): number {
  if (w === 0) return r0 === INT16_FILL ? NaN : r0 * scale + offset;
  if (r0 === INT16_FILL || r1 === INT16_FILL) return NaN;
  // lerpTime written out (0 < w < 1 here): this is the innermost call of a lookup and V8 does not always inline two levels.
  return (1 - w) * (r0 * scale + offset) + w * (r1 * scale + offset);
}
