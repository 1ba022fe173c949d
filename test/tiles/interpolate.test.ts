import { describe, expect, it } from 'vitest';
import { bilinearNeighbourhood, bracketTime, combineNeighbours, newNeighbourhood, newTimeBracket } from '../../tiles/interpolate.js';

describe('bilinearNeighbourhood', () => {
  it('gives the four corners and weights of an interior point', () => {
    const nb = bilinearNeighbourhood(2.25, 5.5, 10, 10, newNeighbourhood());
    expect([nb.i0, nb.i1, nb.j0, nb.j1]).toEqual([2, 3, 5, 6]);
    expect(Array.from(nb.w)).toEqual([0.375, 0.125, 0.375, 0.125]);
  });

  it('clamps to the edge within half a cell outside', () => {
    const nb = bilinearNeighbourhood(-0.4, 9.3, 10, 10, newNeighbourhood());
    expect([nb.i0, nb.i1, nb.j0, nb.j1]).toEqual([0, 1, 8, 9]);
    expect(Array.from(nb.w)).toEqual([0, 0, 1, 0]);
  });

  it('handles the last column and one-cell grids', () => {
    const nb = bilinearNeighbourhood(9, 0, 10, 1, newNeighbourhood());
    expect([nb.i0, nb.i1, nb.j0, nb.j1]).toEqual([8, 9, 0, 0]);
    expect(Array.from(nb.w)).toEqual([0, 1, 0, 0]);
    const one = bilinearNeighbourhood(0.2, -0.3, 1, 1, newNeighbourhood());
    expect(Array.from(one.w)).toEqual([1, 0, 0, 0]);
  });
});

describe('bracketTime', () => {
  const t = Float64Array.of(0, 3600, 7200, 14400);
  it('finds the bracketing steps and the weight', () => {
    const b = newTimeBracket();
    expect(bracketTime(t, 9000, b)).toBe(true);
    expect(b).toEqual({ k0: 2, k1: 3, w: 0.25 });
    expect(bracketTime(t, 3600, b)).toBe(true);
    expect(b).toEqual({ k0: 1, k1: 1, w: 0 });
    expect(bracketTime(t, 14400, b)).toBe(true);
    expect(b).toEqual({ k0: 3, k1: 3, w: 0 });
  });
  it('rejects times outside the axis and NaN', () => {
    const b = newTimeBracket();
    expect(bracketTime(t, -1, b)).toBe(false);
    expect(bracketTime(t, 14401, b)).toBe(false);
    expect(bracketTime(t, NaN, b)).toBe(false);
    expect(bracketTime(new Float64Array(0), 0, b)).toBe(false);
  });
});

describe('combineNeighbours', () => {
  const w = Float64Array.of(0.375, 0.125, 0.375, 0.125);
  it('is the weighted sum when all are valid', () => {
    expect(combineNeighbours(1, 2, 4, 8, w)).toBeCloseTo(3.125, 12);
  });
  it('renormalises over valid neighbours, null when none', () => {
    expect(combineNeighbours(1, NaN, 4, 8, w)).toBeCloseTo(2.875 / 0.875, 12);
    expect(combineNeighbours(NaN, NaN, NaN, NaN, w)).toBeNull();
  });
  it('uses the plain mean when only zero-weight neighbours are valid', () => {
    expect(combineNeighbours(NaN, 2, 4, 6, Float64Array.of(1, 0, 0, 0))).toBe(4);
  });
});
