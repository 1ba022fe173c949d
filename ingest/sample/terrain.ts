/**
 * Analytic terrain for the sample dataset (no external data): land from the
 * coarse coastlines of sample/geography.ts, mountains as Gaussian ridges
 * along crest lines (height interpolated along the crest, σ across it),
 * gentle noise hills flattened over the Po plain, sea at 0 m. The DEM adds
 * small-scale relief on top, so that it differs from the model orography the
 * way a real 1 km DEM differs from a 2.5 km model's smoothed terrain.
 * The terrain never depends on the run: the same grid always gives the same heights.
 */
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { LAND_POLYGONS, PO_PLAIN, RIDGES, type Ridge } from './geography.js';
import { fbm } from './noise.js';

const TERRAIN_SEED = 4242;

export interface Terrain {
  /** Elevation above sea level, m (0 over the sea), row-major [y][x]. */
  elevationM: Float32Array;
  /** 1 = land, 0 = sea. */
  land: Uint8Array;
}

/**
 * Terrain on a regular grid.
 * @param fineRelief add small-scale relief (the DEM); off for the model orography
 */
export function terrainOnGrid(grid: RegularLatLonGrid, fineRelief = false): Terrain {
  const n = grid.nx * grid.ny;
  const land = landMask(grid);
  const ridge = new Float32Array(n);
  for (const r of RIDGES) addRidge(grid, r, ridge);
  const elevationM = new Float32Array(n);
  for (let j = 0; j < grid.ny; j++) {
    const lat = grid.y0 + j * grid.dy;
    for (let i = 0; i < grid.nx; i++) {
      const k = j * grid.nx + i;
      if (!land[k]) continue;
      const lon = grid.x0 + i * grid.dx;
      const pl = ((lat - PO_PLAIN.lat) / PO_PLAIN.semiLat) ** 2 + ((lon - PO_PLAIN.lon) / PO_PLAIN.semiLon) ** 2;
      const plain = 1 - 0.92 * Math.exp(-pl);
      const hills = 400 * fbm(lon * 1.5, lat * 1.5, TERRAIN_SEED + 1, 4) ** 2 * plain;
      // Texture on the crests at ~30 km: peaks and passes rather than a uniform wall.
      const texture = 0.8 + 0.4 * fbm(lon * 3, lat * 3, TERRAIN_SEED + 2, 3);
      let z = 10 + hills + ridge[k]! * texture;
      if (fineRelief) z += (25 + 0.12 * z) * 2 * (fbm(lon * 25, lat * 25, TERRAIN_SEED + 3, 3) - 0.5);
      elevationM[k] = Math.max(1, z);
    }
  }
  return { elevationM, land };
}

/** Even-odd scanline fill of every land polygon, row by row. */
function landMask(grid: RegularLatLonGrid): Uint8Array {
  const mask = new Uint8Array(grid.nx * grid.ny);
  const xs: number[] = [];
  for (let j = 0; j < grid.ny; j++) {
    const lat = grid.y0 + j * grid.dy;
    for (const poly of LAND_POLYGONS) {
      xs.length = 0;
      for (let e = 0; e < poly.length; e++) {
        const [la1, lo1] = poly[e]!;
        const [la2, lo2] = poly[(e + 1) % poly.length]!;
        if ((la1 <= lat && la2 > lat) || (la2 <= lat && la1 > lat)) xs.push(lo1 + ((lat - la1) / (la2 - la1)) * (lo2 - lo1));
      }
      xs.sort((a, b) => a - b);
      for (let p = 0; p + 1 < xs.length; p += 2) {
        const i0 = Math.max(0, Math.ceil((xs[p]! - grid.x0) / grid.dx));
        const i1 = Math.min(grid.nx - 1, Math.floor((xs[p + 1]! - grid.x0) / grid.dx));
        for (let i = i0; i <= i1; i++) mask[j * grid.nx + i] = 1;
      }
    }
  }
  return mask;
}

/** Max-combine one ridge into `out`: crest height × exp(−d²/2σ²), d = distance to the crest line. */
function addRidge(grid: RegularLatLonGrid, r: Ridge, out: Float32Array): void {
  const lats = r.crest.map((c) => c[0]);
  const lons = r.crest.map((c) => c[1]);
  const cosLat = Math.cos(((Math.min(...lats) + Math.max(...lats)) / 2) * (Math.PI / 180));
  const reach = 4 * r.sigmaDeg;
  const j0 = Math.max(0, Math.floor((Math.min(...lats) - reach - grid.y0) / grid.dy));
  const j1 = Math.min(grid.ny - 1, Math.ceil((Math.max(...lats) + reach - grid.y0) / grid.dy));
  const i0 = Math.max(0, Math.floor((Math.min(...lons) - reach / cosLat - grid.x0) / grid.dx));
  const i1 = Math.min(grid.nx - 1, Math.ceil((Math.max(...lons) + reach / cosLat - grid.x0) / grid.dx));
  const twoSigma2 = 2 * r.sigmaDeg * r.sigmaDeg;
  // Each segment's box, widened by the reach: cells outside it get nothing from that segment.
  const boxes = r.crest.slice(0, -1).map(([la, lo], s) => {
    const [lb, lob] = r.crest[s + 1]!;
    return [Math.min(la, lb) - reach, Math.max(la, lb) + reach, Math.min(lo, lob) - reach / cosLat, Math.max(lo, lob) + reach / cosLat] as const;
  });
  for (let j = j0; j <= j1; j++) {
    const lat = grid.y0 + j * grid.dy;
    for (let i = i0; i <= i1; i++) {
      const lon = grid.x0 + i * grid.dx;
      let best = 0;
      for (let s = 0; s + 1 < r.crest.length; s++) {
        const box = boxes[s]!;
        if (lat < box[0] || lat > box[1] || lon < box[2] || lon > box[3]) continue;
        const [la, lo, ha] = r.crest[s]!;
        const [lb, lob, hb] = r.crest[s + 1]!;
        const bx = (lob - lo) * cosLat;
        const by = lb - la;
        const px = (lon - lo) * cosLat;
        const py = lat - la;
        const len2 = bx * bx + by * by;
        const t = len2 > 0 ? Math.min(1, Math.max(0, (px * bx + py * by) / len2)) : 0;
        const dx = px - t * bx;
        const dy = py - t * by;
        const h = (ha + t * (hb - ha)) * Math.exp(-(dx * dx + dy * dy) / twoSigma2);
        if (h > best) best = h;
      }
      const k = j * grid.nx + i;
      if (best > out[k]!) out[k] = best;
    }
  }
}
