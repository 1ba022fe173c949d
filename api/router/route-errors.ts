/**
 * What a request is told when no product answers a feed it needs
 * (./route.ts misses → ApiError, docs/api.md "Errors"):
 *
 * - nothing feeds it at all → 503 DATA_NOT_AVAILABLE (nothing ingested yet);
 * - a product covers the point but not the time:
 *   - an explicit `time=` → 404 NOT_FOUND naming what is covered (the
 *     forecast's range, the reanalysis years present), and that history
 *     for the year is absent when nothing is published for it;
 *   - the current time → 503 DATA_NOT_AVAILABLE: the client asked nothing
 *     wrong, the forecast is stale until the next ingest;
 * - no product's region holds the point → 404 NOT_FOUND naming the widest
 *   region and its box (from the manifest) beside the parameters' bounds.
 */
import { ApiError } from '../errors.js';
import type { Miss } from './route.js';
import { LAT_RANGE, LON_RANGE } from '../weather/schema.js';

/** '1940–1945, 1950': consecutive years as ranges. */
export function describePeriods(periods: readonly string[]): string {
  const years = periods.map(Number).filter(Number.isFinite).sort((a, b) => a - b);
  const parts: string[] = [];
  for (let k = 0; k < years.length; ) {
    let e = k;
    while (e + 1 < years.length && years[e + 1] === years[e]! + 1) e++;
    parts.push(e > k ? `${years[k]}–${years[e]}` : String(years[k]));
    k = e + 1;
  }
  return parts.join(', ') || 'none';
}

function coverage(misses: readonly Miss[]): string {
  return misses
    .map((m) =>
      m.why === 'outside_time' ? `${m.product} data covers ${m.from} to ${m.to}`
        : m.why === 'period_missing' ? `${m.product} has no data for ${m.period} (years present: ${describePeriods(m.periods)})`
          : null)
    .filter((s): s is string => s !== null)
    .join('; ');
}

type RegionMiss = Extract<Miss, { why: 'outside_region' }>;

/** Degrees for a message: at most 3 decimals, no float noise (5.95, not 5.949999999). */
const deg = (x: number) => String(Number(x.toFixed(3)));

/** The region of widest extent: for a point outside every region, the one worth naming. */
function widest(misses: readonly RegionMiss[]): RegionMiss {
  const area = (m: RegionMiss) => (m.bbox[2] - m.bbox[0]) * (m.bbox[3] - m.bbox[1]);
  return misses.reduce((a, b) => (area(b) > area(a) ? b : a));
}

/**
 * The 404 of a point no product's region holds: the widest region with its
 * box from the manifest, beside the bounds the parameters accept (a point
 * can be valid input and still lie outside the data).
 */
function outsideError(misses: readonly RegionMiss[], point: { lat: number; lon: number }): ApiError {
  const m = widest(misses);
  const [w, s, e, n] = m.bbox;
  return new ApiError(
    'NOT_FOUND',
    `No data at this point (lat ${point.lat}, lon ${point.lon}): it lies outside the ${m.region}, which covers lat ${deg(s)}–${deg(n)}, lon ${deg(w)}–${deg(e)} ` +
      `(the parameters accept lat ${LAT_RANGE.min}–${LAT_RANGE.max}, lon ${LON_RANGE.min}–${LON_RANGE.max})`,
  );
}

/**
 * For a `time=` in a year no published product touches and no period
 * product names (none is published at all): history for that year is
 * absent, which the forecast's range alone would not say.
 */
function historyNote(timeMisses: readonly Miss[], timeMs: number): string {
  if (timeMisses.some((m) => m.why === 'period_missing')) return '';
  const year = new Date(timeMs).getUTCFullYear();
  const touches = timeMisses.some((m) => m.why === 'outside_time' && new Date(m.from).getUTCFullYear() <= year && new Date(m.to).getUTCFullYear() >= year);
  const before = timeMisses.every((m) => m.why === 'outside_time' && timeMs < Date.parse(m.from));
  return touches || !before ? '' : `; history for ${year} is not available: no reanalysis is published for ${year}`;
}

export function noRouteError(what: string, misses: readonly Miss[], ctx: { timeRequested: boolean; timeMs: number; lat: number; lon: number }): ApiError {
  if (misses.length === 0) return new ApiError('DATA_NOT_AVAILABLE', `No ${what} data has been published yet; try again after the next ingest`);
  const regionMisses = misses.filter((m): m is RegionMiss => m.why === 'outside_region');
  // A product that holds the point but not the time speaks first, and so does a missing period when
  // `time=` chose it: the years present matter more than the forecast grid's edge to a historical
  // time (the period's own region is unknown, nothing of it being published). Otherwise a point no
  // published product holds is told it lies outside.
  const coversPoint = misses.some((m) => m.why === 'outside_time' || (ctx.timeRequested && m.why === 'period_missing'));
  if (!coversPoint && regionMisses.length > 0) return outsideError(regionMisses, ctx);
  const timeMisses = misses.filter((m) => m.why === 'outside_time' || m.why === 'period_missing');
  if (timeMisses.length > 0) {
    return ctx.timeRequested
      ? new ApiError('NOT_FOUND', `No data for the requested time (${coverage(timeMisses)}${historyNote(timeMisses, ctx.timeMs)})`)
      : new ApiError('DATA_NOT_AVAILABLE', `The published forecast does not cover the current time (${coverage(timeMisses)}); a newer one has not been ingested yet`);
  }
  return new ApiError('DATA_NOT_AVAILABLE', `No ${what} data is available yet; try again after the next ingest`);
}
