/**
 * WBGT in the sun and in the shade for one grid cell: the composition of
 * science/ `wbgt()` (Liljegren et al. 2008; WBGT = 0.7 Tnwb + 0.2 Tg +
 * 0.1 Ta) from the library's own parts, with differences that only save
 * time: the solar geometry is given (computed per instant, ./sun.ts), the air
 * state is prepared once for the four solutions (globe and wick, sun and
 * shade), and each solver starts from the cell's previous time step (root
 * and slope, wbgt-physics.ts solveEnergyBalance `memory`), which about halves
 * its evaluations. The roots are the same to the solver's tolerance, so the
 * result equals `wbgt()` called for the cell; test/ingest/indices checks it.
 */
import { solarParameters, stabilityClass, windSpeedAt2m } from '../../science/index.js';
import { dewPointBuck, globeSolarTerm, liljegrenAir, solveGlobe, solveWetBulb, wickSolarTerm } from '../../science/wbgt-physics.js';

const KELVIN = 273.15;
/** NWP wind height, m. */
const WIND_HEIGHT_M = 10;
/**
 * 10 m → 2 m wind factor per stability class 1..6 (rural), from the library:
 * windSpeedAt2m(u) = max(u·(2/10)^p, 0.13) = max(u·factor, 0.13), bit for bit.
 */
const WIND_FACTOR = [1, 2, 3, 4, 5, 6].map((cls) => windSpeedAt2m(1, WIND_HEIGHT_M, cls, false));
const MIN_WIND_2M = windSpeedAt2m(0, WIND_HEIGHT_M, 1, false);

/** Solver memory of the four solutions per cell (root K, slope), NaN until the first step. */
const SLOTS = 8;
const GLOBE_SUN = 0;
const WET_SUN = 2;
const GLOBE_SHADE = 4;
const WET_SHADE = 6;

/** Per-cell warm state for successive time steps of `cells` cells. */
export class WbgtWarmStart {
  readonly memory: Float64Array;
  constructor(cells: number) {
    this.memory = new Float64Array(cells * SLOTS).fill(NaN);
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
 * @param warm solver memory, updated with this step's solutions
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
  const speed = Math.max(speed10 * WIND_FACTOR[stabilityClass(cza > 0, speed10, solar, 0) - 1]!, MIN_WIND_2M);
  const rh = Math.min(100, Math.max(0, relativeHumidityPct)) / 100;
  const tK = t + KELVIN;
  const air = liljegrenAir(tK, rh, pressureHpa, speed);
  // Cold starts as wbgt.c: the air temperature (globe) and the dew point (wick).
  const coldWet = dewPointBuck(air.eAir);
  const mem = warm.memory;
  const base = i * SLOTS;

  const globe = solveGlobe(air, globeSolarTerm(solar, fdir, cza), tK, mem, base + GLOBE_SUN);
  const wet = solveWetBulb(air, wickSolarTerm(solar, fdir, cza), true, coldWet, mem, base + WET_SUN);
  out[0] = 0.7 * (wet - KELVIN) + 0.2 * (globe - KELVIN) + 0.1 * t;
  if (!(solar > 0)) {
    // No solar load: the shade is the same case (wbgt.ts); its memory follows.
    mem.copyWithin(base + GLOBE_SHADE, base + GLOBE_SUN, base + GLOBE_SHADE);
    out[1] = out[0]!;
    return;
  }
  const globeShade = solveGlobe(air, 0, tK, mem, base + GLOBE_SHADE);
  const wetShade = solveWetBulb(air, 0, true, coldWet, mem, base + WET_SHADE);
  out[1] = 0.7 * (wetShade - KELVIN) + 0.2 * (globeShade - KELVIN) + 0.1 * t;
}
