/**
 * Relative humidity from specific humidity (20CRv3 publishes `shum.2m`, kg/kg,
 * and not always `rhum.2m`), and the surface pressure it needs from the
 * mean-sea-level pressure and the model orography.
 */
import { GRAVITY, R_DRY_AIR, STANDARD_LAPSE_RATE_K_PER_M } from './constants.js';
import { saturationVapourPressure } from './humidity.js';

/** Ratio of the gas constants of dry air and water vapour, Rd/Rv (WMO-No. 8, Annex 4.B). */
export const EPSILON = 0.621981;

/**
 * Vapour pressure from specific humidity.
 *
 * q = ε e / (p − (1 − ε) e)  ⇒  e = q p / (ε + (1 − ε) q)   (WMO-No. 8 (2018), Part I, Annex 4.B)
 *
 * @param specificHumidityKgKg specific humidity, kg/kg
 * @param pressureHpa air pressure at the same level, hPa
 * @returns vapour pressure, hPa
 */
export function vapourPressureFromSpecificHumidity(specificHumidityKgKg: number, pressureHpa: number): number {
  const q = Math.max(0, specificHumidityKgKg);
  return (q * pressureHpa) / (EPSILON + (1 - EPSILON) * q);
}

/**
 * Surface pressure from mean-sea-level pressure: the dry WMO reduction
 * p0 = ps · exp(g z / (R (Ts + a z / 2))) inverted (WMO-No. 8 Part I ch. 3, as
 * science/pressure.ts seaLevelPressure), a = 0.0065 K/m.
 *
 * @param mslHpa mean-sea-level pressure, hPa
 * @param elevationM surface elevation, m
 * @param temperatureC 2 m temperature, °C
 * @returns surface pressure, hPa
 */
export function surfacePressureFromMsl(mslHpa: number, elevationM: number, temperatureC: number): number {
  const tK = temperatureC + 273.15;
  return mslHpa * Math.exp(-(GRAVITY * elevationM) / (R_DRY_AIR * (tK + 0.5 * STANDARD_LAPSE_RATE_K_PER_M * elevationM)));
}

/**
 * Relative humidity over water, e / es(T) (Magnus, Alduchov & Eskridge 1996), capped at 100 %.
 *
 * @param specificHumidityKgKg kg/kg
 * @param temperatureC °C
 * @param pressureHpa surface pressure, hPa
 * @returns %
 */
export function relativeHumidityFromSpecific(specificHumidityKgKg: number, temperatureC: number, pressureHpa: number): number {
  return Math.min(100, (100 * vapourPressureFromSpecificHumidity(specificHumidityKgKg, pressureHpa)) / saturationVapourPressure(temperatureC));
}
