/**
 * Whether the files given to `cams` are the CAMS global reanalysis (EAC4)
 * rather than one forecast run. cams is ordered by run (a later forecast
 * supersedes an earlier one), but a reanalysis is no run: its newest time
 * says nothing about which content is newer, and a forecast taken after it
 * (or another year of it) must not be refused as "older".
 *
 * Recognised by the fields alone, as ADS delivers EAC4 (NetCDF by
 * grib_to_netcdf, or GRIB): only CAMS global short names (`pm2p5`, `pm10`,
 * `no2`, `go3`, `so2`: the European regional files say `…_conc`), and a
 * series of analyses: every field valid at its own reference time, at more
 * than one time (a forecast run has one reference time and steps after it).
 * One EAC4 time alone cannot be told from a global forecast's step 0: it
 * stays a run, and `--model` names it.
 */
import type { FieldTimes } from '../product.js';

export const EAC4_MODEL = 'CAMS EAC4';

const GLOBAL_NAMES = new Set(['pm2p5', 'pm10', 'no2', 'go3', 'so2']);

/** The model to record and a note for the report when `fields` are EAC4; null otherwise. */
export function recogniseEac4(fields: readonly FieldTimes[]): { model: string; note: string } | null {
  if (fields.length === 0) return null;
  const times = new Set<number>();
  for (const f of fields) {
    if (!GLOBAL_NAMES.has(f.source) || f.referenceTime.getTime() !== f.validTime.getTime()) return null;
    times.add(f.referenceTime.getTime());
  }
  if (times.size < 2) return null;
  return {
    model: EAC4_MODEL,
    note: `CAMS global reanalysis (EAC4): global short names, ${times.size} analyses each at its own time; recorded as model ${EAC4_MODEL}, not a forecast run, so not ordered by run`,
  };
}
