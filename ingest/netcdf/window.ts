/**
 * Window-only reading of a NetCDF variable: when the ingest gives the area it
 * needs (ReadOptions.box), a field on a regular latitude/longitude grid is
 * read only over the cells the pipeline's crop would keep anyway
 * (ingest/mapping/crop.ts: the box plus its margin, the same window), so a
 * global file is never held whole. A global 20CRv3 year of one variable is
 * 2,920 × 181 × 360 values: read whole it made 760 MB of fields before the
 * crop; over Italy it is 2,920 × 18 × 21.
 *
 * NetCDF4 variables are read as an HDF5 hyperslab of the window's source
 * rows and columns (the backend's `readWindow`); NetCDF3 ones are read in
 * blocks as before and only the window is gathered. The window's source
 * indices are the plan's own (flips and the 0..360 roll included), so each
 * output cell holds exactly what the whole read put there.
 */
import type { GridDef } from '../../geo/grid.js';
import { cropGrid, cropWindow } from '../mapping/crop.js';
import type { DimPlan, VariablePlan } from './field-plan.js';
import type { SlabGeometry } from './slab.js';

/** The area an ingest needs, WGS 84 degrees [west, south, east, north]. */
export type Box = readonly [number, number, number, number];

/** How a plan's variable is read over a window. */
export interface WindowRead {
  /** The window's grid (the plan's grid cropped). */
  grid: GridDef;
  /** Per dimension of the variable, the source index range [start, end) to read (x and y narrowed, the others whole). */
  ranges: [number, number][];
  /** Geometry of the gathered field inside a raw array of the ranges' shape. */
  geometry: SlabGeometry;
  /** Element strides of the ranges' shape, per dimension (the raw array as read). */
  strides: number[];
  /** Geometry inside the whole variable's raw array (for a backend that cannot read a window). */
  wholeGeometry: SlabGeometry;
}

/**
 * The window of `plan` covering `box` plus the crop margin, or null when the
 * whole field is read (not a regular latitude/longitude grid, no overlap, the
 * window is the whole grid or wraps around the date line).
 */
export function planWindow(plan: VariablePlan, box: Box): WindowRead | null {
  const { grid, geometry, dims } = plan;
  if (grid.kind !== 'regular_ll') return null;
  const [lonMin, latMin, lonMax, latMax] = box;
  const w = cropWindow(grid, { lonMin, latMin, lonMax, latMax });
  if (!w || w.i0 < 0 || w.i0 + w.nx > grid.nx || (w.nx === grid.nx && w.ny === grid.ny)) return null;
  const xIdx = geometry.xIndex.subarray(w.i0, w.i0 + w.nx);
  const yIdx = geometry.yIndex.subarray(w.j0, w.j0 + w.ny);
  const [sx0, sx1] = span(xIdx);
  const [sy0, sy1] = span(yIdx);
  const ranges = dims.map((d): [number, number] => (d.role === 'x' ? [sx0, sx1] : d.role === 'y' ? [sy0, sy1] : [0, d.len]));
  const strides = stridesOf(ranges);
  const xd = dims.findIndex((d: DimPlan) => d.role === 'x');
  const yd = dims.findIndex((d: DimPlan) => d.role === 'y');
  return {
    grid: cropGrid(grid, w),
    ranges,
    strides,
    geometry: { xIndex: xIdx.map((i) => i - sx0), yIndex: yIdx.map((j) => j - sy0), xStride: strides[xd]!, yStride: strides[yd]! },
    wholeGeometry: { xIndex: xIdx.slice(), yIndex: yIdx.slice(), xStride: geometry.xStride, yStride: geometry.yStride },
  };
}

/** [min, max + 1) of source indices. */
function span(idx: Int32Array): [number, number] {
  let lo = Infinity;
  let hi = -Infinity;
  for (const i of idx) {
    if (i < lo) lo = i;
    if (i > hi) hi = i;
  }
  return [lo, hi + 1];
}

/** Row-major element strides of an array whose dimensions span `ranges`. */
function stridesOf(ranges: readonly [number, number][]): number[] {
  const out = new Array<number>(ranges.length);
  let s = 1;
  for (let k = ranges.length - 1; k >= 0; k--) {
    out[k] = s;
    s *= ranges[k]![1] - ranges[k]![0];
  }
  return out;
}
