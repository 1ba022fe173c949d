/**
 * GRIB2 soil levels from the fixed surfaces (code table 4.5 type 106, metres
 * = scaledValue × 10^−scaleFactor): ecCodes' integer `level` reads 0 for
 * each of ICON's layers 0–1, 1–3 and 3–9 cm; the scaled values tell them
 * apart. Hand-written keys as ICON encodes W_SO (scale factor 2) and T_SO.
 */
import { expect, it } from 'vitest';
import { gribLevel, gribParameter } from '../../../ingest/grib/level.js';
import { meta } from './meta-fixture.js';

const layer = (top: number, bottom: number, factor = 2) => meta({
  edition: 2, typeOfLevel: 'depthBelowLandLayer', level: 0,
  typeOfFirstFixedSurface: 106, scaleFactorOfFirstFixedSurface: factor, scaledValueOfFirstFixedSurface: top,
  typeOfSecondFixedSurface: 106, scaleFactorOfSecondFixedSurface: factor, scaledValueOfSecondFixedSurface: bottom,
});

it('a W_SO layer keeps its top and bottom in cm', () => {
  expect(gribLevel(layer(1, 3))).toEqual({ type: 'depthBelowLandLayer', value: 1, bottomCm: 3 });
  expect(gribLevel(layer(81, 243))).toEqual({ type: 'depthBelowLandLayer', value: 81, bottomCm: 243 });
  // The same layer in metres with scale factor 3 (0.010–0.030 m).
  expect(gribLevel(layer(10, 30, 3))).toEqual({ type: 'depthBelowLandLayer', value: 1, bottomCm: 3 });
});

it('a single depth (T_SO at 0.5 cm = 5 × 10⁻³ m) is exact, without a bottom', () => {
  const m = meta({ edition: 2, typeOfLevel: 'depthBelowLand', level: 0, typeOfFirstFixedSurface: 106, scaleFactorOfFirstFixedSurface: 3, scaledValueOfFirstFixedSurface: 5, typeOfSecondFixedSurface: 255 });
  expect(gribLevel(m)).toEqual({ type: 'depthBelowLand', value: 0.5 });
});

it('other levels keep ecCodes level (2 m, GRIB1 soil layers already in cm)', () => {
  expect(gribLevel(meta({ typeOfLevel: 'heightAboveGround', level: 2, typeOfFirstFixedSurface: 103, scaleFactorOfFirstFixedSurface: 0, scaledValueOfFirstFixedSurface: 2 }))).toEqual({ type: 'heightAboveGround', value: 2 });
  expect(gribLevel(meta({ edition: 1, typeOfLevel: 'depthBelowLandLayer', level: 7 }))).toEqual({ type: 'depthBelowLandLayer', value: 7 });
  expect(gribLevel(meta({ typeOfLevel: null, level: null }))).toBeUndefined();
});

it('the GRIB2 parameter code, GRIB2 only', () => {
  expect(gribParameter(meta({ edition: 2, discipline: 0, parameterCategory: 4, parameterNumber: 198 }))).toBe('0.4.198');
  expect(gribParameter(meta({ edition: 1, discipline: 0, parameterCategory: 4, parameterNumber: 198 }))).toBeUndefined();
});
