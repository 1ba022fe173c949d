/**
 * The masks' distances from a point to its four neighbours' cell centres (tiles/read/point-rules.ts
 * cellDistancesKm) share the terms of one latitude or longitude between neighbours: each must still be the very
 * number @turf/distance gives (the ingest's distance, ingest/masks.ts), and only the neighbours asked for are
 * written. Neighbourhoods of regular and rotated grids, points drawn over Italy and near the antimeridian.
 */
import { describe, expect, it } from 'vitest';
import { distance } from '@turf/distance';
import { cellLatLon, type GridDef } from '../../../geo/grid.js';
import { cellDistancesKm } from '../../../tiles/read/point-rules.js';

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

const GRIDS: GridDef[] = [
  { kind: 'regular_ll', nx: 404, ny: 473, x0: 6.5, y0: 35.5, dx: 0.03, dy: 0.025 },
  { kind: 'regular_ll', nx: 291, ny: 284, x0: 6.5, y0: 35.5, dx: 0.04166666552, dy: 0.04166666784 },
  { kind: 'regular_ll', nx: 720, ny: 361, x0: -180, y0: -90, dx: 0.5, dy: 0.5 },
  { kind: 'rotated_ll', nx: 300, ny: 300, x0: -6, y0: -7, dx: 0.025, dy: 0.025, southPoleLat: -47, southPoleLon: 10, angle: 0 },
];

describe('cellDistancesKm', () => {
  it('gives each asked neighbour @turf/distance to its cell centre, bit for bit, and leaves the others', () => {
    const rnd = lcg(11);
    const flat = new Int32Array(4);
    const out = new Float64Array(4);
    let differ = 0;
    let untouched = 0;
    let checked = 0;
    for (const grid of GRIDS) {
      for (let n = 0; n < 3000; n++) {
        const i0 = Math.floor(rnd() * (grid.nx - 1));
        const j0 = Math.floor(rnd() * (grid.ny - 1));
        // A point inside the 2 × 2 neighbourhood (as the reader locates it); a tenth of them farther away.
        const c = cellLatLon(grid, i0 + rnd(), j0 + rnd());
        const lat = n % 10 ? c.lat : c.lat + (rnd() - 0.5) * 4;
        const lon = n % 10 ? c.lon : c.lon + (rnd() - 0.5) * 4;
        for (let k = 0; k < 4; k++) flat[k] = (j0 + (k >> 1)) * grid.nx + i0 + (k & 1);
        const need = n % 4 === 0 ? 15 : 1 + Math.floor(rnd() * 15);
        out.fill(-1);
        cellDistancesKm(grid, lat, lon, flat, need, out);
        for (let k = 0; k < 4; k++) {
          if ((need & (1 << k)) === 0) {
            if (out[k] !== -1) untouched++;
            continue;
          }
          const cell = cellLatLon(grid, i0 + (k & 1), j0 + (k >> 1));
          checked++;
          if (!Object.is(out[k], distance([lon, lat], [cell.lon, cell.lat], { units: 'kilometers' }))) differ++;
        }
      }
    }
    expect(checked).toBeGreaterThan(20_000);
    expect(differ).toBe(0);
    expect(untouched).toBe(0);
  });
});
