/**
 * What a source's accumulated and mean fields cover when the file does not
 * say (NetCDF without time bounds or a daily axis, ../netcdf/cf-step.ts):
 * stated per source model, because the model's documentation says it and the
 * CDS's NetCDF conversion drops GRIB's step range.
 *
 * - `hour`, ERA5: every accumulation is over the hour ending at its time
 *   stamp (ERA5 documentation, "Mean rates/fluxes and accumulations"), also
 *   in a file that keeps only every third or sixth hour: such a value is that
 *   hour's amount, not the amount of the 3- or 6-hour gap.
 * - `since-00utc`, ERA5-Land: a running total since 00 UTC of the day, so
 *   the value at 00 UTC is the whole previous day's total (ECMWF, "ERA5-Land:
 *   data documentation", table "Conversion of accumulated variables"): each
 *   hour's amount is the difference to the previous hour of that day.
 * - `spacing`, anything else: the amount over the spacing to the previous
 *   time of the file.
 */
import { basename } from 'node:path';

export type AccumulationConvention = 'hour' | 'since-00utc' | 'spacing';

const HOUR_MS = 3_600_000;
const DAY_MS = 86_400_000;

/** The convention of a file from the source model the ingest names (manifest `source.model`) or, without one, the file name. */
export function accumulationConvention(model: string | undefined, file: string): AccumulationConvention {
  if (model === 'ERA5-Land' || (model === undefined && /era5[-_]?land/i.test(basename(file)))) return 'since-00utc';
  if (model === 'ERA5') return 'hour';
  return 'spacing';
}

/** Start of the interval a value at `validMs` covers under a fixed convention; null for `spacing` (it needs the series). */
export function conventionStart(convention: AccumulationConvention, validMs: number): number | null {
  if (convention === 'hour') return validMs - HOUR_MS;
  // 00 UTC belongs to the day before: its value is that day's total.
  if (convention === 'since-00utc') return Math.floor((validMs - 1) / DAY_MS) * DAY_MS;
  return null;
}
