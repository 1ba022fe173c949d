/**
 * ingest/masks.ts: the nearest cell of a kind within the search radius and
 * the copies a masked product stores (tiles/masks.ts). Expected indices come
 * from a brute-force search with the haversine formula written here.
 */
import { describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { applyMasks, nearestCellIndex } from '../../ingest/masks.js';
import type { Product, VariableStack } from '../../ingest/products/product.js';
import { MASK_VARIABLES } from '../../ingest/products/mask-variables.js';

const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 9, ny: 7, x0: 12, y0: 44, dx: 0.05, dy: 0.04 };
const CELLS = GRID.nx * GRID.ny;

function haversineKm(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const r = Math.PI / 180;
  const a = Math.sin(((lat2 - lat1) * r) / 2) ** 2 + Math.cos(lat1 * r) * Math.cos(lat2 * r) * Math.sin(((lon2 - lon1) * r) / 2) ** 2;
  return 2 * 6371.0088 * Math.asin(Math.sqrt(a));
}
const centre = (c: number) => ({ lat: GRID.y0 + Math.floor(c / GRID.nx) * GRID.dy, lon: GRID.x0 + (c % GRID.nx) * GRID.dx });

/** An irregular coast: sea where i + 0.6 j > 6. */
const isSea = (c: number) => (c % GRID.nx) + 0.6 * Math.floor(c / GRID.nx) > 6;

describe('nearestCellIndex', () => {
  it.each([3, 8, 15])('matches a brute-force search within %d km', (radiusKm) => {
    const ofKind = Uint8Array.from({ length: CELLS }, (_, c) => (isSea(c) ? 1 : 0));
    const got = nearestCellIndex(GRID, ofKind, radiusKm);
    for (let c = 0; c < CELLS; c++) {
      let best = NaN;
      let bestD = Infinity;
      for (let o = 0; o < CELLS; o++) {
        if (!ofKind[o]) continue;
        const d = haversineKm(centre(c).lat, centre(c).lon, centre(o).lat, centre(o).lon);
        if (d <= radiusKm && d < bestD - 1e-9) [best, bestD] = [o, d];
      }
      if (Number.isNaN(best)) expect(got[c], `cell ${c}`).toBeNaN();
      else {
        // Ties between equidistant cells may resolve either way: compare distances.
        const g = got[c]!;
        expect(haversineKm(centre(c).lat, centre(c).lon, centre(g).lat, centre(g).lon), `cell ${c}`).toBeCloseTo(bestD, 6);
      }
    }
  });
});

describe('applyMasks', () => {
  const product = {
    name: 'marine-test',
    variables: { ...MASK_VARIABLES, sea_surface_temperature: { ...MASK_VARIABLES.nearest_sea_cell, mask: 'sea', aggregation: 'instant' } },
    searchRadiusKm: 6,
  } as unknown as Product;

  it('derives the mask from where the sea variable has values and copies the nearest sea value inland within the radius', () => {
    const sst = Float32Array.from({ length: CELLS }, (_, c) => (isSea(c) ? 20 + c / 100 : NaN));
    const stack: VariableStack = { grid: GRID, times: [new Date(0)], series: new Map([['sea_surface_temperature', [sst]]]), statics: new Map() };
    const notes = applyMasks(product, stack);
    expect(notes.join(' ')).toMatch(/derived/);
    const lsm = stack.statics.get('land_sea_mask')!;
    const nearest = stack.statics.get('nearest_sea_cell')!;
    const out = stack.series.get('sea_surface_temperature')![0]!;
    for (let c = 0; c < CELLS; c++) {
      expect(lsm[c]).toBe(isSea(c) ? 0 : 1);
      if (isSea(c)) {
        expect(out[c]).toBeCloseTo(20 + c / 100, 5);
        expect(nearest[c]).toBe(c);
      } else if (Number.isNaN(nearest[c]!)) {
        expect(out[c]).toBeNaN();
      } else {
        const src = nearest[c]!;
        expect(isSea(src)).toBe(true);
        expect(haversineKm(centre(c).lat, centre(c).lon, centre(src).lat, centre(src).lon)).toBeLessThanOrEqual(6);
        expect(out[c]).toBeCloseTo(20 + src / 100, 5);
      }
    }
    // Some land cells are within 6 km of the sea and some are not: both branches ran.
    const land = [...Array(CELLS).keys()].filter((c) => !isSea(c));
    expect(land.some((c) => Number.isNaN(nearest[c]!))).toBe(true);
    expect(land.some((c) => !Number.isNaN(nearest[c]!))).toBe(true);
  });
});
