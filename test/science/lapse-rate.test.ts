/**
 * The fitted temperature gradient (science/lapse-rate.ts) on synthetic model
 * fields whose gradient is known by construction: it comes back within
 * 0.1 K/km, an inversion stays an inversion, and poor fits fall back to the
 * standard −6.5 K/km.
 */
import { describe, expect, it } from 'vitest';
import { fitTemperatureGradient, STANDARD_GRADIENT_K_PER_KM } from '../../science/lapse-rate.js';

/** A 9 × 9 neighbourhood of cells with elevations 100–1,500 m and T = t0 + g·z + noise (seeded). */
function field(gradientKPerKm: number, noiseK: number, t0 = 12): { t: number[]; z: number[] } {
  let s = 12345;
  const rnd = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) - 0.5;
  const t: number[] = [];
  const z: number[] = [];
  for (let j = 0; j < 9; j++) {
    for (let i = 0; i < 9; i++) {
      const zz = 100 + 1400 * (0.5 + 0.5 * Math.sin(i * 0.9 + j * 0.7));
      z.push(zz);
      t.push(t0 + (gradientKPerKm / 1000) * zz + 2 * noiseK * rnd());
    }
  }
  return { t, z };
}

describe('fitTemperatureGradient', () => {
  it('finds a known gradient within 0.1 K/km', () => {
    for (const g of [-5.9, -6.5, -8.2, -3]) {
      const { t, z } = field(g, 0.2);
      const f = fitTemperatureGradient(t, z);
      expect(f.fitted).toBe(true);
      expect(Math.abs(f.gradientKPerKm - g), `gradient ${g}`).toBeLessThan(0.1);
    }
  });

  it('keeps an inversion (warmer higher up on a cold night)', () => {
    const { t, z } = field(7, 0.2, -4);
    const f = fitTemperatureGradient(t, z);
    expect(f.fitted).toBe(true);
    expect(f.gradientKPerKm).toBeGreaterThan(6.9);
    expect(f.gradientKPerKm).toBeLessThan(7.1);
  });

  // The bounds' reasons (science/lapse-rate.ts): dry adiabatic −9.8 K/km and
  // valley inversions of up to +20 K/km on clear winter nights.
  it('keeps gradients inside [−10, +20] K/km, a 15 K/km winter inversion included, and clips beyond', () => {
    for (const [g, want] of [[15, 15], [19.5, 19.5], [24, 20], [-9.5, -9.5], [-12, -10]] as const) {
      const f = fitTemperatureGradient(...Object.values(field(g, 0.05, -6)) as [number[], number[]]);
      expect(f.gradientKPerKm, `gradient ${g}`).toBeCloseTo(want, 1);
    }
  });

  it('bounds what is not physical, and falls back on flat ground, noise or too few cells', () => {
    expect(fitTemperatureGradient(...Object.values(field(-25, 0.1)) as [number[], number[]]).gradientKPerKm).toBe(-10);
    const flat = fitTemperatureGradient(Array(81).fill(10), Array.from({ length: 81 }, (_, k) => 300 + (k % 3)));
    expect(flat).toMatchObject({ fitted: false, gradientKPerKm: STANDARD_GRADIENT_K_PER_KM });
    expect(flat.reason).toMatch(/elevation spread/);
    const noisy = fitTemperatureGradient(...Object.values(field(-1, 6)) as [number[], number[]]);
    expect(noisy).toMatchObject({ fitted: false, gradientKPerKm: STANDARD_GRADIENT_K_PER_KM });
    expect(fitTemperatureGradient([1, 2, 3], [100, 500, 900])).toMatchObject({ fitted: false, cells: 3 });
    // NaN cells are skipped, not counted.
    const { t, z } = field(-6, 0.1);
    t[0] = NaN;
    expect(fitTemperatureGradient(t, z).cells).toBe(80);
  });
});
