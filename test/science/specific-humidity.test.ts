/** science/specific-humidity.ts against hand-computed values of the cited formulas. */
import { describe, expect, it } from 'vitest';
import { relativeHumidityFromSpecific, saturationVapourPressure, surfacePressureFromMsl, vapourPressureFromSpecificHumidity } from '../../science/index.js';

describe('specific humidity', () => {
  it('e = q p / (ε + (1 − ε) q): q = 0.01 kg/kg at 1000 hPa is 15.98 hPa', () => {
    // 0.01 × 1000 / (0.621981 + 0.378019 × 0.01) = 10 / 0.62576119
    expect(vapourPressureFromSpecificHumidity(0.01, 1000)).toBeCloseTo(15.9805, 3);
    expect(vapourPressureFromSpecificHumidity(0, 1000)).toBe(0);
  });
  it('surface pressure: 0 m keeps MSL; 1000 m at 15 °C is MSL · exp(−9806.65 / (287.05 · 291.4))', () => {
    expect(surfacePressureFromMsl(1013.25, 0, 15)).toBe(1013.25);
    expect(surfacePressureFromMsl(1013.25, 1000, 15)).toBeCloseTo(1013.25 * Math.exp(-9806.65 / (287.05 * 291.4)), 6);
    expect(surfacePressureFromMsl(1013.25, 1000, 15)).toBeCloseTo(901.16, 2);
  });
  it('RH = 100 e / es(T), capped at 100', () => {
    const e = vapourPressureFromSpecificHumidity(0.008, 950);
    expect(relativeHumidityFromSpecific(0.008, 20, 950)).toBeCloseTo((100 * e) / saturationVapourPressure(20), 10);
    expect(relativeHumidityFromSpecific(0.05, 0, 1000)).toBe(100);
  });
});
