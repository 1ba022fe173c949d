/**
 * WBGT in the sun and in the shade for one grid cell: the composition of
 * ingest/derive `wbgt()` (Liljegren et al. 2008; WBGT = 0.7 Tnwb + 0.2 Tg +
 * 0.1 Ta) from the library's own parts, with two differences that only save
 * time: the solar geometry is given (computed per instant, ./sun.ts) and the
 * globe and wet-bulb solvers start from the cell's previous time step, which
 * cuts their iterations about in half. The root they converge to is the same
 * (to 0.001 K), so the result equals `wbgt()` called for the cell; the test
 * (test/ingest/indices) checks it cell by cell.
 */
import { solarParameters, stabilityClass, windSpeedAt2m } from '../derive/index.js';
import { dewPointBuck, globeSolarTerm, liljegrenAir, solveGlobe, solveWetBulb, wickSolarTerm } from '../derive/wbgt-physics.js';

const KELVIN = 273.15;
/** NWP wind height, m. */
const WIND_HEIGHT_M = 10;

/**
 * Per-cell solver starts, K (NaN: no previous solution yet): globe and
 * natural wet bulb, sun and shade, for `cells` cells.
 */
export class WbgtWarmStart {
  readonly globeSun: Float64Array;
  readonly wetSun: Float64Array;
  readonly globeShade: Float64Array;
  readonly wetShade: Float64Array;
  constructor(cells: number) {
    this.globeSun = new Float64Array(cells).fill(NaN);
    this.wetSun = new Float64Array(cells).fill(NaN);
    this.globeShade = new Float64Array(cells).fill(NaN);
    this.wetShade = new Float64Array(cells).fill(NaN);
  }
}

/** Inputs of one cell at one instant (the middle of the radiation step). */
export interface WbgtCellInput {
  temperatureC: number;
  relativeHumidityPct: number;
  pressureHpa: number;
  /** 10 m wind speed, m/s. */
  windSpeedMs: number;
  /** Global horizontal irradiance, W/m². */
  shortwaveWm2: number;
  /** Cosine of the solar zenith angle (unclamped). */
  cosZenith: number;
  distanceAu: number;
}

/**
 * WBGT sun and shade, °C, written to out[0], out[1]; NaN when an input is
 * missing or a solver fails (as `wbgt()`).
 *
 * @param warm solver starts, updated with this step's solutions
 * @param i the cell's index in `warm`
 */
export function wbgtCell(inp: WbgtCellInput, warm: WbgtWarmStart, i: number, out: Float64Array): void {
  const { temperatureC: t, relativeHumidityPct, pressureHpa, windSpeedMs, shortwaveWm2, cosZenith: cza } = inp;
  if (
    !Number.isFinite(t) || !Number.isFinite(relativeHumidityPct) || !Number.isFinite(pressureHpa) ||
    !Number.isFinite(windSpeedMs) || !Number.isFinite(shortwaveWm2) || !(pressureHpa > 0)
  ) {
    out[0] = NaN;
    out[1] = NaN;
    return;
  }
  // As wbgt.ts compute(): irradiance cap and direct fraction, stability-class wind at 2 m (rural, ΔT = 0).
  const { solar, fdir } = solarParameters(Math.max(0, shortwaveWm2), cza, inp.distanceAu);
  const speed10 = Math.max(0, windSpeedMs);
  const speed = windSpeedAt2m(speed10, WIND_HEIGHT_M, stabilityClass(cza > 0, speed10, solar, 0), false);
  const rh = Math.min(100, Math.max(0, relativeHumidityPct)) / 100;
  const tK = t + KELVIN;
  const air = liljegrenAir(tK, rh, pressureHpa, speed);
  // Cold starts as wbgt.c: the air temperature (globe) and the dew point (wick).
  const coldWet = dewPointBuck(air.eAir);
  const start = (prev: number, cold: number) => (prev > 0 ? prev : cold);

  const globe = solveGlobe(air, globeSolarTerm(solar, fdir, cza), start(warm.globeSun[i]!, tK));
  const wet = solveWetBulb(air, wickSolarTerm(solar, fdir, cza), true, start(warm.wetSun[i]!, coldWet));
  warm.globeSun[i] = globe;
  warm.wetSun[i] = wet;
  out[0] = 0.7 * (wet - KELVIN) + 0.2 * (globe - KELVIN) + 0.1 * t;
  if (!(solar > 0)) {
    // No solar load: the shade is the same case (wbgt.ts), and its solution the next step's start.
    warm.globeShade[i] = globe;
    warm.wetShade[i] = wet;
    out[1] = out[0]!;
    return;
  }
  const globeShade = solveGlobe(air, 0, start(warm.globeShade[i]!, tK));
  const wetShade = solveWetBulb(air, 0, true, start(warm.wetShade[i]!, coldWet));
  warm.globeShade[i] = globeShade;
  warm.wetShade[i] = wetShade;
  out[1] = 0.7 * (wetShade - KELVIN) + 0.2 * (globeShade - KELVIN) + 0.1 * t;
}
