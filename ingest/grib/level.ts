/**
 * A GRIB message's vertical level as a SourceField level. ecCodes' `level`
 * key is an integer in the level type's unit: fine for heights (2, 10 m)
 * and pressures, but a soil depth in metres loses the layer (ICON's W_SO
 * layers 0–1, 1–3 and 3–9 cm all read `level` 0). For depths below land
 * (GRIB2 code table 4.5 type 106, metres) the level comes from the fixed
 * surfaces' scaled values instead, in cm: value = scaledValue × 10^−scaleFactor m.
 */
import type { SourceField } from '../field.js';
import type { GribMeta } from './eccodes-bridge.js';

/** Code table 4.5: depth below land surface (m). */
const DEPTH_BELOW_LAND = 106;

function surfaceCm(type: number | null, factor: number | null, scaled: number | null): number | undefined {
  if (type !== DEPTH_BELOW_LAND || factor === null || scaled === null) return undefined;
  // Rounded to 1e-6 cm: 5 × 10^−3 m is 0.5 cm, not 0.49999999999999994.
  return Math.round(scaled * 10 ** (2 - factor) * 1e6) / 1e6;
}

export function gribLevel(meta: GribMeta): SourceField['level'] {
  if (meta.typeOfLevel === null || meta.level === null) return undefined;
  const top = surfaceCm(meta.typeOfFirstFixedSurface, meta.scaleFactorOfFirstFixedSurface, meta.scaledValueOfFirstFixedSurface);
  if (top === undefined) return { type: meta.typeOfLevel, value: meta.level };
  const bottom = surfaceCm(meta.typeOfSecondFixedSurface, meta.scaleFactorOfSecondFixedSurface, meta.scaledValueOfSecondFixedSurface);
  return { type: meta.typeOfLevel, value: top, ...(bottom !== undefined ? { bottomCm: bottom } : {}) };
}

/**
 * `discipline.category.number` of a GRIB2 parameter (WMO code table 4.2),
 * for parameters ecCodes' tables do not name under the message's centre
 * (ICON-2I's ASWDIR_S and W_SO under centre 80).
 */
export function gribParameter(meta: GribMeta): string | undefined {
  if (meta.edition !== 2 || meta.discipline === null || meta.parameterCategory === null || meta.parameterNumber === null) return undefined;
  return `${meta.discipline}.${meta.parameterCategory}.${meta.parameterNumber}`;
}
