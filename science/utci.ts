/**
 * Universal Thermal Climate Index (UTCI): the air temperature of a reference
 * environment producing the same physiological response as the actual one.
 *
 * Bröde P., Fiala D., Błażejczyk K., et al. (2012) Deriving the operational
 * procedure for the Universal Thermal Climate Index (UTCI). Int. J.
 * Biometeorol. 56:481-494, doi:10.1007/s00484-011-0454-1 — the 6th-order
 * polynomial approximation of the UTCI-Fiala model, official program
 * UTCI_a002.f90. Assessment scale: Błażejczyk K. et al. (2013) Geographia
 * Polonica 86(1):5-10.
 */
import { saturationVapourPressureHardy } from './humidity.js';
import { UTCI_COEFFICIENTS } from './utci-coefficients.js';

/** Inputs of {@link utci}. */
export interface UtciInput {
  /** Air temperature, °C. */
  temperature: number;
  /** Mean radiant temperature, °C. */
  meanRadiantTemperature: number;
  /** Wind speed at 10 m, m/s. */
  windSpeed10m: number;
  /** Relative humidity, % (0..100). */
  relativeHumidity: number;
}

/** Validity domain of the polynomial (Bröde et al. 2012; UTCI_a002 header). */
export const UTCI_VALIDITY = {
  /** °C */
  temperatureC: [-50, 50],
  /** K, Tmrt − Ta */
  radiantDeltaK: [-30, 70],
  /** m/s at 10 m */
  windSpeed10mMs: [0.5, 17],
  /** hPa, maximum vapour pressure */
  vapourPressureMaxHpa: 50,
} as const;

/**
 * UTCI from air temperature, mean radiant temperature, 10 m wind and RH.
 *
 * e = es_Hardy(Ta) · RH/100 (hPa); then {@link utciFromVapourPressure}.
 *
 * @returns UTCI, °C; NaN outside the validity domain (see utciFromVapourPressure)
 */
export function utci(input: UtciInput): number {
  const { temperature, meanRadiantTemperature, windSpeed10m, relativeHumidity } = input;
  if (!(relativeHumidity >= 0 && relativeHumidity <= 100)) return NaN;
  const eHpa = (saturationVapourPressureHardy(temperature) * relativeHumidity) / 100;
  return utciFromVapourPressure(temperature, meanRadiantTemperature, windSpeed10m, eHpa);
}

/**
 * UTCI from vapour pressure (the polynomial's own humidity variable).
 *
 * UTCI = Ta + Σ_{k=1..210} c_k · Ta^a · va^b · ΔTmrt^c · Pa^d,  a+b+c+d ≤ 6,
 * ΔTmrt = Tmrt − Ta (K), Pa = e/10 (kPa)   (Bröde et al. 2012, UTCI_a002)
 *
 * Valid range: Ta −50..50 °C, Tmrt − Ta −30..70 K, va 0.5..17 m/s, e ≤ 50 hPa;
 * outside it the polynomial diverges (50 °C, 100 % RH gives −326 °C) and NaN
 * is returned. Exception: wind below 0.5 m/s is raised to 0.5 m/s, the
 * polynomial's calm reference (10 m wind under 0.5 m/s is common at night and
 * the index is insensitive there), as the operational UTCI products do.
 *
 * @param temperatureC air temperature, °C
 * @param meanRadiantTemperatureC mean radiant temperature, °C
 * @param windSpeed10mMs wind speed at 10 m, m/s
 * @param vapourPressureHpa water vapour pressure, hPa
 * @returns UTCI, °C, or NaN
 */
export function utciFromVapourPressure(
  temperatureC: number,
  meanRadiantTemperatureC: number,
  windSpeed10mMs: number,
  vapourPressureHpa: number,
): number {
  const v = UTCI_VALIDITY;
  const dTmrt = meanRadiantTemperatureC - temperatureC;
  if (
    !(temperatureC >= v.temperatureC[0] && temperatureC <= v.temperatureC[1]) ||
    !(dTmrt >= v.radiantDeltaK[0] && dTmrt <= v.radiantDeltaK[1]) ||
    !(windSpeed10mMs >= 0 && windSpeed10mMs <= v.windSpeed10mMs[1]) ||
    !(vapourPressureHpa >= 0 && vapourPressureHpa <= v.vapourPressureMaxHpa)
  ) {
    return NaN;
  }
  const va = Math.max(windSpeed10mMs, v.windSpeed10mMs[0]);
  return temperatureC + utciOffset(temperatureC, va, dTmrt, vapourPressureHpa / 10);
}

/**
 * The raw polynomial Ta + offset with no validity check, for diagnostics and
 * for comparing with implementations that do not flag the domain (the
 * official program prints such values with a warning). Use {@link utci}.
 *
 * @returns °C
 */
export function utciPolynomialUnchecked(
  temperatureC: number,
  meanRadiantTemperatureC: number,
  windSpeed10mMs: number,
  vapourPressureHpa: number,
): number {
  return (
    temperatureC +
    utciOffset(temperatureC, windSpeed10mMs, meanRadiantTemperatureC - temperatureC, vapourPressureHpa / 10)
  );
}

/**
 * The polynomial offset UTCI − Ta. The coefficients are stored with Ta
 * innermost, so each run of Ta coefficients is one Horner polynomial; the
 * outer sums over va, ΔTmrt and Pa accumulate powers. No allocation: this
 * runs once per grid cell and time step, and once per Developer answer.
 *
 * Compiled once, from the table, into straight-line code that does the
 * nested loops' operations in their order (so the same value to the bit):
 * the loops' variable trip counts and the table reads were two thirds of its
 * cost (225 → 76 ns). The same device as the tile reader's result objects
 * (tiles/read/variable-list.ts).
 */
const utciOffset = compileOffset(UTCI_COEFFICIENTS);

function compileOffset(c: readonly number[]): (ta: number, va: number, dTmrt: number, paKpa: number) => number {
  // Number → string round-trips exactly, so each literal is the table's double.
  const lines = ['let sum = 0, paPow = 1, dSum, dPow, vSum, vPow, poly;'];
  let k = 0;
  for (let pPa = 0; pPa <= 6; pPa++) {
    lines.push('dSum = 0; dPow = 1;');
    for (let pD = 0; pD <= 6 - pPa; pD++) {
      lines.push('vSum = 0; vPow = 1;');
      for (let pV = 0; pV <= 6 - pPa - pD; pV++) {
        const n = 6 - pPa - pD - pV;
        let poly = `poly = ${c[k + n]!};`;
        for (let j = n - 1; j >= 0; j--) poly += ` poly = poly * ta + ${c[k + j]!};`;
        k += n + 1;
        lines.push(`${poly} vSum += vPow * poly; vPow *= va;`);
      }
      lines.push('dSum += dPow * vSum; dPow *= dTmrt;');
    }
    lines.push('sum += paPow * dSum; paPow *= paKpa;');
  }
  if (k !== c.length) throw new Error(`UTCI: ${c.length} coefficients, the polynomial takes ${k}`);
  lines.push('return sum;');
  return new Function('ta', 'va', 'dTmrt', 'paKpa', lines.join('\n')) as (ta: number, va: number, dTmrt: number, paKpa: number) => number;
}

/** UTCI assessment categories (Błażejczyk et al. 2013), hot to cold. */
export const UTCI_CATEGORIES = [
  { id: 'extreme_heat_stress', above: 46, it: 'stress da caldo estremo' },
  { id: 'very_strong_heat_stress', above: 38, it: 'stress da caldo molto forte' },
  { id: 'strong_heat_stress', above: 32, it: 'stress da caldo forte' },
  { id: 'moderate_heat_stress', above: 26, it: 'stress da caldo moderato' },
  { id: 'no_thermal_stress', above: 9, it: 'nessuno stress termico' },
  { id: 'slight_cold_stress', above: 0, it: 'stress da freddo lieve' },
  { id: 'moderate_cold_stress', above: -13, it: 'stress da freddo moderato' },
  { id: 'strong_cold_stress', above: -27, it: 'stress da freddo forte' },
  { id: 'very_strong_cold_stress', above: -40, it: 'stress da freddo molto forte' },
  { id: 'extreme_cold_stress', above: -Infinity, it: 'stress da freddo estremo' },
] as const;

/** A UTCI category identifier. */
export type UtciCategory = (typeof UTCI_CATEGORIES)[number]['id'];

/**
 * UTCI assessment category. Intervals are (lower, upper]: a value equal to a
 * threshold belongs to the lower (colder) category, e.g. 26.0 → no_thermal_stress
 * (as pythermalcomfort and CNR-IBE biometeo.js).
 *
 * @param utciC UTCI, °C
 * @returns category identifier, or null for NaN
 */
export function utciCategory(utciC: number): UtciCategory | null {
  if (Number.isNaN(utciC)) return null;
  for (const c of UTCI_CATEGORIES) if (utciC > c.above) return c.id;
  return 'extreme_cold_stress';
}

/** Italian label of a UTCI category (no official Italian wording exists; see docs/science.md). */
export function utciCategoryLabelIt(id: UtciCategory): string {
  return UTCI_CATEGORIES.find((c) => c.id === id)!.it;
}
