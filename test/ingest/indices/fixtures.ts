/**
 * A small nwp stack with known, varied inputs for the index precomputation,
 * and the expected value of every stored index computed by calling the
 * science/ library directly for each cell (its lat/lon from geo/grid.ts, the
 * Sun at the middle of the radiation step from the full solar position): an
 * oracle independent of the grid kernel's per-instant solar geometry.
 */
import { cellLatLon, type GridDef } from '../../../geo/grid.js';
import { meanRadiantTemperature, solarPosition } from '../../../science/index.js';
import type { VariableInput } from '../../../tiles/types.js';

/** 7 × 5 cells over central Italy, 0.5°. */
export const GRID: GridDef = { kind: 'regular_ll', nx: 7, ny: 5, x0: 9, y0: 40, dx: 0.5, dy: 0.5 };

/** A summer morning through noon with an irregular step (radiation windows of 1 h and 3 h), and a winter night. */
export const TIMES = ['2024-07-15T03:00:00Z', '2024-07-15T04:00:00Z', '2024-07-15T05:00:00Z', '2024-07-15T08:00:00Z', '2024-07-15T11:00:00Z', '2024-07-15T12:00:00Z'].map(
  (s) => new Date(s),
);

const HOUR = 3_600_000;

/** Deterministic pseudo-random in [0, 1) from integers (no Math.random in tests). */
function hash(...n: number[]): number {
  let h = 2166136261;
  for (const v of n) h = Math.imul(h ^ (v + 0x9e3779b9), 16777619);
  return ((h >>> 0) % 100000) / 100000;
}

export interface CellInputs {
  t: number;
  rh: number;
  td: number;
  u: number;
  v: number;
  sp: number;
  msl: number;
  sw: number;
  direct: number;
  lw: number;
  cloud: number;
  ozone: number;
}

/** Inputs of cell `c` at step `k` (float32-rounded, as stored). */
export function inputsAt(k: number, c: number, grid: GridDef = GRID, times: Date[] = TIMES): CellInputs {
  const f = Math.fround;
  const { lat, lon } = cellLatLon(grid, c % grid.nx, Math.floor(c / grid.nx));
  const cz = Math.max(0, Math.cos((solarPosition(new Date(times[k]!.getTime() - HOUR / 2), lat, lon).zenith * Math.PI) / 180));
  const t = f(-4 + 42 * hash(k, c, 1));
  const rh = f(15 + 85 * hash(k, c, 2));
  const td = f(t - (100 - rh) / 5);
  const cloud = f(100 * hash(k, c, 9));
  const sw = f(cz * 1000 * (1 - 0.7 * (cloud / 100)));
  return {
    t,
    rh,
    td,
    // One cell per step with a gale (> 17 m/s: UTCI undefined).
    u: f(c === (k * 5) % (grid.nx * grid.ny) ? 19 : -6 + 12 * hash(k, c, 3)),
    v: f(-6 + 12 * hash(k, c, 4)),
    sp: f(880 + 135 * hash(k, c, 5)),
    msl: f(995 + 30 * hash(k, c, 6)),
    sw,
    direct: f(sw * 0.8 * hash(k, c, 7)),
    lw: f(280 + 140 * hash(k, c, 8)),
    cloud,
    ozone: f(260 + 120 * hash(k, c, 10)),
  };
}

export function elevationAt(c: number): number {
  return Math.fround(1500 * hash(c, 11));
}

const CANONICAL: Record<keyof CellInputs, string> = {
  t: 'temperature_2m',
  rh: 'relative_humidity_2m',
  td: 'dew_point_2m',
  u: 'wind_u_10m',
  v: 'wind_v_10m',
  sp: 'surface_pressure',
  msl: 'pressure_msl',
  sw: 'shortwave_radiation',
  direct: 'direct_radiation',
  lw: 'longwave_radiation',
  cloud: 'cloud_cover',
  ozone: 'total_ozone',
};

/** The stack as the tile writer receives it, with only the listed inputs (default all) and elevation. */
export function variables(
  keep: (keyof CellInputs)[] = Object.keys(CANONICAL) as (keyof CellInputs)[],
  withElevation = true,
  grid: GridDef = GRID,
  times: Date[] = TIMES,
): Record<string, VariableInput> {
  const n = grid.nx * grid.ny;
  const out: Record<string, VariableInput> = {};
  for (const key of keep) {
    out[CANONICAL[key]] = {
      units: '',
      precision: 0.01,
      values: times.map((_, k) => Float32Array.from({ length: n }, (_, c) => inputsAt(k, c, grid, times)[key])),
    };
  }
  if (withElevation) out.elevation = { units: 'm', precision: 0.1, static: true, values: [Float32Array.from({ length: n }, (_, c) => elevationAt(c))] };
  return out;
}

/** Radiation window of step k in hours (gap to the previous time; the first takes the next gap). */
export function periodHours(k: number, times: Date[] = TIMES): number {
  const ms = times.map((t) => t.getTime());
  return (k > 0 ? ms[k]! - ms[k - 1]! : ms[1]! - ms[0]!) / HOUR;
}

/** Every stored index for cell c at step k, from the library called directly. */
export function expectedAt(k: number, c: number, grid: GridDef = GRID, times: Date[] = TIMES): Record<string, number> {
  const x = inputsAt(k, c, grid, times);
  const { lat, lon } = cellLatLon(grid, c % grid.nx, Math.floor(c / grid.nx));
  const mid = new Date(times[k]!.getTime() - (periodHours(k, times) * HOUR) / 2);
  const cosMid = Math.cos((solarPosition(mid, lat, lon).zenith * Math.PI) / 180);
  return {
    mean_radiant_temperature: meanRadiantTemperature({ temperature: x.t, shortwaveRadiation: x.sw, directRadiation: x.direct, longwaveRadiation: x.lw, cosZenith: cosMid }),
  };
}
