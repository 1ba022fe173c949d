/**
 * What a Developer answer's temperature, comfort and uv_index should be at an
 * ICON-2I grid node, from the run's GRIB files alone:
 * test/jobs/fixtures/point_comfort_uv.py (grib_get, Tmrt after Di Napoli et
 * al. 2020, UTCI_approx of Bröde et al. 2012, the clear-sky UV index of
 * Madronich 2007; its docstring gives every step).
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import type { MeteohubRun } from '../../support/emulators/meteohub.js';
import { SCIENCE_CASES } from '../../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../../..');
/** The ICON-2I variables the derivation reads. */
const VARIABLES = ['T_2M', 'TD_2M', 'U_10M', 'V_10M', 'ASWDIR_S', 'ASWDIFD_S', 'ATHB_S', 'T_G', 'HSURF'];

/** One valid time's expected values. */
export interface PointReference {
  /** °C, altitude-corrected. */
  temperature: number;
  /** Mean radiant temperature at the point, °C. */
  tmrt: number;
  /** °C; null outside the polynomial's domain. */
  utci: number | null;
  /** The published category's English name ('slight cold stress'); null with utci. */
  category: string | null;
  /** Lower edges of the UTCI categories, °C. */
  edges: number[];
  uv_clear_sky: number;
  cloud_modification: number;
  uv_index: number;
  /** How far each value moves with the Sun 0.02° higher or lower (null: UTCI defined for one Sun only). */
  spread: Record<'tmrt' | 'utci' | 'uv_clear_sky' | 'cloud_modification' | 'uv_index', number | null>;
}

/**
 * @param run the ICON-2I run whose files answer
 * @param point a node of the run's grid, and the point's altitude (m)
 * @param at per valid time (ms): CAMS global total ozone (DU) there, and the satellite clear-sky index covering it (null: none)
 */
export function pointComfortUv(run: MeteohubRun, point: { lat: number; lon: number; altM: number }, at: { validMs: number; ozoneDu: number; satelliteK: number | null }[]): PointReference[] {
  const query = {
    grib: Object.fromEntries(VARIABLES.map((n) => [n, run.variables[n]![0]!.path])),
    run: run.run.getTime() / 1000,
    lat: point.lat,
    lon: point.lon,
    alt: point.altM,
    coefficients: join(REPO, 'science/utci-coefficients.ts'),
    science_cases: SCIENCE_CASES,
    at: at.map((a) => ({ valid: a.validMs / 1000, ozone_du: a.ozoneDu, satellite_k: a.satelliteK })),
  };
  return JSON.parse(execFileSync('/usr/bin/python3', [join(REPO, 'test/jobs/fixtures/point_comfort_uv.py'), JSON.stringify(query)], { encoding: 'utf8' })) as PointReference[];
}
