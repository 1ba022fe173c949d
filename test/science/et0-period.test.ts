/**
 * Extraterrestrial radiation of a period shorter than a day and the Sun's
 * elevation at its middle (`extraterrestrialRadiationPeriod`), against the
 * equations computed by hand in Python (math module, float64), at Milan
 * (45.46 N, 9.19 E), UTC clock (Lz = 0, so Lz − Lm is the east longitude):
 *
 *   J = day of year of the midpoint; t = its UTC hours + minutes/60 + seconds/3600
 *   dr = 1 + 0.033 cos(2πJ/365); δ = 0.409 sin(2πJ/365 − 1.39)           (FAO-56 eqs. 23, 24)
 *   b = 2π(J − 81)/364; Sc = 0.1645 sin 2b − 0.1255 cos b − 0.025 sin b   (eqs. 32, 33)
 *   ω = π/12 (t + lon/15 + Sc − 12); ω1,2 = ω ∓ π t1/24 clamped to ±ωs,
 *   ωs = acos(−tan φ tan δ)                                                (eqs. 31, 29, 25)
 *   Ra = (12·60/π) 0.0820 dr [(ω2 − ω1) sin φ sin δ + cos φ cos δ (sin ω2 − sin ω1)]  (eq. 28)
 *   β = asin(sin φ sin δ + cos φ cos δ cos ω)                              (ASCE-EWRI 2005, eq. 62)
 *
 * (FAO-56 writes 0.06667 for 1/15.) The cases: a period whose midpoint has
 * seconds (10:30:30), a 3-hour period (its half-width π t1/24 differs from
 * a 1-hour one's), a half hour across sunrise (ω1 clamped to −ωs, the Sun
 * still below the horizon at the midpoint: Ra > 0, β < 0), and a night hour.
 */
import { describe, expect, it } from 'vitest';
import { extraterrestrialRadiationPeriod } from '../../science/et0-radiation.js';

// [period start (UTC), hours, Ra MJ m⁻², β rad]
const CASES = [
  ['2023-06-21T10:00:30Z', 1, 4.3189559797932535, 1.1410572077608563],
  ['2023-06-21T08:00:00Z', 3, 11.90498001796824, 1.0122594147412938],
  ['2023-12-21T06:50:20Z', 0.5, 0.019526255286795486, -0.0035486754743264464],
  ['2023-12-21T07:00:20Z', 0.5, 0.05836007661228689, 0.021464123280239403],
  ['2023-03-01T22:00:00Z', 1, 0, -0.8741142232874338],
] as const;

describe('extraterrestrial radiation of a period (FAO-56 eq. 28) and the Sun at its middle', () => {
  for (const [start, hours, ra, beta] of CASES) {
    it(`${start}, ${hours} h: Ra ${ra.toFixed(4)} MJ/m², β ${beta.toFixed(4)} rad`, () => {
      const r = extraterrestrialRadiationPeriod(new Date(start), hours, 45.46, 9.19);
      expect(Math.abs(r.raMJ - ra)).toBeLessThan(1e-9);
      expect(Math.abs(r.sunElevationRad - beta)).toBeLessThan(1e-9);
    });
  }
});
