/**
 * Humidity: saturation vapour pressure, dew point, frost point, relative
 * humidity and vapour-pressure deficit from the Magnus form.
 *
 * Constants: Alduchov & Eskridge (1996) "Improved Magnus form approximation of
 * saturation vapor pressure", J. Appl. Meteor. 35:601-609 (AERK set, valid
 * -40..50 °C, error < 0.4 % against Wexler/Hardy over that range). Ice curve:
 * WMO-No. 8 Annex 4.B (Sonntag 1990), valid -65..0.01 °C.
 */
import { MAGNUS_ICE, MAGNUS_WATER } from './constants.js';

/**
 * Saturation vapour pressure over liquid water.
 *
 * es = 6.1094 · exp(17.625 T / (T + 243.04))   (Alduchov & Eskridge 1996, eq. 21)
 *
 * @param temperatureC air temperature, °C (valid -40..50 °C; also used, as is
 *   customary, for supercooled water below 0 °C)
 * @returns saturation vapour pressure, hPa
 */
export function saturationVapourPressure(temperatureC: number): number {
  const { a, b, c } = MAGNUS_WATER;
  return c * Math.exp((a * temperatureC) / (b + temperatureC));
}

/** Hardy (1998) ITS-90 coefficients g0..g7 for saturation over water, ln(es[Pa]). */
const HARDY_G = [
  -2.8365744e3, -6.028076559e3, 1.954263612e1, -2.737830188e-2, 1.6261698e-5, 7.0229056e-10, -1.8680009e-13,
  2.7150305,
] as const;

/**
 * Saturation vapour pressure over water, Hardy (1998) ITS-90 formulation.
 *
 * ln(es[Pa]) = Σ_{i=0..6} g_i T^(i−2) + g_7 ln T,  T in K
 *
 * Hardy B. (1998) "ITS-90 formulations for vapor pressure, frostpoint
 * temperature, dewpoint temperature and enhancement factors in the range
 * -100 to +100 °C", Proc. 3rd Int. Symp. on Humidity and Moisture, NPL, 214-221.
 * This is the es the official UTCI program (UTCI_a002) uses; valid -100..100 °C.
 *
 * @param temperatureC °C
 * @returns hPa
 */
export function saturationVapourPressureHardy(temperatureC: number): number {
  const tk = temperatureC + 273.15;
  const g = HARDY_G;
  // The powers T⁻²..T⁴ by multiplication, summed in the formula's order: seven Math.pow calls were
  // two thirds of its cost (once per answer in UTCI); the sum moves by ~1e-15 relative.
  const t2 = tk * tk;
  let ln = g[7] * Math.log(tk);
  ln += g[0] / t2;
  ln += g[1] / tk;
  ln += g[2];
  ln += g[3] * tk;
  ln += g[4] * t2;
  ln += g[5] * t2 * tk;
  ln += g[6] * t2 * t2;
  return Math.exp(ln) * 0.01;
}

/**
 * Saturation vapour pressure over ice.
 *
 * ei = 6.112 · exp(22.46 T / (T + 272.62))   (WMO-No. 8, Annex 4.B; Sonntag 1990)
 *
 * @param temperatureC temperature, °C (valid -65..0.01 °C)
 * @returns saturation vapour pressure over ice, hPa
 */
export function saturationVapourPressureIce(temperatureC: number): number {
  const { a, b, c } = MAGNUS_ICE;
  return c * Math.exp((a * temperatureC) / (b + temperatureC));
}

/**
 * Actual vapour pressure from temperature and relative humidity.
 *
 * e = es(T) · RH / 100
 *
 * @param temperatureC °C
 * @param relativeHumidityPct %, 0..100 (clamped)
 * @returns hPa
 */
export function vapourPressure(temperatureC: number, relativeHumidityPct: number): number {
  return (saturationVapourPressure(temperatureC) * clampPct(relativeHumidityPct)) / 100;
}

/**
 * Dew point over water by inverting the Magnus form.
 *
 * γ = ln(RH/100) + a T/(b + T);  Td = b γ / (a − γ)   (a = 17.625, b = 243.04 °C)
 *
 * RH is clamped to 0..100 and the result to Td ≤ T (as Open-Meteo does), so a
 * model RH slightly above 100 % does not yield a dew point above the air
 * temperature. RH = 0 gives -Infinity (no vapour): callers that need a finite
 * number should floor RH.
 *
 * @param temperatureC air temperature, °C (valid -40..50 °C)
 * @param relativeHumidityPct relative humidity over water, %
 * @returns dew point, °C
 */
export function dewPoint(temperatureC: number, relativeHumidityPct: number): number {
  const { a, b } = MAGNUS_WATER;
  const rh = clampPct(relativeHumidityPct);
  if (rh === 0) return -Infinity;
  const gamma = Math.log(rh / 100) + (a * temperatureC) / (b + temperatureC);
  const td = (b * gamma) / (a - gamma);
  return Math.min(td, temperatureC);
}

/**
 * Frost point: the temperature at which the air's vapour pressure equals
 * saturation over ice (hoar frost forms on surfaces at or below it).
 *
 * e = es(T) · RH/100;  γ = ln(e / 6.112);  Tf = 272.62 γ / (22.46 − γ)
 * (ice curve of WMO-No. 8 Annex 4.B, Sonntag 1990)
 *
 * `rhOver` says what the relative humidity is relative to below 0 °C:
 * 'water' (WMO convention, what NWP 2 m humidity and our dewPoint use; e from
 * the Alduchov–Eskridge water curve) or 'ice' (VDI 3786-4 as in
 * RUBclim/thermal-comfort dew_point(): e from the ice curve). Above 0 °C both
 * use water. When the result is ≥ 0 °C the dew point over water is returned
 * (no ice can form), as in VDI 3786-4.
 *
 * @param temperatureC air temperature, °C (ice curve valid -65..0.01 °C)
 * @param relativeHumidityPct relative humidity, % (0..100, clamped)
 * @param rhOver reference phase of RH below 0 °C (default 'water')
 * @returns frost point, °C (≤ T)
 */
export function frostPoint(
  temperatureC: number,
  relativeHumidityPct: number,
  rhOver: 'water' | 'ice' = 'water',
): number {
  const rh = clampPct(relativeHumidityPct);
  const es =
    rhOver === 'ice' && temperatureC < 0
      ? saturationVapourPressureIce(temperatureC)
      : saturationVapourPressure(temperatureC);
  const tf = frostPointFromVapourPressure((es * rh) / 100);
  if (tf >= 0) return dewPoint(temperatureC, relativeHumidityPct);
  return Math.min(tf, temperatureC);
}

/**
 * Frost point from the vapour pressure: inverse of the WMO ice curve.
 *
 * Tf = 272.62 γ / (22.46 − γ),  γ = ln(e / 6.112)
 *
 * @param vapourPressureHpa actual vapour pressure, hPa (> 0)
 * @returns frost point, °C (meaningful below 0 °C)
 */
export function frostPointFromVapourPressure(vapourPressureHpa: number): number {
  const { a, b, c } = MAGNUS_ICE;
  const gamma = Math.log(vapourPressureHpa / c);
  return (b * gamma) / (a - gamma);
}

/**
 * Relative humidity from temperature and dew point.
 *
 * RH = 100 · exp(a Td/(b + Td) − a T/(b + T))   (Magnus, Alduchov & Eskridge 1996)
 *
 * Clamped to 0..100 % (a dew point above the temperature gives 100 %).
 *
 * @param temperatureC °C
 * @param dewPointC °C
 * @returns relative humidity over water, %
 */
export function relativeHumidity(temperatureC: number, dewPointC: number): number {
  const { a, b } = MAGNUS_WATER;
  const rh = 100 * Math.exp((a * dewPointC) / (b + dewPointC) - (a * temperatureC) / (b + temperatureC));
  return clampPct(rh);
}

/**
 * Saturation vapour pressure as FAO-56 defines it (Tetens form).
 *
 * e°(T) = 0.6108 · exp(17.27 T / (T + 237.3))   (Allen et al. 1998, FAO-56 eq. 11)
 *
 * Used by the FAO-56 reference evapotranspiration and the vapour-pressure
 * deficit so that they match FAO-56 worked examples to their printed digits.
 *
 * @param temperatureC °C
 * @returns kPa
 */
export function saturationVapourPressureFao56(temperatureC: number): number {
  return 0.6108 * Math.exp((17.27 * temperatureC) / (temperatureC + 237.3));
}

/**
 * Vapour-pressure deficit: e°(T) − e°(Td), not below 0, with the FAO-56 e°
 * (FAO-56 eqs. 11, 14, 48; as Open-Meteo's vapour_pressure_deficit).
 *
 * @param temperatureC °C
 * @param dewPointC °C
 * @returns kPa
 */
export function vapourPressureDeficit(temperatureC: number, dewPointC: number): number {
  return Math.max(0, saturationVapourPressureFao56(temperatureC) - saturationVapourPressureFao56(dewPointC));
}

function clampPct(v: number): number {
  return v < 0 ? 0 : v > 100 ? 100 : v;
}
