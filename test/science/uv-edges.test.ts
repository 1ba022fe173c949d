/**
 * The UV and cloud-modification functions where their rules switch: the Sun
 * on the horizon and at 5° (sin 5° = 0.0871557), ozone of 0 DU, missing
 * inputs, and the Heliosat relation at CAL 0.1 and 1.1. Expected values by
 * hand from the formulas of science/uv.ts's references:
 *   Haurwitz (1945): GHI_cs(cos z) = 1098 cos z exp(−0.059/cos z);
 *     at cos z 0.5: 549 exp(−0.118) = 487.894 W/m²; at sin 5°: 48.62987 W/m².
 *   Hammer et al. (2003): k = 1 − CAL (−0.2 ≤ CAL ≤ 0.8): 0.9 at 0.1;
 *     k = 2.0667 − 3.6667 CAL + 1.6667 CAL² (0.8 < CAL ≤ 1.1): 0.050037 at 1.1.
 */
import { describe, expect, it } from 'vitest';
import {
  clearSkyIndexFromShortwave,
  clearSkyShortwaveHaurwitz,
  cloudModificationFromClearSkyIndex,
  cloudModificationFromCloudAlbedo,
  cloudModificationFromCloudCover,
  cloudModificationFromShortwave,
  uvIndexFromCosZenith,
} from '../../science/uv.js';

const SIN_5 = Math.sin(5 * (Math.PI / 180));

describe('UV index and cloud modification at their edges', () => {
  it('gives UVI 0 with the Sun on the horizon whatever the ozone, and NaN for ozone of 0 DU', () => {
    expect(uvIndexFromCosZenith(0, NaN)).toBe(0);
    expect(uvIndexFromCosZenith(0, 0)).toBe(0);
    // (0/300)^−1.23 is infinite: no ozone column is no input, not an infinite index.
    expect(uvIndexFromCosZenith(0.5, 0)).toBeNaN();
  });

  it('has a Haurwitz clear sky of 0 with the Sun down (−0 included) and 487.894 W/m² at cos z 0.5', () => {
    expect(clearSkyShortwaveHaurwitz(0.5)).toBeCloseTo(487.894, 3);
    expect(clearSkyShortwaveHaurwitz(-0.5)).toBe(0);
    expect(clearSkyShortwaveHaurwitz(-0)).toBe(0);
  });

  it('takes the shortwave ratio from 5° of elevation up, 1 below, NaN for a missing input', () => {
    expect(cloudModificationFromShortwave(30, SIN_5)).toBeCloseTo(30 / 48.62987, 5);
    expect(cloudModificationFromShortwave(10, 0.05)).toBe(1);
    expect(cloudModificationFromShortwave(500, NaN)).toBeNaN();
    expect(cloudModificationFromShortwave(NaN, 0.5)).toBeNaN();
    expect(clearSkyIndexFromShortwave(50, SIN_5)).toBeCloseTo(50 / 48.62987, 5);
    expect(clearSkyIndexFromShortwave(50, 0.05)).toBeNaN();
  });

  it('follows the Heliosat relation on both sides of CAL 0.2 and at 1.1', () => {
    expect(cloudModificationFromCloudAlbedo(0.1)).toBeCloseTo(0.9, 12);
    expect(cloudModificationFromCloudAlbedo(1.1)).toBeCloseTo(0.050037, 6);
    expect(cloudModificationFromCloudAlbedo(1.2)).toBe(0.05);
  });

  it('is NaN for a missing cloud cover', () => {
    expect(cloudModificationFromCloudCover(NaN)).toBeNaN();
    expect(cloudModificationFromClearSkyIndex(NaN)).toBeNaN();
  });
});
