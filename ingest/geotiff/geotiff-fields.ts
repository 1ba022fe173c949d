/**
 * GeoTIFF as a reader of the pipeline (the usual public DEMs: Copernicus
 * GLO-30/90, TINITALY, EU-DEM, given to `meteopunto ingest dem`): band 1 of
 * the window covering the area asked for, one static field named `band1` (as
 * GDAL names a band) in metres, GDAL's no-data → NaN. A geographic raster
 * (WGS 84, ETRS89, RDN2008) is its own regular lat/lon grid. A projected one
 * (UTM, LAEA Europe) is resampled onto a regular lat/lon grid of about its
 * own pixel size: each cell centre taken into the file's CRS by proj4 and
 * the raster interpolated bilinearly there, no-data neighbours dropped (the
 * point reader's rule).
 */
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { bilinearAt } from '../../geo/raster-bilinear.js';
import { ReadError, type ReadOptions, type Reader, type SourceField } from '../field.js';
import { CROP_MARGIN_CELLS, SERVICE_DOMAIN } from '../mapping/domain.js';
import { isTiff, readGeoTiffWindow, type GeoTiffWindow } from './geotiff-reader.js';

/** Metres per degree of latitude (mean Earth radius 6,371 km). */
const M_PER_DEG = 111_195;

export const geotiffReader: Reader = {
  format: 'geotiff',
  sniff: isTiff,
  async read(path: string, options?: ReadOptions): Promise<SourceField[]> {
    const d = SERVICE_DOMAIN;
    const box = options?.box ?? ([d.lonMin, d.latMin, d.lonMax, d.latMax] as const);
    let w: GeoTiffWindow;
    try {
      w = await readGeoTiffWindow(path, box);
    } catch (err) {
      throw new ReadError(path, `GeoTIFF: ${(err as Error).message}`, { cause: err });
    }
    const { grid, values } = w.geographic ? asLatLon(w) : resampleToLatLon(w, box);
    const epoch = new Date(0);
    return [{
      name: 'band1', units: 'm', longName: `GeoTIFF band 1 (EPSG:${w.epsg})`,
      referenceTime: epoch, validTime: epoch, stepType: 'instant', grid, values,
    }];
  },
};

/** A geographic window: rows turned south-up, nothing resampled. */
function asLatLon(w: GeoTiffWindow): { grid: RegularLatLonGrid; values: Float32Array } {
  const values = new Float32Array(w.nx * w.ny);
  for (let j = 0; j < w.ny; j++) values.set(w.values.subarray((w.ny - 1 - j) * w.nx, (w.ny - j) * w.nx), j * w.nx);
  return { grid: { kind: 'regular_ll', nx: w.nx, ny: w.ny, x0: w.x0, y0: w.y0 - (w.ny - 1) * w.dy, dx: w.dx, dy: w.dy }, values };
}

/**
 * A projected window on a regular lat/lon grid: spacing the raster's pixel
 * size (dy = size / 111,195 m, dx = dy / cos of the middle latitude), origin
 * on a multiple of the spacing (two ingests of one DEM give one grid),
 * covering the window's footprint within `box` plus the crop margin.
 */
function resampleToLatLon(w: GeoTiffWindow, box: readonly [number, number, number, number]): { grid: RegularLatLonGrid; values: Float32Array } {
  const foot = footprint(w);
  const dy = w.spacingM / M_PER_DEG;
  const dx = dy / Math.cos((((foot.south + foot.north) / 2) * Math.PI) / 180);
  const west = Math.max(foot.west, box[0] - CROP_MARGIN_CELLS * dx);
  const east = Math.min(foot.east, box[2] + CROP_MARGIN_CELLS * dx);
  const south = Math.max(foot.south, box[1] - CROP_MARGIN_CELLS * dy);
  const north = Math.min(foot.north, box[3] + CROP_MARGIN_CELLS * dy);
  const x0 = Math.floor(west / dx) * dx;
  const y0 = Math.floor(south / dy) * dy;
  const nx = Math.floor((east - x0) / dx) + 1;
  const ny = Math.floor((north - y0) / dy) + 1;
  const values = new Float32Array(nx * ny);
  for (let j = 0; j < ny; j++) {
    for (let i = 0; i < nx; i++) {
      const [x, y] = w.toCrs(x0 + i * dx, y0 + j * dy);
      values[j * nx + i] = bilinearAt(w.values, w.nx, w.ny, (x - w.x0) / w.dx, (w.y0 - y) / w.dy);
    }
  }
  return { grid: { kind: 'regular_ll', nx, ny, x0, y0, dx, dy }, values };
}

/** Lon/lat bounds of the window's outer pixel edges, traced along its border (a projected rectangle is curved in lon/lat). */
function footprint(w: GeoTiffWindow): { west: number; east: number; south: number; north: number } {
  const b = { west: Infinity, east: -Infinity, south: Infinity, north: -Infinity };
  const left = w.x0 - w.dx / 2;
  const right = w.x0 + (w.nx - 0.5) * w.dx;
  const top = w.y0 + w.dy / 2;
  const bottom = w.y0 - (w.ny - 0.5) * w.dy;
  const add = (x: number, y: number) => {
    const [lon, lat] = w.toLonLat(x, y);
    b.west = Math.min(b.west, lon);
    b.east = Math.max(b.east, lon);
    b.south = Math.min(b.south, lat);
    b.north = Math.max(b.north, lat);
  };
  const STEPS = 64;
  for (let k = 0; k <= STEPS; k++) {
    const x = left + ((right - left) * k) / STEPS;
    const y = bottom + ((top - bottom) * k) / STEPS;
    add(x, top);
    add(x, bottom);
    add(left, y);
    add(right, y);
  }
  return b;
}
