/**
 * Frost risk for a night or an hour, from the screen (2 m) temperature or its
 * forecast minimum, humidity, cloud and wind.
 *
 * Method (documented in docs/science.md):
 *  1. Air frost: screen temperature ≤ 0 °C — the FAO definition of a frost
 *     event (Snyder & de Melo-Abreu 2005, FAO Environment and Natural
 *     Resources Series 10, vol. 1 ch. 2).
 *  2. Radiative night: total cloud ≤ 25 % (2 oktas) and 10 m wind < 2 m/s;
 *     the ground and plant surfaces then fall 2–4 K below the screen
 *     temperature (FAO vol. 1; ARPAE late-frost service): we take 3 K. With
 *     cloud ≤ 50 % and wind < 4 m/s (partly radiative) 1.5 K; otherwise
 *     (cloudy or windy: advective) 0.5 K. A measured/forecast ground
 *     temperature (5 cm or skin) replaces the estimate when given.
 *  3. Ground frost: ground temperature ≤ 0 °C (MeteoSwiss, T at 5 cm).
 *  4. Hoar frost (brina) when the ground is at or below the frost point
 *     (ice curve, WMO-No. 8); ground frost without hoar is "black frost".
 *  5. Risk: high = air frost; moderate = ground frost only; low = ground
 *     within 2 K above 0 °C (the estimate's uncertainty); none otherwise.
 */
import { dewPoint, frostPoint } from './humidity.js';

/** Inputs of {@link frostRisk}. */
export interface FrostInput {
  /** Screen (2 m) air temperature or forecast minimum, °C. */
  temperatureC: number;
  /** Relative humidity, % (or give dewPointC). */
  relativeHumidityPct?: number;
  /** Dew point, °C (used when relativeHumidityPct is absent). */
  dewPointC?: number;
  /** Total cloud cover, %. */
  cloudCoverPct: number;
  /** Wind speed at 10 m, m/s. */
  windSpeed10m: number;
  /** Ground (5 cm or skin) temperature, °C, when the product has it. */
  groundTemperatureC?: number;
}

/** Frost risk levels with Italian labels. */
export const FROST_RISK_LEVELS = [
  { id: 'none', it: 'nessuno' },
  { id: 'low', it: 'basso' },
  { id: 'moderate', it: 'moderato' },
  { id: 'high', it: 'alto' },
] as const;

/** A frost risk identifier. */
export type FrostRiskLevel = (typeof FROST_RISK_LEVELS)[number]['id'];

/** The Italian label of each level, from FROST_RISK_LEVELS (a lookup per answer, not a search with a closure). */
const LABEL_IT = Object.fromEntries(FROST_RISK_LEVELS.map((l) => [l.id, l.it])) as Readonly<Record<FrostRiskLevel, string>>;

/** Result of {@link frostRisk}. */
export interface FrostRisk {
  /** Risk identifier; null when the temperature is missing. */
  risk: FrostRiskLevel | null;
  /** Italian label of the risk. */
  label: string | null;
  /** Frost point (ice curve), °C; NaN without humidity. */
  frostPoint: number;
  /** Dew point over water, °C; NaN without humidity. */
  dewPoint: number;
  /** Ground temperature used, °C (estimated unless given). */
  groundTemperature: number;
  /** Whether groundTemperature is the estimate of step 2. */
  groundEstimated: boolean;
  /** Clear and calm night. */
  radiativeNight: boolean;
  /** Screen temperature ≤ 0 °C. */
  airFrost: boolean;
  /** Ground temperature ≤ 0 °C. */
  groundFrost: boolean;
  /** Ground frost with deposition (ground ≤ frost point). */
  hoarFrost: boolean;
  /** Ground frost without deposition (dry air). */
  blackFrost: boolean;
}

/**
 * Screen-to-ground temperature drop, K, by night type (see module comment).
 *
 * @param cloudCoverPct total cloud, %
 * @param windSpeed10m 10 m wind, m/s
 */
export function groundCoolingK(cloudCoverPct: number, windSpeed10m: number): number {
  if (cloudCoverPct <= 25 && windSpeed10m < 2) return 3;
  if (cloudCoverPct <= 50 && windSpeed10m < 4) return 1.5;
  return 0.5;
}

/**
 * Frost risk (method in the module comment).
 */
export function frostRisk(input: FrostInput): FrostRisk {
  const { temperatureC: t, cloudCoverPct, windSpeed10m } = input;
  let td = NaN;
  let tf = NaN;
  if (input.relativeHumidityPct !== undefined && Number.isFinite(input.relativeHumidityPct)) {
    td = dewPoint(t, input.relativeHumidityPct);
    tf = frostPoint(t, input.relativeHumidityPct);
  } else if (input.dewPointC !== undefined && Number.isFinite(input.dewPointC)) {
    td = Math.min(input.dewPointC, t);
    const rh = 100 * Math.exp((17.625 * td) / (243.04 + td) - (17.625 * t) / (243.04 + t));
    tf = frostPoint(t, rh);
  }
  const radiativeNight = cloudCoverPct <= 25 && windSpeed10m < 2;
  const given = input.groundTemperatureC !== undefined && Number.isFinite(input.groundTemperatureC);
  const ground = given ? input.groundTemperatureC! : t - groundCoolingK(cloudCoverPct, windSpeed10m);
  const airFrost = t <= 0;
  const groundFrost = ground <= 0;
  const hoarFrost = groundFrost && ground <= tf;
  const blackFrost = groundFrost && !hoarFrost && Number.isFinite(tf);
  let risk: FrostRiskLevel | null = null;
  if (Number.isFinite(t) && Number.isFinite(ground)) {
    risk = airFrost ? 'high' : groundFrost ? 'moderate' : ground <= 2 ? 'low' : 'none';
  }
  return {
    risk,
    label: risk ? LABEL_IT[risk] : null,
    frostPoint: tf,
    dewPoint: td,
    groundTemperature: ground,
    groundEstimated: !given,
    radiativeNight,
    airFrost,
    groundFrost,
    hoarFrost,
    blackFrost,
  };
}

/** FAO frost event: screen minimum ≤ 0 °C (Snyder & de Melo-Abreu 2005). */
export function isFrostEvent(screenMinimumC: number): boolean {
  return screenMinimumC <= 0;
}

/** Result of {@link groundFrostWarning}. */
export interface GroundFrostWarning {
  /** 'none' (> 0 °C), 'weak_moderate' (0 … −4 °C), 'strong' (< −4 °C). */
  intensity: 'none' | 'weak_moderate' | 'strong';
  /** MeteoSwiss danger level: 2 for ground frost below 600 m from 15 Mar to 31 Oct, else 1. */
  level: 1 | 2;
}

/**
 * Ground-frost warning as MeteoSwiss issues it (pericoli-naturali.ch "Livelli
 * di pericolo gelo"): ground frost when T(5 cm) ≤ 0 °C ("fino a, o al di sotto
 * di, zero gradi"); 0 to −4 °C weak–moderate, below −4 °C strong; warnings
 * (level 2) only below 600 m a.s.l. and from 15 March to 31 October.
 *
 * @param t5cmC temperature 5 cm above ground, °C
 * @param elevationM station elevation, m
 * @param month 1..12
 * @param day day of month
 */
export function groundFrostWarning(t5cmC: number, elevationM: number, month: number, day: number): GroundFrostWarning {
  const intensity = t5cmC > 0 ? 'none' : t5cmC >= -4 ? 'weak_moderate' : 'strong';
  const inSeason = (month > 3 || (month === 3 && day >= 15)) && month <= 10;
  const level = intensity !== 'none' && elevationM < 600 && inSeason ? 2 : 1;
  return { intensity, level };
}
