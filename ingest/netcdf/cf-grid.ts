/**
 * Normalises 1-D CF coordinate axes to the project's grid contract
 * (geo/grid.ts): y ascending (descending latitudes flip rows), x ascending
 * with x0 in −180..180; a global 0..360 longitude axis is rolled so that the
 * first column is the westernmost in −180..180 (0..359.75 → −180..179.75),
 * and a repeated 360° column (0..360 inclusive) is dropped. Each axis yields
 * the source index of every output cell, so the gather in slab.ts does flip,
 * roll and transposition in one pass.
 */
import { wrapLon } from '../../geo/grid.js';

export class GridAxisError extends Error {}

export interface AxisLayout {
  /** First output coordinate and spacing (> 0), degrees. */
  start: number;
  step: number;
  /** Source index for each output position. */
  srcIndex: Int32Array;
}

/**
 * Shortest decimal that rounds to the same float32 (what ncdump prints): a
 * float32 latitude 36.2 is stored as 36.200001525878906, and the grid origin
 * should be 36.2, not the binary artefact.
 */
export function cleanFloat32(x: number): number {
  for (let digits = 1; digits <= 9; digits++) {
    const y = Number(x.toPrecision(digits));
    if (Math.fround(y) === Math.fround(x)) return y;
  }
  return x;
}

function roundStep(x: number): number {
  return Number(x.toPrecision(10));
}

/** Regular spacing check; returns the ascending layout of a regular axis. */
function regular(values: ArrayLike<number>, name: string, float32: boolean): AxisLayout {
  const n = values.length;
  const c = (i: number) => (float32 ? cleanFloat32(values[i]!) : values[i]!);
  if (n < 2) throw new GridAxisError(`axis ${name} has ${n} value(s): its spacing is unknown`);
  const first = c(0);
  const last = c(n - 1);
  const step = roundStep((last - first) / (n - 1));
  if (step === 0 || !Number.isFinite(step)) throw new GridAxisError(`axis ${name} is not monotonic`);
  // Tolerance: 1 % of a cell, well above float32 rounding (3e-5° at 360°).
  const tol = Math.abs(step) * 0.01;
  for (let i = 1; i < n - 1; i++) {
    if (Math.abs(c(i) - (first + i * step)) > tol) {
      throw new GridAxisError(`axis ${name} is not regularly spaced (value #${i} = ${c(i)}, expected ${first + i * step}): only regular grids are supported`);
    }
  }
  const srcIndex = new Int32Array(n);
  if (step > 0) {
    for (let i = 0; i < n; i++) srcIndex[i] = i;
    return { start: first, step, srcIndex };
  }
  for (let i = 0; i < n; i++) srcIndex[i] = n - 1 - i;
  return { start: last, step: -step, srcIndex };
}

/** Latitude-like (y) axis: ascending after normalisation. */
export function yAxis(values: ArrayLike<number>, name: string, float32: boolean): AxisLayout {
  return regular(values, name, float32);
}

/**
 * Longitudes that cross the 0/360 seam inside a regional extract
 * (350, 352, ..., 358, 0, 2, ...) are made continuous (..., 358, 360, 362)
 * before the regularity check; an axis that really goes backwards stays as is.
 */
function unwrapLongitudes(values: ArrayLike<number>, float32: boolean): Float64Array {
  const out = new Float64Array(values.length);
  let shift = 0;
  for (let i = 0; i < values.length; i++) {
    const v = float32 ? cleanFloat32(values[i]!) : values[i]!;
    if (i > 0) {
      const prev = out[i - 1]! - shift;
      if (v - prev < -180) shift += 360;
      else if (v - prev > 180) shift -= 360;
    }
    out[i] = v + shift;
  }
  return out;
}

/**
 * Longitude-like (x) axis: ascending, x0 wrapped into −180..180; a global
 * axis is rolled so that x0 is the westernmost column in −180..180.
 */
export function xAxis(values: ArrayLike<number>, name: string, float32: boolean): AxisLayout {
  const a = regular(unwrapLongitudes(values, float32), name, false);
  let n = a.srcIndex.length;
  const span = n * a.step;
  const tol = a.step * 0.01;
  let idx = a.srcIndex;
  if (Math.abs(span - 360 - a.step) <= tol) {
    n -= 1; // both 0° and 360°: the last column repeats the first
    idx = idx.subarray(0, n);
  }
  if (Math.abs(n * a.step - 360) > tol) return { start: wrapLon(a.start), step: a.step, srcIndex: a.srcIndex.slice(0, n) };
  // Global: start at the column whose longitude, wrapped into [−180, 180), is smallest.
  const westMost = (lon: number) => ((((lon + 180) % 360) + 360) % 360) - 180;
  let k = 0;
  let best = Infinity;
  for (let i = 0; i < n; i++) {
    const w = westMost(a.start + i * a.step);
    if (w < best - 1e-9) {
      best = w;
      k = i;
    }
  }
  const rolled = new Int32Array(n);
  for (let i = 0; i < n; i++) rolled[i] = idx[(i + k) % n]!;
  return { start: roundStep(best), step: a.step, srcIndex: rolled };
}
