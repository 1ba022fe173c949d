/**
 * Wet Bulb Globe Temperature outdoors, after Liljegren et al. (2008), from
 * standard meteorological fields: WBGT = 0.7 Tnwb + 0.2 Tg + 0.1 Ta
 * (ISO 7243:2017 outdoor form).
 *
 * `sun` is the model with the Sun's load as measured/forecast; `shade` is the
 * same model with no solar load (S = 0, fdir = 0): globe and wick exchange
 * longwave with sky and ground only. This is the common "Liljegren shade"
 * convention; it differs from ISO 7243's indoor form (0.7 Tnw + 0.3 Tg) and
 * from CNR-IBE biometeo.js wbgt_shade (0.7 Tnw + 0.3 Ta). See docs/science.md.
 */
import { solarGeometry, type SolarGeometry } from '../geo/solar.js';
import { SOLAR_CONSTANT_LILJEGREN } from './constants.js';
import { globeSolarTerm, liljegrenAir, liljegrenAirInto, solveGlobe, solveWetBulb, wickSolarTerm, wickStartK, type LiljegrenAir } from './wbgt-physics.js';

/** Inputs of {@link wbgt}. */
export interface WbgtInput {
  /** Instant (UTC) of the (instantaneous or mid-interval) values; may be left out when `sun` is given (only the Sun needs it). */
  time?: Date;
  /** Latitude, degrees north. */
  lat: number;
  /** Longitude, degrees east. */
  lon: number;
  /** The Sun at time, lat, lon when the caller has it (a weather answer: geo/solar.ts SunAtPoint); else computed. */
  sun?: SolarGeometry;
  /** Air temperature, °C. */
  temperature: number;
  /** Relative humidity, %. */
  relativeHumidity: number;
  /** Surface (station) pressure, hPa. */
  pressure: number;
  /** Wind speed, m/s, measured at windHeight. */
  windSpeed: number;
  /** Height of the wind, m (10 for NWP 10 m wind; 2 needs no reduction). */
  windHeight: number;
  /** Global horizontal irradiance, W/m². */
  shortwaveRadiation: number;
  /** Urban (true) or rural (false, default) power-law exponents for the wind reduction. */
  urban?: boolean;
  /** Vertical temperature difference upper minus lower, K (night stability; default 0). */
  verticalTempDiffK?: number;
}

/** Globe, wet-bulb and WBGT temperatures of one radiative case, °C. */
export interface WbgtParts {
  globe: number;
  naturalWetBulb: number;
  /** Psychrometric wet bulb (no radiation), for reference; NaN from {@link wbgt}. */
  psychrometricWetBulb: number;
  wbgt: number;
}

/** Full result of {@link wbgtDetail}. */
export interface WbgtDetail {
  sun: WbgtParts;
  shade: WbgtParts;
  /** Wind speed used at 2 m, m/s. */
  windSpeed2m: number;
  /** Cosine of the solar zenith angle. */
  cosZenith: number;
  /** Direct-beam fraction of the irradiance. */
  directFraction: number;
  /** Irradiance after the clear-sky cap, W/m². */
  solarUsed: number;
}

/** cos zenith below which the Sun is treated as down (0.5° elevation; wbgt.c CZA_MIN). */
const CZA_MIN = 0.00873;
/** Upper bound of S/S_toa (wbgt.c NORMSOLAR_MAX). */
const NORMSOLAR_MAX = 0.85;

/**
 * Solar parameters of Liljegren (2008) eq. 13: the irradiance capped at
 * 0.85 × top-of-atmosphere, and the direct-beam fraction
 *
 * fdir = exp(3 − 1.34 s − 1.65/s),  s = S / S_toa,  S_toa = 1367 cos θ / d²,
 * clipped to 0..0.9; fdir = 0 (and S unchanged) when cos θ < 0.00873.
 *
 * @param solarWm2 global horizontal irradiance, W/m²
 * @param cza cosine of the solar zenith angle
 * @param distanceAu Earth–Sun distance, AU
 */
export function solarParameters(solarWm2: number, cza: number, distanceAu: number): { solar: number; fdir: number } {
  const toa = cza < CZA_MIN ? 0 : (SOLAR_CONSTANT_LILJEGREN * Math.max(0, cza)) / (distanceAu * distanceAu);
  if (toa <= 0) return { solar: solarWm2, fdir: 0 };
  const s = Math.min(solarWm2 / toa, NORMSOLAR_MAX);
  const solar = s * toa;
  if (s <= 0) return { solar, fdir: 0 };
  return { solar, fdir: Math.max(0, Math.min(0.9, Math.exp(3 - 1.34 * s - 1.65 / s))) };
}

/** Rows: wind class; columns: day radiation classes 0..3, night (dT<0) 5, night (dT≥0) 6 (module constants: no arrays per call). */
const STABILITY_TABLE: readonly (readonly number[])[] = [
  [1, 1, 2, 4, 0, 5, 6],
  [1, 2, 3, 4, 0, 5, 6],
  [2, 2, 3, 4, 0, 4, 4],
  [3, 3, 4, 4, 0, 0, 0],
  [3, 4, 4, 4, 0, 0, 0],
];

/** Pasquill–Gifford stability class 1..6 (A..F) from the solar radiation / ΔT method, EPA-454/5-99-005 §6.2.5. */
export function stabilityClass(daytime: boolean, speedMs: number, solarWm2: number, dTK: number): number {
  let i: number;
  let j: number;
  if (daytime) {
    j = solarWm2 >= 925 ? 0 : solarWm2 >= 675 ? 1 : solarWm2 >= 175 ? 2 : 3;
    i = speedMs >= 6 ? 4 : speedMs >= 5 ? 3 : speedMs >= 3 ? 2 : speedMs >= 2 ? 1 : 0;
  } else {
    j = dTK >= 0 ? 6 : 5;
    i = speedMs >= 2.5 ? 2 : speedMs >= 2 ? 1 : 0;
  }
  return STABILITY_TABLE[i]![j]!;
}

const URBAN_EXPONENTS: readonly number[] = [0.15, 0.15, 0.2, 0.25, 0.3, 0.3];
const RURAL_EXPONENTS: readonly number[] = [0.07, 0.07, 0.1, 0.15, 0.35, 0.55];
/** (2/10)^p of each class: the NWP's 10 m wind, the height every weather answer gives, without a power per call. */
const URBAN_FACTORS_10M: readonly number[] = URBAN_EXPONENTS.map((p) => (2 / 10) ** p);
const RURAL_FACTORS_10M: readonly number[] = RURAL_EXPONENTS.map((p) => (2 / 10) ** p);

/**
 * Wind speed at 2 m from another height by the power law of EPA-454/5-99-005:
 * u2 = u_z (2/z)^p, p by stability class (urban .15 .15 .20 .25 .30 .30;
 * rural .07 .07 .10 .15 .35 .55), floored at 0.13 m/s.
 */
export function windSpeedAt2m(speedMs: number, heightM: number, stability: number, urban: boolean): number {
  if (heightM === 10) {
    const f = (urban ? URBAN_FACTORS_10M : RURAL_FACTORS_10M)[stability - 1];
    if (f !== undefined) return Math.max(speedMs * f, 0.13);
  }
  const p = (urban ? URBAN_EXPONENTS : RURAL_EXPONENTS)[stability - 1] ?? 0.15;
  return Math.max(speedMs * (2 / heightM) ** p, 0.13);
}

/**
 * WBGT in the sun and in the shade (Liljegren et al. 2008).
 *
 * Valid range: the latent-heat fit is for 283–313 K air; the model needs the
 * Sun above the horizon for the direct-beam split (at night sun = shade).
 *
 * @returns { sun, shade } WBGT, °C (NaN when an input is not finite or the
 *   iteration fails)
 */
export function wbgt(input: WbgtInput): { sun: number; shade: number } {
  const geo = input.sun ?? (input.time ? solarGeometry(input.time, input.lat, input.lon) : null);
  const out = RESULT;
  if (geo === null) out[0] = out[1] = NaN;
  else {
    const { temperature, relativeHumidity, pressure, windSpeed, windHeight, shortwaveRadiation } = input;
    wbgtInto(out, geo, temperature, relativeHumidity, pressure, windSpeed, windHeight, shortwaveRadiation, input.urban, input.verticalTempDiffK);
  }
  return { sun: out[0]!, shade: out[1]! };
}

const RESULT = new Float64Array(2);

/**
 * {@link wbgt} of positional inputs, written into out[0] (sun) and out[1]
 * (shade), °C, NaN as there. Allocates nothing: a weather answer's WBGT took
 * its input, its result and the state the balances share as objects, with
 * their numbers boxed, about a sixth of the answer's garbage.
 *
 * @param sun the Sun at the instant and point (geo/solar.ts)
 * @param temperature air temperature, °C
 * @param relativeHumidity %
 * @param pressure station pressure, hPa
 * @param windSpeed m/s at windHeight (m)
 * @param shortwaveRadiation global horizontal irradiance, W/m²
 */
export function wbgtInto(
  out: Float64Array,
  sun: SolarGeometry,
  temperature: number,
  relativeHumidity: number,
  pressure: number,
  windSpeed: number,
  windHeight: number,
  shortwaveRadiation: number,
  urban = false,
  verticalTempDiffK = 0,
): void {
  // The psychrometric wet bulb is not part of WBGT; skipping it saves a third of the work on grids.
  if (!conditions(sun, temperature, relativeHumidity, pressure, windSpeed, windHeight, shortwaveRadiation, urban, verticalTempDiffK)) {
    out[0] = out[1] = NaN;
    return;
  }
  const c = SHARED;
  const { air, wickStart, solar, fdir, cza } = c;
  const sunValue = wbgtOf(air, globeSolarTerm(solar, fdir, cza), wickSolarTerm(solar, fdir, cza), wickStart, temperature);
  out[0] = sunValue;
  out[1] = solar > 0 ? wbgtOf(air, globeSolarTerm(0, 0, cza), wickSolarTerm(0, 0, cza), wickStart, temperature) : sunValue;
}

/** {@link wbgt} with globe and wet-bulb temperatures and the intermediate quantities. */
export function wbgtDetail(input: WbgtInput): WbgtDetail {
  const geo = input.sun ?? (input.time ? solarGeometry(input.time, input.lat, input.lon) : null);
  const ok =
    geo !== null &&
    conditions(geo, input.temperature, input.relativeHumidity, input.pressure, input.windSpeed, input.windHeight, input.shortwaveRadiation, input.urban, input.verticalTempDiffK);
  if (!ok) {
    return { sun: nanParts(), shade: nanParts(), windSpeed2m: NaN, cosZenith: NaN, directFraction: NaN, solarUsed: NaN };
  }
  const { air, wickStart, solar, fdir, cza, speed } = SHARED;
  const tC = input.temperature;
  const sun = parts(air, globeSolarTerm(solar, fdir, cza), wickSolarTerm(solar, fdir, cza), wickStart, tC);
  const shade = solar > 0 ? parts(air, globeSolarTerm(0, 0, cza), wickSolarTerm(0, 0, cza), wickStart, tC) : sun;
  return { sun, shade, windSpeed2m: speed, cosZenith: cza, directFraction: fdir, solarUsed: solar };
}

/** What the (up to) four balances of one input share. */
interface Conditions {
  air: LiljegrenAir;
  /** The wick's first estimate, K. */
  wickStart: number;
  /** Irradiance after the clear-sky cap, W/m², its direct fraction, and cos θ. */
  solar: number;
  fdir: number;
  cza: number;
  /** Wind at 2 m, m/s. */
  speed: number;
}

/**
 * The one Conditions object, rewritten by every {@link conditions} and read
 * right after it (all of this is synchronous): its numbers are updated in
 * place, none allocated. NaN to start, so that V8 keeps them as doubles.
 */
const SHARED: Conditions = { air: liljegrenAir(NaN, NaN, NaN, NaN), wickStart: NaN, solar: NaN, fdir: NaN, cza: NaN, speed: NaN };

/** The air state and solar parameters of an input into SHARED; false when an input is not finite or not physical. */
function conditions(
  geo: SolarGeometry,
  temperature: number,
  relativeHumidity: number,
  pressure: number,
  windSpeed: number,
  windHeight: number,
  shortwaveRadiation: number,
  urban: boolean | undefined,
  verticalTempDiffK: number | undefined,
): boolean {
  const finite =
    Number.isFinite(temperature) && Number.isFinite(relativeHumidity) && Number.isFinite(pressure) &&
    Number.isFinite(windSpeed) && Number.isFinite(windHeight) && Number.isFinite(shortwaveRadiation);
  if (!finite || windHeight <= 0 || pressure <= 0) return false;
  const cza = Math.cos((geo.zenith * Math.PI) / 180);
  const { solar, fdir } = solarParameters(Math.max(0, shortwaveRadiation), cza, geo.distanceAu);
  let speed = Math.max(0, windSpeed);
  if (windHeight !== 2) {
    const stab = stabilityClass(cza > 0, speed, solar, verticalTempDiffK ?? 0);
    speed = windSpeedAt2m(speed, windHeight, stab, urban ?? false);
  }
  const rh = Math.min(100, Math.max(0, relativeHumidity)) / 100;
  // Sun and shade are one air state: Liljegren (2008) eqs. 4 and 5 differ between them only by
  // their solar terms, so the air's properties, film coefficients and the wick's first estimate
  // are computed once for the (up to) four balances.
  const c = SHARED;
  liljegrenAirInto(c.air, temperature + 273.15, rh, pressure, speed);
  c.wickStart = wickStartK(c.air);
  c.solar = solar;
  c.fdir = fdir;
  c.cza = cza;
  c.speed = speed;
  return true;
}

function nanParts(): WbgtParts {
  return { globe: NaN, naturalWetBulb: NaN, psychrometricWetBulb: NaN, wbgt: NaN };
}

/** WBGT = 0.7 Tnwb + 0.2 Tg + 0.1 Ta (ISO 7243:2017 outdoor form) of one radiative case, °C (as {@link parts}). */
function wbgtOf(air: LiljegrenAir, globeSolar: number, wickSolar: number, wickStart: number, tC: number): number {
  const globe = solveGlobe(air, globeSolar, air.tK) - 273.15;
  const naturalWetBulb = solveWetBulb(air, wickSolar, true, wickStart) - 273.15;
  return 0.7 * naturalWetBulb + 0.2 * globe + 0.1 * tC;
}

/** One radiative case: the globe from the air temperature, the wick from `wickStart` (as globeTemperature / wetBulbTemperature). */
function parts(air: LiljegrenAir, globeSolar: number, wickSolar: number, wickStart: number, tC: number): WbgtParts {
  const globe = solveGlobe(air, globeSolar, air.tK) - 273.15;
  const naturalWetBulb = solveWetBulb(air, wickSolar, true, wickStart) - 273.15;
  const psychrometricWetBulb = solveWetBulb(air, wickSolar, false, wickStart) - 273.15;
  return { globe, naturalWetBulb, psychrometricWetBulb, wbgt: 0.7 * naturalWetBulb + 0.2 * globe + 0.1 * tC };
}
