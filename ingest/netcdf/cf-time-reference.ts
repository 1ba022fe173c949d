/**
 * Time coordinates whose reference date is not in `units`. CAMS European
 * regional NetCDF files as the Atmosphere Data Store delivered them (Meteo
 * France's "ENSEMBLE" writer) carry `units = "hours"` and put the date only
 * in `long_name`: "FORECAST time from 20240101", "ANALYSIS time from
 * 20240101" (CAMS Regional: European air quality analysis and forecast data
 * documentation, ECMWF Confluence, NetCDF format section). Such a coordinate
 * is read as "<unit> since <date> 00:00 UTC"; anything else without "since"
 * stays unknown, never guessed.
 */
import { attrText, type AttrValue } from './model.js';
import { durationUnitMs, TimeUnitsError } from './cf-time.js';

interface CoordLike {
  name: string;
  attrs: ReadonlyMap<string, AttrValue>;
}

/** "... time from 20240101" or "... from 2024-01-01[ 06:00]" (UTC). */
const FROM_DATE = /\btime\s+from\s+(\d{4})-?(\d{2})-?(\d{2})(?:[T\s]?(\d{2})(?::?(\d{2}))?)?\s*$/i;

/**
 * CF units of a time coordinate: its own `units` when they say "since",
 * else "<units> since <date>" built from a CAMS-style long_name, else
 * undefined (not a time coordinate we can decode).
 */
export function effectiveTimeUnits(v: CoordLike): string | undefined {
  const units = attrText(v, 'units');
  if (units === undefined) return undefined;
  if (/^\s*\w+\s+since\s+/i.test(units)) return units;
  const m = FROM_DATE.exec(attrText(v, 'long_name') ?? '');
  if (!m) return undefined;
  try {
    durationUnitMs(units);
  } catch (e) {
    if (e instanceof TimeUnitsError) return undefined;
    throw e;
  }
  return `${units.trim()} since ${m[1]}-${m[2]}-${m[3]} ${m[4] ?? '00'}:${m[5] ?? '00'}:00 UTC`;
}
