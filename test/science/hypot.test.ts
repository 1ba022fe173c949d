import { describe, expect, it } from 'vitest';
import { hypot2 } from '../../science/hypot.js';

describe('hypot2: Math.hypot of two numbers, bit for bit', () => {
  it('gives the exact values of Pythagorean triples and the special cases of Math.hypot', () => {
    expect(hypot2(3, 4)).toBe(5);
    expect(hypot2(-5, 12)).toBe(13);
    expect(hypot2(0, -7.5)).toBe(7.5);
    expect(Object.is(hypot2(-0, -0), 0)).toBe(true);
    expect(hypot2(NaN, Infinity)).toBe(Infinity);
    expect(hypot2(-Infinity, 2)).toBe(Infinity);
    expect(hypot2(NaN, 1)).toBeNaN();
    // No overflow or underflow in the squares: scaled by the larger.
    expect(hypot2(3e300, 4e300)).toBe(5e300);
    expect(hypot2(3e-300, 4e-300)).toBe(5e-300);
  });

  it('agrees with Math.hypot to the last bit on wind components and on numbers across the double range', () => {
    // A fixed LCG: the same cases every run.
    let s = 987654321;
    const rnd = () => ((s = (s * 1103515245 + 12345) % 2147483648) / 2147483648);
    let diffs = 0;
    for (let i = 0; i < 200_000; i++) {
      const wind = i % 2 === 0;
      const a = wind ? Math.round((rnd() - 0.5) * 6000) / 100 : (rnd() - 0.5) * 10 ** (rnd() * 600 - 300);
      const b = wind ? (rnd() - 0.5) * 60 : (rnd() - 0.5) * 10 ** (rnd() * 600 - 300);
      if (!Object.is(hypot2(a, b), Math.hypot(a, b))) diffs++;
    }
    expect(diffs).toBe(0);
  });
});
