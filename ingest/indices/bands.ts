/**
 * Splitting a grid into bands of whole rows for the kernel, and putting the
 * results back: the store layout is one Float32Array per time step over the
 * whole grid; a band holds its cells for every step, step-major, so a worker
 * receives one contiguous array per variable and walks time in order.
 */
import type { GridDef } from '../../geo/grid.js';
import type { VariableInput } from '../../tiles/types.js';
import type { IndexName } from './catalogue.js';
import { SERIES_INPUTS, type BandJob, type BandResult } from './kernel.js';
import { cellCoords } from './sun.js';
import type { StepTiming } from './timeline.js';

/** Cells [from, to) of the grid, whole rows. */
export interface BandRange {
  from: number;
  to: number;
}

/**
 * About `count` bands of whole rows (fewer on small grids).
 *
 * @param count wanted number of bands (≥ 1)
 */
export function splitRows(grid: GridDef, count: number): BandRange[] {
  const rows = Math.max(1, Math.min(grid.ny, Math.round(count)));
  const out: BandRange[] = [];
  for (let b = 0; b < rows; b++) {
    const r0 = Math.floor((b * grid.ny) / rows);
    const r1 = Math.floor(((b + 1) * grid.ny) / rows);
    if (r1 > r0) out.push({ from: r0 * grid.nx, to: r1 * grid.nx });
  }
  return out;
}

/** The kernel's input for one band: copies of the band's cells of every present input. */
export function bandJob(
  grid: GridDef,
  range: BandRange,
  steps: StepTiming[],
  variables: Readonly<Record<string, VariableInput>>,
  outputs: IndexName[],
): BandJob {
  const m = range.to - range.from;
  const series: BandJob['series'] = {};
  for (const name of SERIES_INPUTS) {
    const v = variables[name];
    if (!v || v.static) continue;
    const band = new Float32Array(steps.length * m);
    v.values.forEach((arr, k) => band.set(arr.subarray(range.from, range.to), k * m));
    series[name] = band;
  }
  return { cells: m, steps, coords: cellCoords(grid, range.from, range.to), series, outputs };
}

/** Write a band's results into the per-step grid arrays. */
export function scatterBand(range: BandRange, steps: number, result: BandResult, into: Partial<Record<IndexName, Float32Array[]>>): void {
  const m = range.to - range.from;
  for (const [name, band] of Object.entries(result) as [IndexName, Float32Array][]) {
    const target = into[name];
    if (!target) continue;
    for (let k = 0; k < steps; k++) target[k]!.set(band.subarray(k * m, (k + 1) * m), range.from);
  }
}

/** Every array a band job carries, for a worker's transfer list. */
export function transferables(job: BandJob): ArrayBuffer[] {
  const arrays: ArrayBufferView[] = [job.coords.latDeg, job.coords.lonDeg, job.coords.sinLat, job.coords.cosLat];
  for (const a of Object.values(job.series)) if (a) arrays.push(a);
  return arrays.map((a) => a.buffer as ArrayBuffer);
}
