/**
 * 3-hour temperature trend: the temperature now minus the temperature three
 * hours earlier at the same point, both altitude-corrected the same way (so
 * the correction cancels and the trend is the model's own), with an Italian
 * label for people.
 *
 * Label: "<tendenza>, <segno><valore> °C in 3 ore", decimal comma, the sign
 * always shown (U+2212 MINUS SIGN for falls, as Italian typography and
 * ISO 80000-2 want), e.g. "in aumento, +1,4 °C in 3 ore",
 * "in calo, −2,0 °C in 3 ore", "stabile, +0,3 °C in 3 ore",
 * "stabile, 0,0 °C in 3 ore". The tendency word uses the rounded delta so
 * label and number always agree: |delta| < 0.5 °C reads "stabile" (half a
 * degree in 3 h is below what people notice and within the model's noise).
 */
import { DECIMALS, roundTo } from '../../weather/precision.js';

/** Hours between the two temperatures. */
export const TREND_HOURS = 3;

/** |delta| below this, °C, reads as stable. */
export const STABLE_BELOW_C = 0.5;

export interface TemperatureTrend {
  /** °C change over the last 3 hours, one decimal. */
  delta: number;
  label: string;
}

/**
 * @param nowC temperature now, °C (altitude-corrected)
 * @param pastC temperature 3 h earlier, °C (corrected the same way)
 * @returns the trend, or null when either temperature is unknown
 */
export function temperatureTrend(nowC: number | null, pastC: number | null): TemperatureTrend | null {
  if (nowC === null || pastC === null || !Number.isFinite(nowC) || !Number.isFinite(pastC)) return null;
  const delta = roundTo(nowC - pastC, DECIMALS.trend_delta);
  return { delta, label: trendLabel(delta) };
}

/** Labels made so far, by delta × 10 (whole: the delta carries one decimal): a few hundred at most in practice. */
const labels = new Map<number, string>();
/** Deltas beyond this, °C, are not remembered (bad data must not grow the map). */
const REMEMBER_BELOW_C = 60;

/** The Italian label for an already rounded delta, °C. */
export function trendLabel(deltaC: number): string {
  // Math.round: the key of −2.9 is −29 whatever the float's last bits (the delta was rounded by roundTo).
  const key = Math.round(deltaC * 10);
  let label = labels.get(key);
  if (label === undefined || key / 10 !== deltaC) {
    label = makeLabel(deltaC);
    if (Math.abs(deltaC) < REMEMBER_BELOW_C && key / 10 === deltaC) labels.set(key, label);
  }
  return label;
}

function makeLabel(deltaC: number): string {
  const word = Math.abs(deltaC) < STABLE_BELOW_C ? 'stabile' : deltaC > 0 ? 'in aumento' : 'in calo';
  const magnitude = Math.abs(deltaC).toFixed(DECIMALS.trend_delta).replace('.', ',');
  const sign = deltaC > 0 ? '+' : deltaC < 0 ? '\u2212' : '';
  return `${word}, ${sign}${magnitude} °C in ${TREND_HOURS} ore`;
}
