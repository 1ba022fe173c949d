/**
 * Pure interpolation for the point reader: bilinear in the grid's own
 * coordinates (Press et al., Numerical Recipes 3rd ed., §3.6, "bilinear
 * interpolation"), linear between the two time steps that bracket the asked
 * time. Everything works on caller-owned scratch objects so the hot path
 * allocates nothing.
 */

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
