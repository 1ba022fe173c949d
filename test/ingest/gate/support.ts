/**
 * Files for the ingest gate tests: written by netCDF4-python
 * (fixtures/make_gate_file.py) into a temp dir, on the grid of the real
 * ERA5-Land Italy daily file and from its values.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { dataFile } from '../../support/shared-data.js';

export const REAL = dataFile('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
const MAKE = join(import.meta.dirname, 'fixtures', 'make_gate_file.py');
/** 2023-11-01T00Z, the real file's first day: the valid file's first step. */
export const START_S = Date.UTC(2023, 10, 1) / 1000;

export type GateFileKind = 'valid' | 'notime' | 'nonfinite' | 'constant' | 'kelvin' | 'backwards' | 'epoch' | 'norecords';

/** Path of a new file of `kind` in `dir`, its first step at `startS` (Unix seconds); `tag` names it apart. */
export function gateFile(dir: string, kind: GateFileKind, startS = START_S, tag = ''): string {
  const out = join(dir, `t2m-${kind}${tag ? `-${tag}` : ''}.nc`);
  execFileSync('/usr/bin/python3', [MAKE, REAL, out, kind, String(startS)]);
  return out;
}
