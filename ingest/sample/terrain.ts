/**
 * The sample dataset's terrain: the real ICON-2I model orography over Italy
 * (0.025° × 0.02°, about 2.2 km; ./orography/, made once from the ARPA-SIMC
 * file by scripts/make-sample-orography.py), shipped with the repository so
 * that `npm start` needs nothing else. Sampled bilinearly onto any grid:
 * land where at least half the interpolation weight is land, the height
 * interpolated over the land neighbours only (so coasts are not pulled down
 * to the sea), 0 m over the sea. Beyond the file's box (35.4..47.3 N,
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

/** The orography raster: heights (NaN over the sea), row 0 north, and its geographic frame. */
interface Orography {
  heightM: Float32Array;
  landOnly: Float32Array;
  nx: number;
  ny: number;
  /** Centre of pixel (0, 0), degrees. */
  lon0: number;
  lat0: number;
  dLon: number;
  /** Negative: rows go south. */
  dLat: number;
}

const FILE = 'orography/icon2i-orography.tif';
let cached: Promise<Orography> | undefined;

/** The .tif beside this module (source tree), or in the source tree when running from dist/. */
function orographyPath(): string {
  const here = fileURLToPath(new URL(`./${FILE}`, import.meta.url));
  return existsSync(here) ? here : fileURLToPath(new URL(`../../../ingest/sample/${FILE}`, import.meta.url));
}

function loadOrography(): Promise<Orography> {
  cached ??= (async () => {
    const { fromFile } = await import('geotiff');
    const tiff = await fromFile(orographyPath());
    try {
      const image = await tiff.getImage();
      const [raw] = (await image.readRasters()) as unknown as [Int16Array];
      const noData = image.getGDALNoData();
      const heightM = Float32Array.from(raw, (v) => (v === noData ? NaN : v));
      const [resLon, resLat] = image.getResolution();
      const [west, , , north] = image.getBoundingBox();
      return {
        heightM, landOnly: Float32Array.from(heightM, (v) => (Number.isNaN(v) ? 0 : 1)),
        nx: image.getWidth(), ny: image.getHeight(),
        lon0: west! + resLon! / 2, lat0: north! + resLat! / 2, dLon: resLon!, dLat: resLat!,
      };
    } finally {
      tiff.close();
    }
  })();
  return cached;
}

/** The real terrain on a regular grid. */
export async function terrainOnGrid(grid: RegularLatLonGrid): Promise<Terrain> {
  const o = await loadOrography();
  const n = grid.nx * grid.ny;
  const elevationM = new Float32Array(n);
  const land = new Uint8Array(n);
  for (let j = 0; j < grid.ny; j++) {
    const fy = Math.min(o.ny - 1, Math.max(0, (grid.y0 + j * grid.dy - o.lat0) / o.dLat));
    for (let i = 0; i < grid.nx; i++) {
      const fx = Math.min(o.nx - 1, Math.max(0, (grid.x0 + i * grid.dx - o.lon0) / o.dLon));
      const k = j * grid.nx + i;
      if (bilinearAt(o.landOnly, o.nx, o.ny, fx, fy) < 0.5) continue;
      land[k] = 1;
      elevationM[k] = bilinearAt(o.heightM, o.nx, o.ny, fx, fy);
    }
  }
  return { elevationM, land };
}
