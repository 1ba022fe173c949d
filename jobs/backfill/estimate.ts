/**
 * The disk a backfill will take, printed before it starts: per year the
 * int16 values of every variable at every step over the Italy domain at the
 * source's spacing, before compression (an upper bound: zstd takes smooth
 * fields to roughly a third). Downloads are transient (one year's files per
 * running job, removed when it completes) and counted apart.
 */
import type { BackfillSource } from './plan.js';

export interface SourceShape {
  /** Grid spacing, degrees. */
  stepDeg: number;
  /** Time steps per (non-leap) year. */
  stepsPerYear: number;
  /** Variables stored. */
  variables: number;
}

/** ERA5: hourly 0.25°, the ten canonical variables + orography; 20CRv3: 3-hourly 1°, seven (no gust, cloud, precipitation, radiation). */
export const SHAPES: Record<BackfillSource, SourceShape> = {
  era5: { stepDeg: 0.25, stepsPerYear: 8760, variables: 10 },
  '20crv3': { stepDeg: 1, stepsPerYear: 2920, variables: 7 },
};

/** Italy's box (geo/regions, ingest domain): 6–19° E, 35–48° N. */
const DOMAIN_DEG = { lon: 13, lat: 13 };

export function yearBytes(source: BackfillSource): number {
  const s = SHAPES[source];
  const cells = (Math.floor(DOMAIN_DEG.lon / s.stepDeg) + 2) * (Math.floor(DOMAIN_DEG.lat / s.stepDeg) + 2);
  return cells * s.stepsPerYear * s.variables * 2;
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
