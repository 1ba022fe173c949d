/**
 * The per-cell computation of the indices over one band of cells and every
 * time step: plain loops over typed arrays calling the science/ library
 * once per cell and index. Runs in the calling thread or in a worker
 * (./worker.ts); both receive the same `BandJob` and return the same arrays.
 *
 * Layout: a time-varying band array holds steps × cells values, step-major
 * (value of cell i at step k at k·cells + i). Steps run in time order so that
 * each cell's WBGT solvers start from the previous step's solution.
 */
import {
  cloudModificationFromCloudCover,
  cloudModificationFromShortwave,
  frostRisk,
  meanRadiantTemperature,
  pressureAtElevation,
  relativeHumidity,
  solarParameters,
  STANDARD_LAPSE_RATE_K_PER_M,
  utciFromVapourPressure,
  uvIndex,
  uvIndexFromCosZenith,
} from '../../science/index.js';
import { FROST_RISK_CODES, type IndexName } from './catalogue.js';
import { et0Cell, et0Period } from './et0-cell.js';
import { cosZenith, type CellCoords } from './sun.js';
import { saturationVapourPressureHardyFast } from './vapour-table.js';
import type { StepTiming } from './timeline.js';
import { wbgtCell, WbgtWarmStart } from './wbgt-cell.js';

/** Canonical inputs the kernel reads (time-varying). */
export const SERIES_INPUTS = [
  'temperature_2m',
  'relative_humidity_2m',
  'dew_point_2m',
  'wind_u_10m',
  'wind_v_10m',
  'surface_pressure',
  'pressure_msl',
  'shortwave_radiation',
  'direct_radiation',
  'longwave_radiation',
  'cloud_cover',
  'total_ozone',
] as const;
export type SeriesInput = (typeof SERIES_INPUTS)[number];

/** One band of cells: everything the kernel needs, transferable to a worker. */
export interface BandJob {
  cells: number;
  steps: StepTiming[];
  coords: CellCoords;
  /** Present time-varying inputs, steps × cells each. */
  series: Partial<Record<SeriesInput, Float32Array>>;
  /** Model orography of the band's cells, m. */
  elevation?: Float32Array;
  /** Indices to compute (their inputs are present: catalogue.ts computableIndices). */
  outputs: IndexName[];
}

/** Index name → steps × cells values. */
export type BandResult = Partial<Record<IndexName, Float32Array>>;

const FROST_CODE: Record<string, number> = Object.fromEntries(FROST_RISK_CODES.map((id, code) => [id, code]));
/** Above this screen temperature the frost class is 'none' whatever cloud and wind (ground cooling ≤ 3 K, 'low' ≤ 2 °C). */
const NO_FROST_ABOVE_C = 5;

export function computeBand(job: BandJob): BandResult {
  const { cells: m, steps, coords, series: s } = job;
  const out: BandResult = {};
  for (const name of job.outputs) out[name] = new Float32Array(steps.length * m);
  const needMrt = out.mean_radiant_temperature !== undefined || out.utci !== undefined;
  const warm = out.wbgt_sun || out.wbgt_shade ? new WbgtWarmStart(m) : null;
  const wb = new Float64Array(2);
  const hasRh = s.relative_humidity_2m !== undefined;
  const hasTd = s.dew_point_2m !== undefined;

  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    const period = out.et0 ? et0Period(step.validMs, step.periodHours) : null;
    for (let i = 0; i < m; i++) {
      const at = k * m + i;
      const t = val(s.temperature_2m, at);
      const td = hasTd ? s.dew_point_2m![at]! : NaN;
      const rh = hasRh ? s.relative_humidity_2m![at]! : relativeHumidity(t, td);
      const u = val(s.wind_u_10m, at);
      const v = val(s.wind_v_10m, at);
      const wind = Math.sqrt(u * u + v * v);
      const sw = val(s.shortwave_radiation, at);
      const elevation = job.elevation ? job.elevation[i]! : NaN;
      const czMid = cosZenith(step.atMid, coords.sinLat[i]!, coords.cosLat[i]!, coords.lonDeg[i]!);

      let mrt = NaN;
      if (needMrt) {
        let direct = val(s.direct_radiation, at);
        if (s.direct_radiation === undefined) direct = solarParameters(Math.max(0, sw), czMid, step.atMid.distanceAu).fdir * sw;
        const lw = s.longwave_radiation![at]!;
        mrt = meanRadiantTemperature({ temperature: t, shortwaveRadiation: sw, directRadiation: direct, longwaveRadiation: lw, cosZenith: czMid });
        put(out.mean_radiant_temperature, at, mrt);
      }
      if (out.utci) {
        // As science/ utci(): e = es_Hardy(T)·RH/100. RH a little above 100 % (supersaturation,
        // packing) counts as 100 %, as the WBGT and the read-time humidity do.
        const rhUtci = rh > 100 ? 100 : rh < 0 ? 0 : rh;
        out.utci[at] = utciFromVapourPressure(t, mrt, wind, (saturationVapourPressureHardyFast(t) * rhUtci) / 100);
      }

      if (warm) {
        const pressure = s.surface_pressure
          ? s.surface_pressure[at]!
          : pressureAtElevation(val(s.pressure_msl, at), 0, elevation, t + STANDARD_LAPSE_RATE_K_PER_M * elevation);
        wbgtCell(
          { temperatureC: t, relativeHumidityPct: rh, pressureHpa: pressure, windSpeedMs: wind, shortwaveWm2: sw, cosZenith: czMid, distanceAu: step.atMid.distanceAu },
          warm,
          i,
          wb,
        );
        put(out.wbgt_sun, at, wb[0]!);
        put(out.wbgt_shade, at, wb[1]!);
      }

      if (out.uv_index_clear_sky || out.uv_index) {
        const czValid = cosZenith(step.atValid, coords.sinLat[i]!, coords.cosLat[i]!, coords.lonDeg[i]!);
        const clear = uvIndexFromCosZenith(czValid, s.total_ozone![at]!);
        put(out.uv_index_clear_sky, at, clear);
        if (out.uv_index) {
          const cmf = s.shortwave_radiation
            ? cloudModificationFromShortwave(sw, czMid)
            : cloudModificationFromCloudCover(val(s.cloud_cover, at) / 100);
          out.uv_index[at] = uvIndex(clear, cmf);
        }
      }

      if (out.frost_risk) {
        let code = NaN;
        if (t > NO_FROST_ABOVE_C) code = 0;
        else if (!Number.isNaN(t)) {
          const risk = frostRisk({ temperatureC: t, cloudCoverPct: val(s.cloud_cover, at), windSpeed10m: wind }).risk;
          code = risk === null ? NaN : FROST_CODE[risk]!;
        }
        out.frost_risk[at] = code;
      }

      if (out.et0) {
        out.et0[at] = et0Cell(period!, {
          latDeg: coords.latDeg[i]!,
          sinLat: coords.sinLat[i]!,
          cosLat: coords.cosLat[i]!,
          lonDeg: coords.lonDeg[i]!,
          elevationM: elevation,
          temperatureC: t,
          dewPointC: td,
          relativeHumidityPct: rh,
          shortwaveWm2: sw,
          windSpeedMs: wind,
          pressureKpa: s.surface_pressure ? s.surface_pressure[at]! / 10 : NaN,
        });
      }
    }
  }
  return out;
}

/** Value of an optional input (NaN when the input is absent). */
function val(a: Float32Array | undefined, at: number): number {
  return a === undefined ? NaN : a[at]!;
}

function put(a: Float32Array | undefined, at: number, v: number): void {
  if (a) a[at] = v;
}

