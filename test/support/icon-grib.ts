/**
 * ICON-layout GRIB2 files for tests, written by ecCodes' own grib_filter (an
 * independent writer) from the real ICON-2I orography message in
 * ../shared/data/icon2i-orography: its regular 0.025° × 0.02° grid over
 * north Italy, its centre (80, Rome: ecCodes then names parameters from its
 * `cnmc` tables, as for the real ICON-2I files), section 2 and packing. Each
 * message gets the discipline, parameter, level and time range ICON encodes
 * for its variable (DWD's ICON database reference; ecCodes' definitions
 * grib2/localConcepts/{edzw,cnmc}), and values the test chooses per cell, as
 * a function of the cell's orography height, so the expected answer is
 * computed in the test from grib_get_data's heights, never from our reader.
 *
 * One file per variable holding every step, like MeteoHub's ICON-2I files.
 */
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { dataFile } from './shared-data.js';

/** The north-Italy ICON-2I orography (301 × 191 points, 6.5–14.0° E, 43.5–47.3° N, no missing point). */
export const ICON2I_OROGRAPHY = dataFile('icon2i-orography/I2NITA2KM_orog_20241009.grib2');

/** Statistics over a time range (GRIB2 template 4.8): since the run start, or over the hour ending at the step. */
export interface IconStatistic {
  /** Code table 4.10: 0 average, 1 accumulation, 2 maximum. */
  processing: 0 | 1 | 2;
  window: 'run' | 'hour';
}

export interface IconVariable {
  /** DWD / MeteoHub directory name. */
  name: string;
  /** grib_filter `set` statements fixing discipline, parameter and level. */
  keys: Record<string, number>;
  /** `typeOfLevel-level` as MeteoHub's file names carry it. */
  fileLevel: string;
  statistic?: IconStatistic;
}

const surface = { typeOfFirstFixedSurface: 1, scaleFactorOfFirstFixedSurface: 0, scaledValueOfFirstFixedSurface: 0, typeOfSecondFixedSurface: 255 };
const height = (m: number) => ({ typeOfFirstFixedSurface: 103, scaleFactorOfFirstFixedSurface: 0, scaledValueOfFirstFixedSurface: m, typeOfSecondFixedSurface: 255 });

/** The ICON variables the nwp product reads, encoded as ICON writes them. */
export const ICON: Record<string, IconVariable> = {
  T_2M: { name: 'T_2M', keys: { discipline: 0, parameterCategory: 0, parameterNumber: 0, ...height(2) }, fileLevel: 'heightAboveGround-2' },
  TD_2M: { name: 'TD_2M', keys: { discipline: 0, parameterCategory: 0, parameterNumber: 6, ...height(2) }, fileLevel: 'heightAboveGround-2' },
  RELHUM_2M: { name: 'RELHUM_2M', keys: { discipline: 0, parameterCategory: 1, parameterNumber: 1, ...height(2) }, fileLevel: 'heightAboveGround-2' },
  U_10M: { name: 'U_10M', keys: { discipline: 0, parameterCategory: 2, parameterNumber: 2, ...height(10) }, fileLevel: 'heightAboveGround-10' },
  V_10M: { name: 'V_10M', keys: { discipline: 0, parameterCategory: 2, parameterNumber: 3, ...height(10) }, fileLevel: 'heightAboveGround-10' },
  VMAX_10M: { name: 'VMAX_10M', keys: { discipline: 0, parameterCategory: 2, parameterNumber: 22, ...height(10) }, fileLevel: 'heightAboveGround-10', statistic: { processing: 2, window: 'hour' } },
  TOT_PREC: { name: 'TOT_PREC', keys: { discipline: 0, parameterCategory: 1, parameterNumber: 52, ...surface }, fileLevel: 'surface-0', statistic: { processing: 1, window: 'run' } },
  CLCT: { name: 'CLCT', keys: { discipline: 0, parameterCategory: 6, parameterNumber: 1, ...surface }, fileLevel: 'surface-0' },
  PMSL: { name: 'PMSL', keys: { discipline: 0, parameterCategory: 3, parameterNumber: 1, typeOfFirstFixedSurface: 101, scaleFactorOfFirstFixedSurface: 0, scaledValueOfFirstFixedSurface: 0, typeOfSecondFixedSurface: 255 }, fileLevel: 'meanSea-0' },
  PS: { name: 'PS', keys: { discipline: 0, parameterCategory: 3, parameterNumber: 0, ...surface }, fileLevel: 'surface-0' },
  ASWDIR_S: { name: 'ASWDIR_S', keys: { discipline: 0, parameterCategory: 4, parameterNumber: 198, ...surface }, fileLevel: 'surface-0', statistic: { processing: 0, window: 'run' } },
  ASWDIFD_S: { name: 'ASWDIFD_S', keys: { discipline: 0, parameterCategory: 4, parameterNumber: 199, ...surface }, fileLevel: 'surface-0', statistic: { processing: 0, window: 'run' } },
  ATHB_S: { name: 'ATHB_S', keys: { discipline: 0, parameterCategory: 5, parameterNumber: 5, ...surface }, fileLevel: 'surface-0', statistic: { processing: 0, window: 'run' } },
  // ICON's ground (skin) temperature: temperature at the surface (edzw/cnmc `T_G`).
  T_G: { name: 'T_G', keys: { discipline: 0, parameterCategory: 0, parameterNumber: 0, ...surface }, fileLevel: 'surface-0' },
  WW: { name: 'WW', keys: { discipline: 0, parameterCategory: 19, parameterNumber: 25, ...surface }, fileLevel: 'surface-0' },
  HSURF: { name: 'HSURF', keys: { discipline: 0, parameterCategory: 3, parameterNumber: 6, ...surface }, fileLevel: 'surface-0' },
  FR_LAND: { name: 'FR_LAND', keys: { discipline: 2, parameterCategory: 0, parameterNumber: 0, ...surface }, fileLevel: 'surface-0' },
};

/** ICON's multi-layer soil water W_SO of the layer [topCm, bottomCm] (two depth surfaces, in cm: scale factor 2 on metres). */
export function soilWaterLayer(topCm: number, bottomCm: number): IconVariable {
  return {
    name: 'W_SO',
    keys: { discipline: 2, parameterCategory: 3, parameterNumber: 20, typeOfFirstFixedSurface: 106, scaleFactorOfFirstFixedSurface: 2, scaledValueOfFirstFixedSurface: topCm, typeOfSecondFixedSurface: 106, scaleFactorOfSecondFixedSurface: 2, scaledValueOfSecondFixedSurface: bottomCm },
    fileLevel: `depthBelowLandLayer-${topCm}`,
  };
}

/** ICON's soil temperature T_SO at one depth (mm: scale factor 3 on metres, so 0.5 cm is exact). */
export function soilTemperatureAt(depthMm: number): IconVariable {
  return {
    name: 'T_SO',
    keys: { discipline: 2, parameterCategory: 3, parameterNumber: 18, typeOfFirstFixedSurface: 106, scaleFactorOfFirstFixedSurface: 3, scaledValueOfFirstFixedSurface: depthMm, typeOfSecondFixedSurface: 255 },
    fileLevel: `depthBelowLand-${depthMm}`,
  };
}

/** Orography height (m) of every cell, in storage order, as ecCodes' grib_get_data prints it. */
export function orographyHeights(): Float64Array {
  const out = execFileSync('grib_get_data', ['-F', '%.6f', ICON2I_OROGRAPHY], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const lines = out.trim().split('\n').slice(1);
  return Float64Array.from(lines, (l) => Number(l.trim().split(/\s+/)[2]));
}

/** Latitude and longitude of every cell, storage order (grib_get_data). */
export function orographyCells(): { lat: Float64Array; lon: Float64Array } {
  const out = execFileSync('grib_get_data', [ICON2I_OROGRAPHY], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const rows = out.trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/).map(Number));
  return { lat: Float64Array.from(rows, (r) => r[0]!), lon: Float64Array.from(rows, (r) => r[1]!) };
}

/** `YYYYMMDDHH` of a run. */
export function runStamp(run: Date): string {
  return run.toISOString().slice(0, 13).replace(/[-T]/g, '');
}

/**
 * Write one file holding `variable` at every step of `steps` (hours after
 * `run`), each message's values `value(heightM, step)` per cell (NaN: a
 * missing point, through the bitmap). Returns `path`.
 */
export function writeIconFile(path: string, variable: IconVariable, run: Date, steps: readonly number[], value: (heightM: number, step: number) => number, heights = orographyHeights()): string {
  const date = Number(run.toISOString().slice(0, 10).replace(/-/g, ''));
  const time = run.getUTCHours() * 100 + run.getUTCMinutes();
  const blocks: string[] = [];
  for (const step of steps) {
    const st = variable.statistic;
    // The template first: changing it rebuilds section 4, then parameter, level and time go in.
    const sets = [`set productDefinitionTemplateNumber = ${st ? 8 : 0};`];
    const keys: Record<string, number> = { ...variable.keys, dataDate: date, dataTime: time };
    sets.push(...Object.entries(keys).map(([k, v]) => `set ${k} = ${v};`));
    if (st) {
      const start = st.window === 'run' ? 0 : Math.max(0, step - 1);
      sets.push(`set typeOfStatisticalProcessing = ${st.processing};`, 'set indicatorOfUnitOfTimeRange = 1;', `set stepRange = "${start}-${step}";`);
    } else {
      sets.push('set indicatorOfUnitOfTimeRange = 1;', `set forecastTime = ${step};`);
    }
    const values = Array.from(heights, (z) => value(z, step));
    const missing = values.some((v) => Number.isNaN(v));
    if (missing) sets.push('set bitmapPresent = 1;', 'set missingValue = 9999;');
    sets.push(`set values = {${values.map((v) => (Number.isNaN(v) ? '9999' : String(v))).join(',')}};`, 'write;');
    blocks.push(sets.join('\n'));
  }
  const rules = `${path}.rules`;
  writeFileSync(rules, `${blocks.join('\n')}\n`);
  execFileSync('grib_filter', ['-o', path, rules, ICON2I_OROGRAPHY]);
  return path;
}
