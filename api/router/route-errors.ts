/**
 * What a request is told when no product answers a feed it needs
 * (./route.ts misses → ApiError, DESIGN.md "API contract"):
 *
 * - nothing feeds it at all → 503 DATA_NOT_AVAILABLE (nothing ingested yet);
 * - a product covers the point but not the time:
 *   - an explicit `time=` → 404 NOT_FOUND naming what is covered (the
 *     forecast's range, the reanalysis years present);
 *   - the current time → 503 DATA_NOT_AVAILABLE: the client asked nothing
 *     wrong, the forecast is stale until the next ingest;
 * - no product's region holds the point → 404 NOT_FOUND.
 */
import { ApiError } from '../errors.js';
import type { Miss } from './route.js';

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

export function noRouteError(what: string, misses: readonly Miss[], ctx: { timeRequested: boolean }): ApiError {
  const timeMisses = misses.filter((m) => m.why === 'outside_time' || m.why === 'period_missing');
  if (misses.length === 0) return new ApiError('DATA_NOT_AVAILABLE', `No ${what} data has been published yet; try again after the next ingest`);
  if (timeMisses.length > 0) {
    return ctx.timeRequested
      ? new ApiError('NOT_FOUND', `No data for the requested time (${coverage(timeMisses)})`)
      : new ApiError('DATA_NOT_AVAILABLE', `The published forecast does not cover the current time (${coverage(timeMisses)}); a newer one has not been ingested yet`);
  }
  const first = misses.find((m): m is Extract<Miss, { why: 'outside_region' }> => m.why === 'outside_region');
  if (!first) return new ApiError('DATA_NOT_AVAILABLE', `No ${what} data is available yet; try again after the next ingest`);
  return new ApiError('NOT_FOUND', `No ${first.product} data at this point: it lies outside the ${first.region}`);
}
