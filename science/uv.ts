/**
 * UV index: clear-sky value from the Sun's height and the ozone column
 * (Madronich 2007), cloud modification, and the WHO exposure categories.
 */
import { solarPosition } from '../geo/solar.js';

const DEG = Math.PI / 180;

/**
 * Clear-sky UV index from the cosine of the solar zenith angle and total ozone.
 *
 * UVI = 12.5 · μ0^2.42 · (Ω / 300 DU)^−1.23,  0 when μ0 ≤ 0
 *
 * Madronich S. (2007) Analytic formula for the clear-sky UV index. Photochem.
 * Photobiol. 83(6):1537-1538. Cloud-free, unpolluted, low surface albedo, sea
 * level; within ~10 % of radiative-transfer results for SZA < 60°, less
 * accurate towards the horizon.
 *
 * @param cosZenith cosine of the geometric solar zenith angle
 * @param totalOzoneDu total ozone column, Dobson units (typically 250..450)
 * @returns UV index (dimensionless, not rounded)
 */
export function uvIndexFromCosZenith(cosZenith: number, totalOzoneDu: number): number {
  if (!(cosZenith > 0)) return Number.isNaN(cosZenith) ? NaN : 0;
  if (!(totalOzoneDu > 0)) return NaN;
  return 12.5 * cosZenith ** 2.42 * (totalOzoneDu / 300) ** -1.23;
}

/**
 * Clear-sky UV index at a place and time (geometric zenith from
 * geo/solar.ts, then {@link uvIndexFromCosZenith}).
 *
 * @param input.time instant (UTC)
 * @param input.lat latitude, degrees north
 * @param input.lon longitude, degrees east
 * @param input.totalOzone total ozone column, DU
 */
export function uvIndexClearSky(input: { time: Date; lat: number; lon: number; totalOzone: number }): number {
  const { zenith } = solarPosition(input.time, input.lat, input.lon);
  return uvIndexFromCosZenith(Math.cos(zenith * DEG), input.totalOzone);
}

/**
 * All-sky UV index: UVI = UVI_clear · CMF.
 *
 * @param clearSky clear-sky UV index
 * @param cloudModification cloud modification factor (0..1; values slightly
 *   above 1 from broken-cloud enhancement are kept, negatives clamp to 0)
 */
export function uvIndex(clearSky: number, cloudModification: number): number {
  return clearSky * Math.max(0, cloudModification);
}

/**
 * Cloud modification factor from cloud fraction, US EPA / NWS table:
 * < 0.2 clear 1.00; 0.2–0.7 scattered 0.89; 0.7–0.9 broken 0.73; ≥ 0.9
 * overcast 0.31 (intervals [lower, upper)). Coarse; prefer
 * {@link cloudModificationFromShortwave} when radiation is available.
 *
 * @param cloudFraction total cloud cover, 0..1
 */
export function cloudModificationFromCloudCover(cloudFraction: number): number {
  if (Number.isNaN(cloudFraction)) return NaN;
  if (cloudFraction < 0.2) return 1.0;
  if (cloudFraction < 0.7) return 0.89;
  if (cloudFraction < 0.9) return 0.73;
  return 0.31;
}

/**
 * Clear-sky global horizontal irradiance, Haurwitz (1945) as in pvlib:
 * GHI_cs = 1098 · cos z · exp(−0.059 / cos z) W/m², 0 with the Sun down.
 *
 * @param cosZenith cosine of the solar zenith angle
 * @returns W/m²
 */
export function clearSkyShortwaveHaurwitz(cosZenith: number): number {
  if (!(cosZenith > 0)) return 0;
  return 1098 * cosZenith * Math.exp(-0.059 / cosZenith);
}

/**
 * Cloud modification factor from the NWP's all-sky shortwave radiation:
 * CMF ≈ GHI / GHI_clear (Haurwitz), clipped to 0..1. Applying the shortwave
 * ratio to UV is common practice (Calbó et al. 2005, Rev. Geophys. 43,
 * RG2002); UV is attenuated somewhat less than total shortwave, so this errs
 * low under thick cloud. Returns 1 when the Sun is below 5° (the ratio is
 * noise there and the UV index ~0 anyway).
 *
 * @param shortwaveWm2 all-sky global horizontal irradiance, W/m²
 * @param cosZenith cosine of the solar zenith angle
 */
export function cloudModificationFromShortwave(shortwaveWm2: number, cosZenith: number): number {
  if (Number.isNaN(shortwaveWm2) || Number.isNaN(cosZenith)) return NaN;
  if (cosZenith < Math.sin(5 * DEG)) return 1;
  return Math.min(1, Math.max(0, shortwaveWm2 / clearSkyShortwaveHaurwitz(cosZenith)));
}

/**
 * Clear-sky index k = GHI / GHI_clear from the satellite effective cloud
 * albedo (CAL, dimensionless; CM SAF SARAH), by the Heliosat relation of
 * Hammer et al. (2003, Remote Sens. Environ. 86, 423–432) that SARAH itself
 * uses (Müller et al. 2015, Remote Sens. 7, 8067–8101, eq. 2):
 *   k = 1.2                                   CAL < −0.2
 *   k = 1 − CAL                               −0.2 ≤ CAL ≤ 0.8
 *   k = 2.0667 − 3.6667·CAL + 1.6667·CAL²     0.8 < CAL ≤ 1.1
 *   k = 0.05                                  CAL > 1.1
 * Used as the UV cloud modification factor, clipped to 0..1, the same step
 * as {@link cloudModificationFromShortwave} takes with the NWP's ratio.
 *
 * @param cal effective cloud albedo, dimensionless (0 clear, ~1 overcast)
 */
export function cloudModificationFromCloudAlbedo(cal: number): number {
  if (Number.isNaN(cal)) return NaN;
  let k: number;
  if (cal < -0.2) k = 1.2;
  else if (cal <= 0.8) k = 1 - cal;
  else if (cal <= 1.1) k = 2.0667 - 3.6667 * cal + 1.6667 * cal * cal;
  else k = 0.05;
  return Math.min(1, Math.max(0, k));
}

/**
 * Clear-sky index from a satellite all-sky irradiance (LSA SAF MSG DSSF):
 * k = GHI / GHI_clear with the Haurwitz (1945) clear-sky GHI of
 * {@link clearSkyShortwaveHaurwitz}, the quantity the Heliosat relation gives
 * from SARAH's effective cloud albedo ({@link cloudModificationFromCloudAlbedo})
 * and the NWP path from the model's radiation. Not clipped (broken cloud can
 * lift k above 1); NaN with the Sun below 5°, where the ratio is noise.
 *
 * @param shortwaveWm2 all-sky global horizontal irradiance, W/m²
 * @param cosZenith cosine of the solar zenith angle at the observation
 */
export function clearSkyIndexFromShortwave(shortwaveWm2: number, cosZenith: number): number {
  if (Number.isNaN(shortwaveWm2) || !(cosZenith >= Math.sin(5 * DEG))) return NaN;
  return Math.max(0, shortwaveWm2) / clearSkyShortwaveHaurwitz(cosZenith);
}

/**
 * Cloud modification factor from a clear-sky index k: k clipped to 0..1, the
 * step {@link cloudModificationFromShortwave} and
 * {@link cloudModificationFromCloudAlbedo} take (Calbó et al. 2005).
 *
 * @param clearSkyIndex k = GHI / GHI_clear, dimensionless
 */
export function cloudModificationFromClearSkyIndex(clearSkyIndex: number): number {
  if (Number.isNaN(clearSkyIndex)) return NaN;
  return Math.min(1, Math.max(0, clearSkyIndex));
}

/** WHO UV index categories (Global Solar UV Index: A Practical Guide, 2002). */
export const UV_CATEGORIES = [
  { id: 'low', maxRounded: 2, it: 'basso' },
  { id: 'moderate', maxRounded: 5, it: 'moderato' },
  { id: 'high', maxRounded: 7, it: 'alto' },
  { id: 'very_high', maxRounded: 10, it: 'molto alto' },
  { id: 'extreme', maxRounded: Infinity, it: 'estremo' },
] as const;

/** A UV category identifier. */
export type UvCategory = (typeof UV_CATEGORIES)[number]['id'];

/**
 * WHO category of a UV index, applied to the value rounded to an integer
 * (0–2 low, 3–5 moderate, 6–7 high, 8–10 very high, 11+ extreme).
 *
 * @returns identifier, or null for NaN
 */
export function uvCategory(uvi: number): UvCategory | null {
  if (Number.isNaN(uvi)) return null;
  const r = Math.round(Math.max(0, uvi));
  return UV_CATEGORIES.find((c) => r <= c.maxRounded)!.id;
}

/** Italian label of a UV category. */
export function uvCategoryLabelIt(id: UvCategory): string {
  return UV_CATEGORIES.find((c) => c.id === id)!.it;
}
