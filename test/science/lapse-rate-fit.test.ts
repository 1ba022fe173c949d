/**
 * The least-squares fit of science/lapse-rate.ts on cells small enough to
 * solve by hand: two groups of five cells at 0 m and 1000 m. With group means
 * T̄₀ and T̄₁ the slope is (T̄₁ − T̄₀)/1000 m, and R² is the between-group sum
 * of squares over the total (R² = SS_reg / SS_tot, any regression textbook,
 * e.g. Wilks 2011, Statistical Methods in the Atmospheric Sciences, §7.2.4).
 * Each case sits on one edge of the fit's rules: exactly 10 cells, an
 * elevation spread of exactly 50 m, an R² of exactly 0.25.
 */
import { describe, expect, it } from 'vitest';
import { fitTemperatureGradient } from '../../science/lapse-rate.js';

/** Five cells at 0 m with temperatures t0 + d, five at 1000 m with t1 + d. */
function groups(t0: number, t1: number, d0: number[], d1: number[]): { t: number[]; z: number[] } {
  return { t: [...d0.map((d) => t0 + d), ...d1.map((d) => t1 + d)], z: [0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000] };
}

describe('fitTemperatureGradient by hand', () => {
  it('fits the slope and R² of two groups of cells, with exactly the minimum of 10 cells', () => {
    // Means 15 and 8.5 °C: −6.5 K/km. SS_reg = 10 · 3.25² = 105.625; SS_tot = 105.625 + 2 · (1 + 1 + 1 + 1) = 113.625.
    const { t, z } = groups(15, 8.5, [1, -1, 1, -1, 0], [1, -1, 1, -1, 0]);
    const f = fitTemperatureGradient(t, z);
    expect(f.fitted).toBe(true);
    expect(f.cells).toBe(10);
    expect(f.gradientKPerKm).toBeCloseTo(-6.5, 10);
    expect(f.r2).toBeCloseTo(105.625 / 113.625, 12);
    expect(f.reason).toBeUndefined();
  });

  it('skips a cell with no temperature and one with no elevation, and counts neither', () => {
    const { t, z } = groups(15, 8.5, [1, -1, 1, -1, 0], [1, -1, 1, -1, 0]);
    const f = fitTemperatureGradient([...t, NaN, 40], [...z, 500, NaN]);
    expect(f).toMatchObject({ fitted: true, cells: 10 });
    expect(f.gradientKPerKm).toBeCloseTo(-6.5, 10);
    expect(f.r2).toBeCloseTo(105.625 / 113.625, 12);
  });

  it('falls back with 9 cells, and the reason says so', () => {
    const { t, z } = groups(15, 8.5, [1, -1, 1, -1, 0], [1, -1, 1, -1, 0]);
    const f = fitTemperatureGradient(t.slice(1), z.slice(1));
    expect(f).toMatchObject({ fitted: false, gradientKPerKm: -6.5, cells: 9, reason: '9 valid cells, fewer than 10' });
  });

  it('fits at an elevation spread of exactly 50 m (cells at 0 and 100 m: σ = 50 m)', () => {
    const z = [0, 100, 0, 100, 0, 100, 0, 100, 0, 100];
    const f = fitTemperatureGradient(z.map((zz) => 20 - zz / 100), z);
    expect(f.fitted).toBe(true);
    expect(f.gradientKPerKm).toBeCloseTo(-10, 10);
  });

  it('fits at an R² of exactly 0.25 and falls back below it, saying why', () => {
    // Means 11 and 9 °C (SS_reg = 10 · 1² = 10), within-group squares 10 and 20: SS_tot = 40, R² = 0.25; −2 K/km.
    const edge = groups(11, 9, [2, -2, 1, -1, 0], [3, -3, 1, -1, 0]);
    const f = fitTemperatureGradient(edge.t, edge.z);
    expect(f.r2).toBe(0.25);
    expect(f).toMatchObject({ fitted: true, gradientKPerKm: -2 });
    // More scatter at 1000 m: SS_tot = 10 + 10 + 26 = 46, R² = 10/46.
    const below = groups(11, 9, [2, -2, 1, -1, 0], [3, -3, 2, -2, 0]);
    const g = fitTemperatureGradient(below.t, below.z);
    expect(g.r2).toBeCloseTo(10 / 46, 12);
    expect(g).toMatchObject({ fitted: false, gradientKPerKm: -6.5, reason: 'R² 0.22, under 0.25' });
  });

  it('falls back when the temperature does not vary at all (no R² to speak of)', () => {
    const f = fitTemperatureGradient(Array(10).fill(12), [0, 0, 0, 0, 0, 1000, 1000, 1000, 1000, 1000]);
    expect(f).toMatchObject({ fitted: false, gradientKPerKm: -6.5, r2: 0 });
  });

  it('says by how much it bounded a gradient beyond +20 K/km, and says nothing within the bounds', () => {
    // Means −10 and +15 °C: +25 K/km, bounded to +20.
    const f = fitTemperatureGradient(...Object.values(groups(-10, 15, [1, -1, 0, 0, 0], [1, -1, 0, 0, 0])) as [number[], number[]]);
    expect(f).toMatchObject({ fitted: true, gradientKPerKm: 20, reason: 'bounded from 25.0 K/km' });
  });
});
