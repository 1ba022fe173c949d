/**
 * Heat-stress risk from WBGT.
 *
 * Default scheme: the ISO 7243:2017 / NIOSH (2016) reference values with the
 * risk-ratio classes of the Italian Worklimate service (CNR-IBE, INAIL):
 * ratio = WBGT / limit, limit = RAL (unacclimatised, 59.9 − 14.1 log10 M) or
 * REL (acclimatised, 56.7 − 11.5 log10 M), M metabolic rate in W;
 * ratio ≤ 0.8 not_significant, < 1.0 low, < 1.2 moderate, ≥ 1.2 high
 * (CNR-IBE biometeo.js heat_risk_level()).
 */

/** Risk levels, lowest first, with the Italian labels of Worklimate. */
export const WBGT_RISK_LEVELS = [
  { id: 'not_significant', it: 'non significativo' },
  { id: 'low', it: 'basso' },
  { id: 'moderate', it: 'moderato' },
  { id: 'high', it: 'alto' },
] as const;

/** A WBGT risk-level identifier. */
export type WbgtRiskLevel = (typeof WBGT_RISK_LEVELS)[number]['id'];

/** Options of {@link wbgtRisk}. */
export interface WbgtRiskOptions {
  /** Metabolic rate, W (default 300: moderate work / brisk walking, ISO 8996 class 2). */
  metabolicRateW?: number;
  /** Acclimatised worker (REL) instead of the general, unacclimatised public (RAL, default). */
  acclimatized?: boolean;
}

/**
 * NIOSH recommended limits, °C WBGT (NIOSH 2016; ISO 7243:2017 Annex A).
 *
 * @param metabolicRateW metabolic rate, W
 * @param acclimatized REL (true) or RAL (false)
 */
export function wbgtLimit(metabolicRateW: number, acclimatized: boolean): number {
  const lg = Math.log10(metabolicRateW);
  return acclimatized ? 56.7 - 11.5 * lg : 59.9 - 14.1 * lg;
}

/**
 * Risk level for a WBGT value (see module comment).
 *
 * @param wbgtC WBGT, °C
 * @returns level identifier, or null for NaN
 */
export function wbgtRisk(wbgtC: number, options: WbgtRiskOptions = {}): WbgtRiskLevel | null {
  if (Number.isNaN(wbgtC)) return null;
  const limit = wbgtLimit(options.metabolicRateW ?? 300, options.acclimatized ?? false);
  // ratio = WBGT/limit, compared as WBGT against multiples of the limit (exact at the edges).
  // Boundaries as published by Worklimate: 0.8 belongs to the lower class, 1.0 and 1.2 to the upper.
  if (wbgtC <= 0.8 * limit) return 'not_significant';
  if (wbgtC < limit) return 'low';
  if (wbgtC < 1.2 * limit) return 'moderate';
  return 'high';
}

/** Italian label of a WBGT risk level. */
export function wbgtRiskLabelIt(id: WbgtRiskLevel): string {
  return WBGT_RISK_LEVELS.find((l) => l.id === id)!.it;
}

/** US Army/Air Force heat categories (TB MED 507), by WBGT in °F. */
export type HeatCategory = 'none' | 'cat1_white' | 'cat2_green' | 'cat3_yellow' | 'cat4_red' | 'cat5_black';

/**
 * US military heat category: 78–81.9 °F white, 82–84.9 green, 85–87.9
 * yellow, 88–89.9 red, ≥ 90 black (TB MED 507 / AETCI 48-101).
 *
 * @param wbgtC WBGT, °C
 */
export function usMilitaryHeatCategory(wbgtC: number): HeatCategory {
  const f = (wbgtC * 9) / 5 + 32;
  if (f >= 90) return 'cat5_black';
  if (f >= 88) return 'cat4_red';
  if (f >= 85) return 'cat3_yellow';
  if (f >= 82) return 'cat2_green';
  if (f >= 78) return 'cat1_white';
  return 'none';
}
