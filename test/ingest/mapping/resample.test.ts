/**
 * ingest/mapping/resample.ts: a field onto another grid, bilinear over the
 * source cells with values (weights renormalised) or the nearest of them.
 * Expected values worked out by hand below.
 */
import { describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { resampleOnto } from '../../../ingest/mapping/resample.js';

// Source: 3 × 2 cells, 1° apart, SW corner 40 N 10 E; value = 10·i + j, the NE cell (2, 1) missing (land).
const SRC: RegularLatLonGrid = { kind: 'regular_ll', nx: 3, ny: 2, x0: 10, y0: 40, dx: 1, dy: 1 };
const VALUES = Float32Array.of(0, 10, 20, 1, 11, NaN);

describe('resampleOnto', () => {
  it('bilinear where the four source cells have values', () => {
    // Target cell at (40.25 N, 10.5 E): weights 0.375, 0.375, 0.125, 0.125 on 0, 10, 1, 11 → 5.25.
    const out = resampleOnto(VALUES, SRC, { kind: 'regular_ll', nx: 1, ny: 1, x0: 10.5, y0: 40.25, dx: 1, dy: 1 }, false);
    expect(out[0]).toBeCloseTo(5.25, 6);
  });

  it('renormalises over the cells with values next to a missing one; nearest takes the heaviest of them', () => {
    // (40.75 N, 11.75 E): weights SW(1,0) 0.0625, SE(2,0) 0.1875, NW(1,1) 0.1875, NE(2,1) 0.5625 but missing.
    // (0.0625·10 + 0.1875·20 + 0.1875·11) / 0.4375 = 14.714285…; nearest with a value: SE or NW (tie at 0.1875) → the first found, SE = 20.
    const target: RegularLatLonGrid = { kind: 'regular_ll', nx: 1, ny: 1, x0: 11.75, y0: 40.75, dx: 1, dy: 1 };
    expect(resampleOnto(VALUES, SRC, target, false)[0]).toBeCloseTo((0.0625 * 10 + 0.1875 * 20 + 0.1875 * 11) / 0.4375, 5);
    expect(resampleOnto(VALUES, SRC, target, true)[0]).toBe(20);
  });

  it('is NaN outside the source grid and where no neighbour has a value', () => {
    const outside = resampleOnto(VALUES, SRC, { kind: 'regular_ll', nx: 1, ny: 1, x0: 15, y0: 40, dx: 1, dy: 1 }, false);
    expect(outside[0]).toBeNaN();
    const allMissing = resampleOnto(Float32Array.of(NaN, NaN, NaN, NaN, NaN, NaN), SRC, { kind: 'regular_ll', nx: 1, ny: 1, x0: 10.5, y0: 40.5, dx: 1, dy: 1 }, false);
    expect(allMissing[0]).toBeNaN();
  });
});
