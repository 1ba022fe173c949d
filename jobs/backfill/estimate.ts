/**
 * The disk a backfill will take, printed before it starts: per year the
 * int16 values of every variable at every step over the Italy domain at the
 * source's spacing, before compression (an upper bound: zstd takes smooth
 * fields to roughly a third). Downloads are transient (one year's files per
 * running job, removed when it completes) and counted apart.
 */
import type { BackfillSource } from './plan.js';

export interface SourceShape {
  /** Cells of the Italy crop (METEOPUNTO_DOMAIN default) as ingest makes it: ERA5 0.25° 67 × 57, 20CRv3 1° 21 × 18. */
  cells: number;
  /** Time steps per (non-leap) year. */
  stepsPerYear: number;
  /** Variables stored. */
  variables: number;
}

/** ERA5: hourly 0.25°, the ten canonical variables + orography; 20CRv3: 3-hourly 1°, seven (no gust, cloud, precipitation, radiation). */
export const SHAPES: Record<BackfillSource, SourceShape> = {
  era5: { cells: 67 * 57, stepsPerYear: 8760, variables: 10 },
  '20crv3': { cells: 21 * 18, stepsPerYear: 2920, variables: 7 },
};

export function yearBytes(source: BackfillSource): number {
  const s = SHAPES[source];
  return s.cells * s.stepsPerYear * s.variables * 2;
}

export function humanBytes(n: number): string {
  const units = ['B', 'KB', 'MB', 'GB', 'TB'];
  let v = n;
  let u = 0;
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024;
    u++;
  }
  return `${v.toFixed(v < 10 && u > 0 ? 1 : 0)} ${units[u]}`;
}
