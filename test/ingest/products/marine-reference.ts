/**
 * Shared by the marine tests: the real marine files and their independent
 * values (fixtures/marine_reference.py: netCDF4-python, ecCodes grib_get_data).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { dataFile } from '../../support/shared-data.js';

export const SST_FILE = dataFile('med-sst-l4-rep/20250709000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_REP-MED-v02.0-fv03.0.nc');
export const WAVES_FILE = dataFile('adriatic-waves/test.grib1');
export const SST_TIME = '2025-07-09T00:00:00Z';
export const WAVES_TIME = '2007-07-08T13:00:00Z';

export interface MarineRef {
  lat: number;
  lon: number;
  /** Per neighbour (SW, SE, NW, NE): has a value (sea). */
  sea: boolean[];
  /** Per neighbour, in the same order: great-circle distance from the point, km. */
  corner_km: number[];
  /** Per neighbour, in the same order: its bilinear weight. */
  corner_w: number[];
  /** Bilinear over the sea neighbours, weights renormalised; null when none is sea. */
  bilinear_sea: number | null;
  /** The sea neighbour of largest bilinear weight (the `nearest` rule). */
  nearest_sea: number | null;
  sea_within_radius: { distance_km: number; value: number }[];
}

export function marineReference(req: Record<string, unknown>): MarineRef[] {
  const out = execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'fixtures', 'marine_reference.py'), JSON.stringify(req)], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  return JSON.parse(out) as MarineRef[];
}
