import { describe, expect, it } from 'vitest';
import {
  clearSkyIndexFromShortwave,
  cloudModificationFromClearSkyIndex,
  cloudModificationFromCloudAlbedo,
  clearSkyShortwaveHaurwitz,
  cloudModificationFromCloudCover,
  cloudModificationFromShortwave,
  uvCategory,
  uvCategoryLabelIt,
  uvIndex,
  uvIndexClearSky,
  uvIndexFromCosZenith,
} from '../../science/index.js';

describe('uv index (Madronich 2007)', () => {
  it('is 12.5 for an overhead Sun and 300 DU, and scales with ozone^-1.23', () => {
    expect(uvIndexFromCosZenith(1, 300)).toBe(12.5);
    expect(uvIndexFromCosZenith(1, 600)).toBeCloseTo(12.5 * 2 ** -1.23, 12);
  });

  it('is 0 with the Sun down and NaN without ozone', () => {
    expect(uvIndexFromCosZenith(-0.2, 300)).toBe(0);
    expect(uvIndexClearSky({ time: new Date('2024-07-15T23:00:00Z'), lat: 41.9, lon: 12.5, totalOzone: 320 })).toBe(0);
    expect(uvIndexFromCosZenith(0.5, NaN)).toBeNaN();
  });

  it('applies a cloud modification factor', () => {
    expect(uvIndex(8, 0.5)).toBe(4);
    expect(uvIndex(8, -0.1)).toBe(0);
    expect(cloudModificationFromCloudCover(0.19)).toBe(1);
    expect(cloudModificationFromCloudCover(0.2)).toBe(0.89);
    expect(cloudModificationFromCloudCover(0.7)).toBe(0.73);
    expect(cloudModificationFromCloudCover(0.9)).toBe(0.31);
  });

  it('derives the factor from NWP shortwave against the Haurwitz clear sky', () => {
    const cs = clearSkyShortwaveHaurwitz(0.9);
    expect(cs).toBeCloseTo(1098 * 0.9 * Math.exp(-0.059 / 0.9), 9);
    expect(cloudModificationFromShortwave(cs / 2, 0.9)).toBeCloseTo(0.5, 12);
    expect(cloudModificationFromShortwave(cs * 1.3, 0.9)).toBe(1);
    expect(cloudModificationFromShortwave(10, 0.01)).toBe(1);
  });

  it('categorises the rounded value (WHO 2002)', () => {
    expect(uvCategory(2.49)).toBe('low');
    expect(uvCategory(2.5)).toBe('moderate');
    expect(uvCategory(7.4)).toBe('high');
    expect(uvCategory(10.49)).toBe('very_high');
    expect(uvCategory(10.5)).toBe('extreme');
    expect(uvCategory(NaN)).toBeNull();
    expect(uvCategoryLabelIt('very_high')).toBe('molto alto');
  });
});

describe('cloudModificationFromCloudAlbedo (Heliosat, Hammer et al. 2003)', () => {
  it('follows the piecewise clear-sky index, clipped to 0..1 (values worked by hand)', () => {
    expect(cloudModificationFromCloudAlbedo(0)).toBe(1);
    expect(cloudModificationFromCloudAlbedo(0.5)).toBeCloseTo(0.5, 12);
    expect(cloudModificationFromCloudAlbedo(0.8)).toBeCloseTo(0.2, 12);
    // 2.0667 − 3.6667 × 0.9 + 1.6667 × 0.81 = 0.116697
    expect(cloudModificationFromCloudAlbedo(0.9)).toBeCloseTo(0.116697, 6);
    expect(cloudModificationFromCloudAlbedo(1.2)).toBe(0.05);
    // k = 1.2 below −0.2 (brighter than clear sky), clipped to 1 as a modification factor
    expect(cloudModificationFromCloudAlbedo(-0.3)).toBe(1);
    expect(cloudModificationFromCloudAlbedo(NaN)).toBeNaN();
  });
});

describe('clearSkyIndexFromShortwave (LSA SAF DSSF / Haurwitz 1945)', () => {
  it('is the irradiance over the Haurwitz clear sky, unclipped; missing with the Sun below 5°', () => {
    // cos z = 0.5: GHI_clear = 1098 · 0.5 · exp(−0.059 / 0.5) = 487.894 W/m² (worked by hand)
    expect(clearSkyIndexFromShortwave(292.7364, 0.5)).toBeCloseTo(0.6, 5);
    expect(clearSkyIndexFromShortwave(487.894, 0.5)).toBeCloseTo(1, 5);
    // broken cloud can lift k above 1: kept, clipped only as a modification factor
    expect(clearSkyIndexFromShortwave(560, 0.5)).toBeCloseTo(1.1478, 4);
    expect(cloudModificationFromClearSkyIndex(1.1478)).toBe(1);
    expect(cloudModificationFromClearSkyIndex(0.42)).toBe(0.42);
    expect(clearSkyIndexFromShortwave(100, Math.sin((4.9 * Math.PI) / 180))).toBeNaN();
    expect(clearSkyIndexFromShortwave(NaN, 0.5)).toBeNaN();
  });
});
