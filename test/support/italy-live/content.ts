/**
 * What the emulated providers serve for the live Italy suite, dated from the
 * real clock so that "now" is now: every file written by an independent
 * writer in its provider's layout (ecCodes' grib_filter from the real ICON-2I
 * orography, netCDF4-python for LSA SAF, Copernicus Marine, CAMS and
 * ERA5-Land), at the runs a schedule tick can ask for while the suite runs
 * (a provider cycle may begin during it: both runs are then served).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { latestRun } from '../../../jobs/run-time.js';
import { iconEuFiles, meteohubRun, type IconValues } from '../emulators/icon-content.js';
import type { MarineFile } from '../emulators/copernicus-marine.js';
import type { MeteohubRun } from '../emulators/meteohub.js';
import { ICON, runStamp, soilTemperatureAt, soilWaterLayer, writeIconFile } from '../icon-grib.js';
import { dataFile } from '../shared-data.js';

const PY = '/usr/bin/python3';
const REPO = resolve(import.meta.dirname, '../../..');
export const H = 3_600_000;

/** A node of the ICON-2I test grid in the Po plain (land): base, developer, cams, soil. */
export const LAND = { lat: 45.1, lon: 9.5 };
/** The Adriatic off Rimini, sea in the MEDWAM and SST files: coastal. */
export const SEA = { lat: 44.12, lon: 12.7 };
/** The Gulf of Naples, sea in the MED physics file: thetao. */
export const NAPLES = { lat: 40.5, lon: 14.0 };

/** The runs a schedule (cycle, publication delay) asks for between `now` and `spanMs` later. */
export function runsNear(now: Date, cycleHours: number, afterMinutes: number, spanMs = 10 * 60_000): Date[] {
  const a = latestRun(now, cycleHours, afterMinutes);
  const b = latestRun(new Date(now.getTime() + spanMs), cycleHours, afterMinutes);
  return a.getTime() === b.getTime() ? [a] : [a, b];
}

/** Forecast steps (h) of `run` from 3 h before `now` (the 3-hour trend) to the hour after. */
function stepsAround(run: Date, now: Date, spanMs = 10 * 60_000): number[] {
  const first = Math.max(0, Math.floor((now.getTime() - run.getTime()) / H) - 3);
  const last = Math.floor((now.getTime() + spanMs - run.getTime()) / H) + 1;
  return Array.from({ length: last - first + 1 }, (_, k) => first + k);
}

/** ICON-2I values as functions of the cell's model height z (m) and the step h. */
export const ICON2I: IconValues = {
  T_2M: (z, h) => 288.15 - 0.0065 * z + 0.2 * h, TD_2M: (z, h) => 281.15 - 0.0065 * z + 0.1 * h, U_10M: () => 3, V_10M: () => -4,
  VMAX_10M: (_z, h) => (h === 0 ? 0 : 9 + 0.1 * h), TOT_PREC: (_z, h) => 0.2 * h, CLCT: () => 40, PMSL: () => 101_500,
  // Radiation means since the run start, the same each step (so each hour's mean too): moderate, so that UTCI stays
  // within its validity (Tmrt − Ta ≤ 70 K) at any hour the suite runs.
  ASWDIR_S: () => 150, ASWDIFD_S: () => 80, WW: () => 61, HSURF: (z) => z,
  // Net longwave (mean since the run start, the same each step: so the hour's mean too) and the ground temperature, for UTCI's longwave.
  ATHB_S: (z) => -70 + 0.01 * z, T_G: (z, h) => 290.15 - 0.0065 * z + 0.2 * h,
};
/** ICON-EU values, distinct from ICON-2I's so that an answer tells which model gave it. */
export const ICON_EU: IconValues = { ...ICON2I, T_2M: (z, h) => 279.15 - 0.0065 * z + 0.3 * h, TD_2M: (z, h) => 274.15 - 0.0065 * z + 0.1 * h, VMAX_10M: (_z, h) => (h === 0 ? 0 : 15 + 0.1 * h), TOT_PREC: (_z, h) => 0.5 * h };
/** Soil water of the 1–3 cm layer on land, kg/m² (6 kg/m² = 0.3 m³/m³), the sea missing. */
export const W_SO_1_3 = (z: number, h: number) => (z > 0.1 ? 6 + 0.01 * h : NaN);

export interface IconContent {
  /** The newest 00/12 UTC ICON-2I run at least an hour old, complete (nwp and nwp-soil variables). */
  complete: MeteohubRun;
  /** The same run still being uploaded: ASWDIR_S absent (nwp late, nwp-soil complete). */
  incomplete: MeteohubRun;
  /** DWD paths → .grib2.bz2 of the ICON-EU runs the fallback can ask for, and their steps as a config range. */
  euFiles: Record<string, string>;
  euRuns: Date[];
  euSteps: string;
}

export function iconContent(dir: string, now: Date, z: Float64Array): IconContent {
  const run = latestRun(now, 12, 60);
  const steps = stepsAround(run, now);
  const complete = meteohubRun(dir, run, steps, ICON2I, z);
  const soil = (name: string, v: (typeof ICON)[string], f: (z: number, h: number) => number, s: number[]) => ({ name, path: writeIconFile(join(dir, `${name}.soil`), v, run, s, f, z) });
  complete.variables.W_SO = [soil(`icon_2I_${runStamp(run)}_depthBelowLandLayer-1.grib`, soilWaterLayer(1, 3), W_SO_1_3, steps)];
  complete.variables.T_SO = [soil(`icon_2I_${runStamp(run)}_depthBelowLand-20.grib`, soilTemperatureAt(20), (zz) => 283.15 - 0.005 * zz, steps)];
  complete.variables.FR_LAND = [soil(`icon_2I_${runStamp(run)}_surface-0.grib`, ICON.FR_LAND!, (zz) => (zz > 0.1 ? 1 : 0), [0])];
  const incomplete: MeteohubRun = { run, variables: { ...complete.variables } };
  delete incomplete.variables.ASWDIR_S;

  const euRuns = runsNear(now, 6, 240);
  const euFiles: Record<string, string> = {};
  const all = euRuns.flatMap((r) => stepsAround(r, now));
  const euSteps = `${Math.min(...all)}-${Math.max(...all)}`;
  const range = Array.from({ length: Math.max(...all) - Math.min(...all) + 1 }, (_, k) => Math.min(...all) + k);
  for (const r of euRuns) {
    const { HSURF: _, ...perStep } = ICON_EU;
    Object.assign(euFiles, iconEuFiles(join(dir, `eu-${runStamp(r)}`), r, range, perStep, z));
    const day00 = new Date(Date.UTC(r.getUTCFullYear(), r.getUTCMonth(), r.getUTCDate()));
    Object.assign(euFiles, iconEuFiles(join(dir, `eu-c-${runStamp(r)}`), day00, [], { HSURF: ICON_EU.HSURF! }, z));
  }
  return { complete, incomplete, euFiles, euRuns, euSteps };
}

/** LSA SAF MDSSFTD: the four 15-minute slots of each hour uv-nrt can ask for, DSSF = K × Haurwitz clear sky (make_lsasaf_mdssftd.py). */
export const K = 0.7;
export function lsaSafSlots(dir: string, now: Date): { hours: Date[]; files: string[] } {
  const hours = runsNear(now, 1, 80);
  const out = join(dir, 'lsasaf');
  mkdirSync(out, { recursive: true });
  const files = hours.flatMap((h) => (JSON.parse(execFileSync(PY, [join(REPO, 'test/api/uv/make_lsasaf_mdssftd.py'), out, String(h.getTime() / 1000), '4', String(K), '43.5', '46.5', '8', '14'], { encoding: 'utf8' })) as { files: string[] }).files);
  return { hours, files };
}

const yyyymmdd = (d: Date) => d.toISOString().slice(0, 10).replace(/-/g, '');
const month = (d: Date) => `${d.toISOString().slice(0, 4)}/${d.toISOString().slice(5, 7)}`;

/**
 * Copernicus Marine originals for the days marine can ask for: the real MED
 * SST L4 re-dated to the run's day (its 00 UTC field), MEDWAM waves hourly
 * from the hour now lies in, MED physics thetao hourly around now, each named as the data
 * store names it.
 */
export function marineFiles(dir: string, now: Date): { days: Date[]; waves: string; physics: string; sst: MarineFile[]; wavesFiles: MarineFile[]; physicsFiles: MarineFile[] } {
  const out = join(dir, 'marine');
  mkdirSync(out, { recursive: true });
  const hour = Math.floor(now.getTime() / H) * H;
  const waves = join(out, 'waves.nc');
  const physics = join(out, 'physics.nc');
  // Hourly from the hour now lies in: its first step answers the hour, the two after cover the suite's minutes.
  execFileSync(PY, [join(REPO, 'test/api/fields/coastal/fixtures/make_medsea_waves.py'), waves, String(hour / 1000)]);
  execFileSync(PY, [join(REPO, 'test/ingest/products/fixtures/make_med_thetao.py'), physics, String((hour - H) / 1000)]);
  const days = runsNear(now, 24, 840);
  const today = new Date(hour);
  const sst = days.map((d) => {
    const path = join(out, `sst-${yyyymmdd(d)}.nc`);
    execFileSync(PY, [join(import.meta.dirname, 'redate_sst.py'), dataFile('med-sst-l4-rep/20250709000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_REP-MED-v02.0-fv03.0.nc'), path, d.toISOString().slice(0, 10)]);
    return { key: `${month(d)}/${yyyymmdd(d)}000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc`, path };
  });
  // The forecast files carry today's date (within the run's day and three ahead), the run's day as bulletin.
  const wavesFiles = days.map((d) => ({ key: `${month(today)}/${yyyymmdd(today)}00_h-HCMR--WAVE-MEDWAM4-MEDATL-b${yyyymmdd(d)}_fc00-sv10.00.nc`, path: waves }));
  const physicsFiles = days.map((d) => ({ key: `${month(today)}/${yyyymmdd(today)}_2dh-CMCC--TEMP-MFSeas10-MEDATL-b${yyyymmdd(d)}_fc-sv11.00.nc`, path: physics }));
  return { days, waves, physics, sst, wavesFiles, physicsFiles };
}

/** CAMS Europe forecast files (pollutants, pollen) for the run day a request names, 48 hourly lead times (make_cams_europe.py). */
export function camsFiles(dir: string, day: string): string[] {
  return (JSON.parse(execFileSync(PY, [join(import.meta.dirname, 'make_cams_europe.py'), join(dir, `cams-${day}`), day, '48'], { encoding: 'utf8' })) as { files: string[] }).files;
}

/** An ERA5-Land soil file (the CDS's layout, no mask) for the day a request names, hours 00–03 (make_era5land_soil.py). */
export function era5LandFile(dir: string, day: Date): string {
  const path = join(dir, `era5land-${yyyymmdd(day)}.nc`);
  execFileSync(PY, [join(REPO, 'test/api/fields/soil/fixtures/make_era5land_soil.py'), dataFile('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc'), path, String(day.getTime() / 1000)]);
  return path;
}

/** A CAMS global forecast total column ozone file (ADS NetCDF layout) for the run day a request names, at its lead hours (make_cams_global_ozone.py). */
export function camsGlobalOzoneFile(dir: string, day: string, leads: readonly string[]): string {
  const path = join(dir, `cams-global-ozone-${day.replace(/-/g, '')}.nc`);
  execFileSync(PY, [join(import.meta.dirname, 'make_cams_global_ozone.py'), path, day, leads.join(',')]);
  return path;
}

/** Total ozone (DU) of such a file at a point and time, by netCDF4-python: bilinear in space, linear in time. */
export function camsGlobalOzoneAt(file: string, lat: number, lon: number, timeMs: number): number {
  return Number(execFileSync(PY, [join(import.meta.dirname, 'make_cams_global_ozone.py'), 'read', file, String(lat), String(lon), String(timeMs / 1000)], { encoding: 'utf8' }).trim());
}
