import { describe, expect, it } from 'vitest';
import { bilinearNeighbourhood, bracketTime, combineNeighbours, newNeighbourhood, newTimeBracket, rawToValueInt16 } from '../../../tiles/read/interpolate.js';
import { INT16_FILL } from '../../../tiles/codecs/packing.js';

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

describe('rawToValueInt16', () => {
  // Neighbour k at raw[2k] (first step) and raw[2k + 1] (second step); value = raw × 0.01 + 10.
  const nw = Float64Array.of(0.375, 0.125, 0.375, 0.125);
  const raw = Float64Array.of(100, 200, 300, 300, -100, 100, 0, 400);
  it('interpolates in time, then in space, and unpacks', () => {
    // Per neighbour at w = 0.25: 11.25, 13, 9.5, 11; weighted: 4.21875 + 1.625 + 3.5625 + 1.375.
    expect(rawToValueInt16(raw, 0, 0.25, 0.01, 10, nw)).toBeCloseTo(10.78125, 12);
    // At the first step: 11, 13, 9, 10.
    expect(rawToValueInt16(raw, 0, 0, 0.01, 10, nw)).toBeCloseTo(10.375, 12);
  });
  it('renormalises over the neighbours present when one step of one is missing', () => {
    const holed = raw.slice();
    holed[3] = INT16_FILL;
    expect(rawToValueInt16(holed, 0, 0.25, 0.01, 10, nw)).toBeCloseTo((4.21875 + 3.5625 + 1.375) / 0.875, 12);
    // The missing step has no weight at w = 0: every neighbour counts.
    expect(rawToValueInt16(holed, 0, 0, 0.01, 10, nw)).toBeCloseTo(10.375, 12);
    expect(rawToValueInt16(new Float64Array(8).fill(INT16_FILL), 0, 0.25, 0.01, 10, nw)).toBeNull();
  });
  it('reads at an offset and gives the cell value on a cell', () => {
    const shifted = Float64Array.of(7, 7, 7, 7, 7, 7, 7, 7, ...raw);
    expect(rawToValueInt16(shifted, 8, 0, 0.01, 10, Float64Array.of(0, 0, 1, 0))).toBeCloseTo(9, 12);
  });
});
