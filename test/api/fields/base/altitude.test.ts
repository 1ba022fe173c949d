import { describe, expect, it } from 'vitest';
import { altitudeCorrection, correctTemperature } from '../../../../api/fields/base/altitude.js';

describe('altitude correction (0.0065 K/m)', () => {
  it('corrects from the grid elevation to alt: 412 m → 380 m warms by 0.208 K', () => {
    const c = altitudeCorrection(412, 380, 1000);
    expect(c).toMatchObject({ applied: true, gridElevationM: 412, pointElevationM: 380, source: 'alt' });
    // 0.0065 × 32 = 0.208 (hand computation)
    expect(correctTemperature(15, c)).toBeCloseTo(15.208, 9);
  });

  it('uses the DEM when alt is absent: a summit 1500 m above the grid is 9.75 K colder', () => {
    const c = altitudeCorrection(500, undefined, 2000);
    expect(c).toMatchObject({ applied: true, source: 'dem', pointElevationM: 2000 });
    expect(correctTemperature(10, c)).toBeCloseTo(0.25, 9);
  });

  it('alt wins over the DEM, alt = 0 included', () => {
    expect(altitudeCorrection(100, 0, 50)).toMatchObject({ applied: true, source: 'alt', pointElevationM: 0 });
  });

  it('does nothing without a grid elevation or a point elevation', () => {
    expect(altitudeCorrection(null, 300, 200)).toEqual({ applied: false, reason: 'no_grid_elevation' });
    expect(altitudeCorrection(NaN, 300, 200)).toEqual({ applied: false, reason: 'no_grid_elevation' });
    expect(altitudeCorrection(300, undefined, null)).toEqual({ applied: false, reason: 'no_point_elevation' });
    const none = altitudeCorrection(300, undefined, null);
    expect(correctTemperature(12.3, none)).toBe(12.3);
    expect(correctTemperature(null, none)).toBeNull();
  });
});
