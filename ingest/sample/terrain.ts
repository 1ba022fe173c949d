/**
 * The sample dataset's terrain, real, shipped with the repository so that
 * `npm start` needs nothing else (./orography/, made once from two ARPA-SIMC
 * files by scripts/make-sample-orography.py): the ICON-2I model orography
 * over Italy (0.025° × 0.02°, about 2.2 km), and for a DEM the 1 km DEM of
 * northern Italy (43.4..47.2 N, 6.4..14.1 E) where it has data. Sampled
 * bilinearly onto any grid: land where at least half of ICON's
 * interpolation weight is land (one coastline for every product), the
 * height interpolated over the land neighbours only (so coasts are not
 * pulled down to the sea), 0 m over the sea. Beyond ICON's box (35.4..47.3 N,
 * 6.5..18.6 E) its edge cells are repeated. The terrain never depends on
 * the run: the same grid always gives the same heights.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { bilinearAt } from '../../geo/raster-bilinear.js';

export interface Terrain {
  /** Elevation above sea level, m (0 over the sea), row-major [y][x]. */
  elevationM: Float32Array;
  /** 1 = land, 0 = sea. */
  land: Uint8Array;
}

/** A height raster: metres (NaN where the file has no data), row 0 north, and its geographic frame. */
interface Raster {
  heightM: Float32Array;
  /** 1 where there is a height, 0 where not. */
  present: Float32Array;
  nx: number;
  ny: number;
  /** Centre of pixel (0, 0), degrees. */
  lon0: number;
  lat0: number;
  dLon: number;
  /** Negative: rows go south. */
  dLat: number;
}

/** The model orography (no data = sea) and the 1 km DEM of the north. */
const FILES = { model: 'icon2i-orography.tif', dem: 'nita1k-dem.tif' } as const;
const cached = new Map<string, Promise<Raster>>();

/** A .tif of ./orography beside this module (source tree), or in the source tree when running from dist/. */
function orographyPath(name: string): string {
  const here = fileURLToPath(new URL(`./orography/${name}`, import.meta.url));
  return existsSync(here) ? here : fileURLToPath(new URL(`../../../ingest/sample/orography/${name}`, import.meta.url));
}

function loadRaster(name: string): Promise<Raster> {
  let r = cached.get(name);
  if (!r) {
    r = (async () => {
      const { fromFile } = await import('geotiff');
      const tiff = await fromFile(orographyPath(name));
      try {
        const image = await tiff.getImage();
        const [raw] = (await image.readRasters()) as unknown as [Int16Array];
        const noData = image.getGDALNoData();
        const heightM = Float32Array.from(raw, (v) => (v === noData ? NaN : v));
        const [resLon, resLat] = image.getResolution();
        const [west, , , north] = image.getBoundingBox();
        return {
          heightM, present: Float32Array.from(heightM, (v) => (Number.isNaN(v) ? 0 : 1)),
          nx: image.getWidth(), ny: image.getHeight(),
          lon0: west! + resLon! / 2, lat0: north! + resLat! / 2, dLon: resLon!, dLat: resLat!,
        };
      } finally {
        tiff.close();
      }
    })();
    cached.set(name, r);
  }
  return r;
}

/** Fractional pixel index of (lat, lon) in `r`, clamped to its edge cells when `clamp`; undefined outside otherwise. */
function indexIn(r: Raster, lat: number, lon: number, clamp: boolean): [number, number] | undefined {
  const fx = (lon - r.lon0) / r.dLon;
  const fy = (lat - r.lat0) / r.dLat;
  if (clamp) return [Math.min(r.nx - 1, Math.max(0, fx)), Math.min(r.ny - 1, Math.max(0, fy))];
  return fx >= 0 && fy >= 0 && fx <= r.nx - 1 && fy <= r.ny - 1 ? [fx, fy] : undefined;
}

/**
 * The real terrain on a regular grid.
 * @param fine a DEM: heights from the 1 km DEM where it has data (the land mask stays the model's)
 */
export async function terrainOnGrid(grid: RegularLatLonGrid, fine = false): Promise<Terrain> {
  const model = await loadRaster(FILES.model);
  const dem = fine ? await loadRaster(FILES.dem) : undefined;
  const n = grid.nx * grid.ny;
  const elevationM = new Float32Array(n);
  const land = new Uint8Array(n);
  for (let j = 0; j < grid.ny; j++) {
    const lat = grid.y0 + j * grid.dy;
    for (let i = 0; i < grid.nx; i++) {
      const lon = grid.x0 + i * grid.dx;
      const [fx, fy] = indexIn(model, lat, lon, true)!;
      const k = j * grid.nx + i;
      if (bilinearAt(model.present, model.nx, model.ny, fx, fy) < 0.5) continue;
      land[k] = 1;
      const d = dem && indexIn(dem, lat, lon, false);
      const fromDem = d ? bilinearAt(dem!.heightM, dem!.nx, dem!.ny, d[0], d[1]) : NaN;
      elevationM[k] = Number.isNaN(fromDem) ? bilinearAt(model.heightM, model.nx, model.ny, fx, fy) : fromDem;
    }
  }
  return { elevationM, land };
}
