/**
 * Pressure reduction to sea level and altitude correction of temperature
 * between a model grid's orography and a target point.
 */
import { GRAVITY, R_DRY_AIR, STANDARD_LAPSE_RATE_K_PER_M } from './constants.js';
import { saturationVapourPressure } from './humidity.js';

/** Inputs of {@link seaLevelPressure}. */
export interface SeaLevelPressureInput {
  /** Station (surface) pressure, hPa. */
  surfacePressureHpa: number;
  /** Station elevation, m (≈ geopotential metres). */
  elevationM: number;
  /** 2 m air temperature, °C. */
  temperatureC: number;
  /** 2 m relative humidity, %; omitted → dry-air reduction (e = 0). */
  relativeHumidityPct?: number;
}

/**
 * Mean sea-level pressure, WMO-No. 8 (CIMO Guide) Part I ch. 3 reduction as
 * implemented by MET Norway gridpp sea_level_pressure():
 *
 * z ≥ 50 m:  p0 = ps · exp( (g z / R) / (Ts + a z/2 + e Ch) ),
 *            a = 0.0065 K/gpm, Ch = 0.12 K/hPa, R = 287.05 J kg⁻¹ K⁻¹
 * z < 50 m:  p0 = ps + ps z / (29.27 Tv),  Tv = T / (1 − 0.379 e/ps)
 *
 * with e the vapour pressure (hPa, Magnus AE1996). Valid for ordinary station
 * heights; above ~2000 m every reduction is a convention rather than a
 * measurement, and methods differ by several hPa.
 *
 * @returns hPa
 */
export function seaLevelPressure(input: SeaLevelPressureInput): number {
  const { surfacePressureHpa: ps, elevationM: z, temperatureC } = input;
  const tK = temperatureC + 273.15;
  const rh = input.relativeHumidityPct;
  const e = rh === undefined ? 0 : (saturationVapourPressure(temperatureC) * Math.min(100, Math.max(0, rh))) / 100;
  if (z >= 50) {
    return ps * Math.exp((GRAVITY * z) / R_DRY_AIR / (tK + 0.5 * 0.0065 * z + e * 0.12));
  }
  const tv = tK / (1 - (0.379 * e) / ps);
  return ps + (ps * z) / (29.27 * tv);
}

/**
 * Sea-level pressure with the standard-atmosphere lapse rate, the one-line
 * form Open-Meteo uses (Meteorology.swift sealevelPressureFactor):
 *
 * p0 = p · (1 − 0.0065 z / (T + 273.15 + 0.0065 z))^−5.25578129287
 *
 * @param surfacePressureHpa hPa
 * @param elevationM m
 * @param temperatureC 2 m temperature, °C
 * @returns hPa
 */
export function seaLevelPressureStandardLapse(surfacePressureHpa: number, elevationM: number, temperatureC: number): number {
  const lz = 0.0065 * elevationM;
  return surfacePressureHpa * (1 - lz / (temperatureC + 273.15 + lz)) ** -5.25578129287;
}

/**
 * Sea-level pressure in the ICAO standard atmosphere (QNH-like, ignores the
 * actual temperature): p0 = p (1 − 0.0065 z / 288.15)^−5.25588 (ICAO Doc 7488).
 *
 * @returns hPa
 */
export function seaLevelPressureIcao(surfacePressureHpa: number, elevationM: number): number {
  return surfacePressureHpa * (1 - (0.0065 * elevationM) / 288.15) ** -5.25588;
}

/**
 * Surface pressure at another elevation by the hypsometric equation with a
 * mean layer temperature (lapse rate 6.5 K/km from the known level):
 *
 * p2 = p1 · exp(−g (z2 − z1) / (R T̄)),  T̄ = T1 − 0.0065 (z2 − z1)/2
 *
 * Used to move model surface pressure to the point's altitude (WBGT, ET0).
 *
 * @param pressureHpa pressure at z1, hPa
 * @param fromElevationM z1, m
 * @param toElevationM z2, m
 * @param temperatureC air temperature at z1, °C
 * @returns hPa
 */
export function pressureAtElevation(
  pressureHpa: number,
  fromElevationM: number,
  toElevationM: number,
  temperatureC: number,
): number {
  const dz = toElevationM - fromElevationM;
  const tMeanK = temperatureC + 273.15 - (STANDARD_LAPSE_RATE_K_PER_M * dz) / 2;
  return pressureHpa * Math.exp((-GRAVITY * dz) / (R_DRY_AIR * tMeanK));
}

/**
 * Temperature moved from the grid's orography to the point's altitude with a
 * constant lapse rate (Open-Meteo GenericReader, gridpp simple_gradient):
 *
 * T_point = T_grid + Γ (z_grid − z_point),  Γ = 0.0065 K/m by default
 *
 * @param temperatureC grid temperature, °C
 * @param zGridM grid (model orography) elevation, m
 * @param zPointM target elevation, m
 * @param lapseRateKPerM Γ, K/m (positive: temperature falls with height)
 * @returns °C
 */
export function altitudeCorrectedTemperature(
  temperatureC: number,
  zGridM: number,
  zPointM: number,
  lapseRateKPerM: number = STANDARD_LAPSE_RATE_K_PER_M,
): number {
  return temperatureC + lapseRateKPerM * (zGridM - zPointM);
}
