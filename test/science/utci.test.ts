import { describe, expect, it } from 'vitest';
import {
  UTCI_COEFFICIENTS,
  UTCI_EXPONENTS,
  utci,
  utciCategory,
  utciCategoryLabelIt,
  utciFromVapourPressure,
} from '../../science/index.js';

const base = { temperature: 25, meanRadiantTemperature: 25, windSpeed10m: 1, relativeHumidity: 50 };

describe('utci (Bröde et al. 2012)', () => {
  it('has 210 coefficients over the monomials of total degree ≤ 6, in the program’s order', () => {
    expect(UTCI_COEFFICIENTS).toHaveLength(210);
    expect(UTCI_EXPONENTS).toHaveLength(210);
    expect(new Set(UTCI_EXPONENTS.map((e) => e.join(','))).size).toBe(210);
    expect(UTCI_EXPONENTS.every((e) => e.reduce((a, b) => a + b, 0) <= 6)).toBe(true);
    // Spot checks against UTCI_a002: constant term, the Ta term, the Pa^6 term.
    expect(UTCI_COEFFICIENTS[0]).toBe(6.07562052e-1);
    expect(UTCI_COEFFICIENTS[1]).toBe(-2.27712343e-2);
    expect(UTCI_COEFFICIENTS[209]).toBe(1.48348065e-3);
    expect(UTCI_EXPONENTS[209]).toEqual([0, 0, 0, 6]);
  });

  it('evaluates the same sum as the plain monomial expansion (independent of the Horner ordering)', () => {
    const points = [
      [25, 25, 1, 15.85],
      [-20, 10, 12, 1.0],
      [40, 100, 0.5, 30],
      [5, -20, 16, 8],
    ] as const;
    for (const [ta, tmrt, va, e] of points) {
      let direct = ta;
      UTCI_EXPONENTS.forEach(([a, b, c, dd], k) => {
        direct += UTCI_COEFFICIENTS[k]! * ta ** a * va ** b * (tmrt - ta) ** c * (e / 10) ** dd;
      });
      expect(utciFromVapourPressure(ta, tmrt, va, e)).toBeCloseTo(direct, 9);
    }
  });

  it('returns NaN outside each validity bound and a value just inside', () => {
    expect(utci({ ...base, temperature: 50.1, meanRadiantTemperature: 50.1, relativeHumidity: 10 })).toBeNaN();
    expect(utci({ ...base, temperature: -50.1, meanRadiantTemperature: -50.1 })).toBeNaN();
    expect(utci({ ...base, meanRadiantTemperature: 25 + 70.1 })).toBeNaN();
    expect(utci({ ...base, meanRadiantTemperature: 25 - 30.1 })).toBeNaN();
    expect(utci({ ...base, windSpeed10m: 17.1 })).toBeNaN();
    expect(utciFromVapourPressure(30, 30, 1, 50.1)).toBeNaN();
    expect(utci({ ...base, relativeHumidity: 101 })).toBeNaN();
    expect(utci({ ...base, relativeHumidity: NaN })).toBeNaN();
    expect(Number.isFinite(utci({ ...base, meanRadiantTemperature: 95 }))).toBe(true);
    expect(Number.isFinite(utciFromVapourPressure(30, 30, 1, 50))).toBe(true);
  });

  it('raises calm wind to the 0.5 m/s reference', () => {
    expect(utci({ ...base, windSpeed10m: 0 })).toBe(utci({ ...base, windSpeed10m: 0.5 }));
  });

  it('warms with radiation and cools with wind', () => {
    expect(utci({ ...base, meanRadiantTemperature: 50 })).toBeGreaterThan(utci(base));
    expect(utci({ ...base, windSpeed10m: 8 })).toBeLessThan(utci(base));
  });

  it('categorises with (lower, upper] intervals', () => {
    expect(utciCategory(26)).toBe('no_thermal_stress');
    expect(utciCategory(26.0001)).toBe('moderate_heat_stress');
    expect(utciCategory(46)).toBe('very_strong_heat_stress');
    expect(utciCategory(46.01)).toBe('extreme_heat_stress');
    expect(utciCategory(9)).toBe('slight_cold_stress');
    expect(utciCategory(0)).toBe('moderate_cold_stress');
    expect(utciCategory(-40)).toBe('extreme_cold_stress');
    expect(utciCategory(-39.99)).toBe('very_strong_cold_stress');
    expect(utciCategory(NaN)).toBeNull();
    expect(utciCategoryLabelIt('no_thermal_stress')).toBe('nessuno stress termico');
  });
});
