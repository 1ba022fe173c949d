/**
 * CF time coordinates (CF Conventions 1.11 §4.4,
 * https://cfconventions.org/cf-conventions/cf-conventions.html#time-coordinate):
 * `<unit> since <reference date>[ <time>][ <zone>]` in a CF calendar
 * (cf-calendar.ts). Accepts the spellings real producers write:
 * "hours since 1900-01-01 00:00:0.0" (ECMWF grib_to_netcdf),
 * "seconds since 1970-01-01T00:00:00Z", "days since 2000-1-1",
 * "minutes since 2020-01-01 00:00:00 UTC", "hours since 2020-01-01 06:00 +01:00".
 * Months and years are refused: UDUNITS defines them as fractions of a
 * tropical year, which nobody means.
 */
import { addToLabel, parseCalendar, type Calendar, type DateLabel } from './cf-calendar.js';

export class TimeUnitsError extends Error {}

const UNIT_MS: Record<string, number> = {};
for (const [names, ms] of [
  [['milliseconds', 'millisecond', 'msecs', 'msec', 'ms'], 1],
  [['seconds', 'second', 'secs', 'sec', 's'], 1000],
  [['minutes', 'minute', 'mins', 'min'], 60_000],
  [['hours', 'hour', 'hrs', 'hr', 'h'], 3_600_000],
  [['days', 'day', 'd'], 86_400_000],
  [['weeks', 'week'], 604_800_000],
] as const) {
  for (const n of names) UNIT_MS[n] = ms;
}

export interface TimeUnits {
  unitMs: number;
  reference: DateLabel;
  /** Zone offset of the reference date, ms east of UTC. */
  zoneMs: number;
  calendar: Calendar;
}

const SINCE =
  /^\s*(\w+)\s+since\s+(-?\d{1,5})-(\d{1,2})-(\d{1,2})(?:(?:T|\s+)(\d{1,2}):(\d{1,2})(?::(\d{1,2}(?:\.\d*)?))?)?\s*(?:(Z|UTC|GMT)|([+-])(\d{1,2})(?::?(\d{2}))?)?\s*$/i;

/** Duration unit of a plain duration units string ("hours", "s"), for forecast_period. */
export function durationUnitMs(units: string): number {
  const ms = UNIT_MS[units.trim().toLowerCase()];
  if (ms === undefined) throw new TimeUnitsError(`unsupported duration unit "${units}"`);
  return ms;
}

export function parseTimeUnits(units: string, calendarAttr: string | undefined): TimeUnits {
  const m = SINCE.exec(units);
  if (!m) throw new TimeUnitsError(`time units "${units}" are not "<unit> since <date>"`);
  const unit = m[1]!.toLowerCase();
  if (/^(months?|years?|yr|common_years?)$/.test(unit)) {
    throw new TimeUnitsError(`time unit "${m[1]}" is ambiguous (UDUNITS month/year), not supported`);
  }
  const unitMs = UNIT_MS[unit];
  if (unitMs === undefined) throw new TimeUnitsError(`time unit "${m[1]}" is not supported`);
  const calendar = parseCalendar(calendarAttr);
  if (!calendar) throw new TimeUnitsError(`calendar "${calendarAttr}" is not supported`);
  const month = Number(m[3]);
  const day = Number(m[4]);
  if (month < 1 || month > 12 || day < 1 || day > 31) throw new TimeUnitsError(`reference date in "${units}" is invalid`);
  const seconds = Number(m[5] ?? 0) * 3600 + Number(m[6] ?? 0) * 60 + Number(m[7] ?? 0);
  const zoneMs = m[9] ? (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 3_600_000 + Number(m[11] ?? 0) * 60_000) : 0;
  return { unitMs, reference: { year: Number(m[2]), month, day, seconds }, zoneMs, calendar };
}

/** Unix milliseconds of one time value. */
export function timeValueToMs(value: number, u: TimeUnits): number {
  try {
    return Math.round(addToLabel(u.calendar, u.reference, value * u.unitMs - u.zoneMs));
  } catch (e) {
    throw new TimeUnitsError((e as Error).message);
  }
}

/** Unix milliseconds for each value of a time coordinate. */
export function decodeTimes(values: ArrayLike<number>, units: string, calendarAttr: string | undefined): Float64Array {
  const u = parseTimeUnits(units, calendarAttr);
  const out = new Float64Array(values.length);
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (!Number.isFinite(v)) throw new TimeUnitsError(`time value #${i} is not finite`);
    out[i] = timeValueToMs(v, u);
  }
  return out;
}
