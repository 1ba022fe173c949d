/**
 * Independent reference values for the end-to-end ingest tests, computed by
 * test/ingest/pipeline-reference.py with Debian's python GDAL (GRIB through
 * GDAL's own degrib decoder, not ecCodes) or python netCDF4 (netCDF-C/HDF5,
 * not our readers), rotated grids rotated by hand (not proj4), bilinear
 * interpolation in python. Values come back in source units.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const SCRIPT = join(import.meta.dirname, 'pipeline-reference.py');
export const PYTHON = '/usr/bin/python3';

export interface Reference {
  value: number | null;
  corners: (number | null)[];
  weights: number[];
}

function call(args: string[]): Reference {
  const out = execFileSync(PYTHON, [SCRIPT, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  return JSON.parse(out.trim().split('\n').pop()!) as Reference;
}

/** Bilinear value of GDAL band `band` at (lat, lon). `grid`: centre of the top-left cell and spacing, when GDAL's own geotransform is wrong (rotated GRIB1). */
export function gdalBilinear(file: string, band: number, lat: number, lon: number, opts: { rotatedSouthPole?: [number, number]; grid?: [number, number, number, number] } = {}): Reference {
  const args = ['gdal', file, String(band), String(lat), String(lon)];
  if (opts.grid) args.push('--grid', opts.grid.join(','));
  if (opts.rotatedSouthPole) args.push('--rotated', opts.rotatedSouthPole.join(','));
  return call(args);
}

/** Bilinear value of NetCDF variable `name` at time index `t`, read by python netCDF4 (CF packing and fill applied by netCDF4). */
export function netcdfBilinear(file: string, name: string, t: number, lat: number, lon: number): Reference {
  return call(['netcdf', file, name, String(t), String(lat), String(lon)]);
}

/** Run a python snippet with /usr/bin/python3 and parse its last stdout line as JSON. */
export function python<T>(code: string, args: string[] = []): T {
  const out = execFileSync(PYTHON, ['-c', code, ...args], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out.trim().split('\n').pop()!) as T;
}
