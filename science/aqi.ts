/**
 * European Air Quality Index (EEA): per-pollutant sub-indices from
 * concentration bands, continuous as Open-Meteo computes them, and the overall
 * index = the highest sub-index (the worst pollutant decides).
 *
 * Bands: EEA revision of 2024 (ETC HE Report 2024/17, "Revision of the
 * European Air Quality Index"; EEA European Air Quality Index, "About the
 * index", airindex.eea.europa.eu, in force since 2024), hourly concentrations
 * for all five pollutants. Level names: the EEA index's own (Good … Extremely
 * poor) and those of its Italian version (Buona … Estremamente scadente). The pre-2024 bands (PM as 24 h running means) are
 * kept for comparison with older products.
 */

/** Pollutants of the index (CAMS / Open-Meteo variable names). */
export type AqiPollutant = 'pm2_5' | 'pm10' | 'nitrogen_dioxide' | 'ozone' | 'sulphur_dioxide';

/** Lower edges of the six bands Good … Extremely poor, µg/m³. */
export const EAQI_BANDS_2024: Record<AqiPollutant, readonly number[]> = {
  pm2_5: [0, 5, 15, 50, 90, 140],
  pm10: [0, 15, 45, 120, 195, 270],
  nitrogen_dioxide: [0, 10, 25, 60, 100, 150],
  ozone: [0, 60, 100, 120, 160, 180],
  sulphur_dioxide: [0, 20, 40, 125, 190, 275],
};

/** Pre-2024 band edges (EEA; Open-Meteo AirQuality.swift before 2026), µg/m³; PM as 24 h means. */
export const EAQI_BANDS_PRE2024: Record<AqiPollutant, readonly number[]> = {
  pm2_5: [0, 10, 20, 25, 50, 75],
  pm10: [0, 20, 40, 50, 100, 150],
  nitrogen_dioxide: [0, 40, 90, 120, 230, 340],
  ozone: [0, 50, 100, 130, 240, 380],
  sulphur_dioxide: [0, 100, 200, 350, 500, 750],
};

/** Index levels with the upper bound of their index range (intervals (lower, upper]). */
export const EAQI_LEVELS = [
  { id: 'good', max: 20, it: 'buona', en: 'Good' },
  { id: 'fair', max: 40, it: 'discreta', en: 'Fair' },
  { id: 'moderate', max: 60, it: 'moderata', en: 'Moderate' },
  { id: 'poor', max: 80, it: 'scadente', en: 'Poor' },
  { id: 'very_poor', max: 100, it: 'molto scadente', en: 'Very poor' },
  { id: 'extremely_poor', max: Infinity, it: 'estremamente scadente', en: 'Extremely poor' },
] as const;

/** A European AQI level identifier. */
export type EaqiLevel = (typeof EAQI_LEVELS)[number]['id'];

/**
 * Continuous sub-index of one pollutant:
 *
 * I = 20 · (k + (c − e_k)/(e_{k+1} − e_k)),  e_k ≤ c < e_{k+1}
 *
 * so each band spans 20 index points (Good 0–20 … Very poor 80–100); above the
 * last edge the last band's slope continues (Open-Meteo positionExtrapolated).
 * A concentration equal to an edge gives the round value (c = 10 µg/m³ NO₂ → 20).
 *
 * @param pollutant pollutant name
 * @param concentrationUgM3 concentration, µg/m³ (hourly; PM 24 h mean for pre-2024)
 * @param bands band set (default 2024 revision)
 * @returns sub-index, or NaN for a negative or missing concentration
 */
export function europeanAqiSubIndex(
  pollutant: AqiPollutant,
  concentrationUgM3: number,
  bands: Record<AqiPollutant, readonly number[]> = EAQI_BANDS_2024,
): number {
  return subIndexIn(bands[pollutant], concentrationUgM3);
}

/** {@link europeanAqiSubIndex} in the band edges `e`. */
function subIndexIn(e: readonly number[], concentrationUgM3: number): number {
  if (!(concentrationUgM3 >= e[0]!)) return NaN;
  let k = e.length - 2;
  for (let i = 1; i < e.length; i++) {
    if (concentrationUgM3 < e[i]!) {
      k = i - 1;
      break;
    }
  }
  return 20 * (k + (concentrationUgM3 - e[k]!) / (e[k + 1]! - e[k]!));
}

/** Level of an index value; intervals (lower, upper], so 20.0 is still 'good'. */
export function europeanAqiLevel(value: number): EaqiLevel | null {
  return levelOf(value)?.id ?? null;
}

function levelOf(value: number): (typeof EAQI_LEVELS)[number] | null {
  if (Number.isNaN(value)) return null;
  for (const l of EAQI_LEVELS) if (value <= l.max) return l;
  return null;
}

/** Concentrations, µg/m³; missing pollutants are skipped. */
export type AqiInput = Partial<Record<AqiPollutant, number>>;

/** Result of {@link europeanAqi}. */
export interface EuropeanAqi {
  /** Overall index (max of the sub-indices), continuous; NaN if no pollutant is valid. */
  value: number;
  /** Level identifier ('good' … 'extremely_poor'), null when value is NaN. */
  label: EaqiLevel | null;
  /** Italian level name. */
  labelIt: string | null;
  /** Pollutant with the highest sub-index. */
  dominant: AqiPollutant | null;
  /** Sub-index of every pollutant given. */
  subIndices: Partial<Record<AqiPollutant, number>>;
}

/**
 * European AQI: the highest of the pollutants' sub-indices.
 *
 * @param input concentrations, µg/m³ (2024 bands: hourly values for all five)
 */
export function europeanAqi(input: AqiInput, bands = EAQI_BANDS_2024): EuropeanAqi {
  const subIndices: Partial<Record<AqiPollutant, number>> = {};
  let value = NaN;
  let dominant: AqiPollutant | null = null;
  // for…in, not Object.keys: no array per call (asked on every answer with `cams`); the same order.
  for (const p in bands) {
    const c = input[p as AqiPollutant];
    if (c === undefined) continue;
    const s = europeanAqiSubIndex(p as AqiPollutant, c, bands);
    subIndices[p as AqiPollutant] = s;
    if (!Number.isNaN(s) && !(s <= value)) {
      value = s;
      dominant = p as AqiPollutant;
    }
  }
  const level = levelOf(value);
  return { value, label: level?.id ?? null, labelIt: level?.it ?? null, dominant, subIndices };
}

/** {@link europeanAqi} without the sub-indices. */
export type EuropeanAqiSummary = Omit<EuropeanAqi, 'subIndices'>;

/**
 * {@link europeanAqi} of the five pollutants with the 2024 bands, without the
 * sub-indices (a weather answer reports the index, its level and the dominant
 * pollutant): the same values, the pollutants taken in the order of
 * EAQI_BANDS_2024 (a tie keeps the first), and no object grown by computed
 * names on every answer.
 *
 * @returns undefined concentrations are skipped, as europeanAqi's missing ones
 */
export function europeanAqiSummary(
  pm2_5: number | undefined,
  pm10: number | undefined,
  nitrogen_dioxide: number | undefined,
  ozone: number | undefined,
  sulphur_dioxide: number | undefined,
): EuropeanAqiSummary {
  const B = EAQI_BANDS_2024;
  let value = NaN;
  let dominant: AqiPollutant | null = null;
  let s: number;
  if (pm2_5 !== undefined && !Number.isNaN((s = subIndexIn(B.pm2_5, pm2_5))) && !(s <= value)) {
    value = s;
    dominant = 'pm2_5';
  }
  if (pm10 !== undefined && !Number.isNaN((s = subIndexIn(B.pm10, pm10))) && !(s <= value)) {
    value = s;
    dominant = 'pm10';
  }
  if (nitrogen_dioxide !== undefined && !Number.isNaN((s = subIndexIn(B.nitrogen_dioxide, nitrogen_dioxide))) && !(s <= value)) {
    value = s;
    dominant = 'nitrogen_dioxide';
  }
  if (ozone !== undefined && !Number.isNaN((s = subIndexIn(B.ozone, ozone))) && !(s <= value)) {
    value = s;
    dominant = 'ozone';
  }
  if (sulphur_dioxide !== undefined && !Number.isNaN((s = subIndexIn(B.sulphur_dioxide, sulphur_dioxide))) && !(s <= value)) {
    value = s;
    dominant = 'sulphur_dioxide';
  }
  const level = levelOf(value);
  return { value, label: level?.id ?? null, labelIt: level?.it ?? null, dominant };
}
