/**
 * What the ADS/CDS emulator delivers, made from the real files in
 * ../shared/data: the CAMS Europe files as they are (one NetCDF or a
 * netcdf_zip of both), and ERA5 GRIB for a request's days and times made
 * from the real ERA5 2 m temperature message by ecCodes' own grib_set (the
 * values stay the real field; only the date and time keys change). The one
 * real ECMWF geopotential message there (1000 hPa, 1°) stands in for the
 * time-invariant request.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { dataFile } from '../shared-data.js';

export const CAMS_FILES = () => [dataFile('cams-europe-pollen-jaen/2024AnalisisPolem.nc'), dataFile('cams-europe-pollen-jaen/2024AnalisisContam.nc')];
const ERA5_T2M = () => dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib');
const GEOPOTENTIAL = () => dataFile('adriatic-waves/test.grib1');

const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : v === undefined ? [] : [String(v)]);

/**
 * One GRIB file in `dir` answering an ERA5 single-levels request: one 2 m
 * temperature message per (year, month, day, time) asked, or the geopotential
 * message when only geopotential is asked. Returns its path.
 */
export function era5Grib(inputs: Record<string, unknown>, dir: string, name: string): string {
  const out = join(dir, name);
  const variables = list(inputs.variable);
  if (variables.length === 1 && variables[0] === 'geopotential') {
    execFileSync('grib_copy', ['-w', 'shortName=z', GEOPOTENTIAL(), out]);
    return out;
  }
  const parts: Buffer[] = [];
  for (const y of list(inputs.year)) {
    for (const m of list(inputs.month)) {
      for (const d of list(inputs.day)) {
        for (const t of list(inputs.time)) {
          const one = join(dir, `${name}.${y}${m}${d}${t.replace(':', '')}`);
          execFileSync('grib_set', ['-s', `dataDate=${y}${m.padStart(2, '0')}${d.padStart(2, '0')},dataTime=${t.replace(':', '')}`, ERA5_T2M(), one]);
          parts.push(readFileSync(one));
        }
      }
    }
  }
  writeFileSync(out, Buffer.concat(parts));
  return out;
}
