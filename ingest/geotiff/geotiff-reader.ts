/**
 * GeoTIFF elevation rasters (Copernicus GLO-30, TINITALY, SRTM, EU-DEM) read
 * with the `geotiff` package: band 1 of the first image, its CRS from the
 * GeoKeys (./crs.ts), the affine transform from the tie point and pixel
 * scale, no-data from GDAL's tag. Only the window covering the area asked
 * for is decoded. Rotated/sheared rasters (ModelTransformation with
 * rotation terms) are refused: gdalwarp them north-up first.
 */
import proj4 from 'proj4';
import { isGeographic, proj4Definition } from './crs.js';

/** A raster window in the file's CRS: pixel centres at (x0 + i·dx, y0 − j·dy) (row 0 northmost). */
export interface GeoTiffWindow {
  values: Float32Array;
  nx: number;
  ny: number;
  /** CRS coordinates of the centre of the window's pixel (0, 0). */
  x0: number;
  y0: number;
  /** Pixel size, CRS units (> 0). */
  dx: number;
  dy: number;
  /** proj4 converter WGS 84 lon/lat → the file's CRS. */
  toCrs: (lon: number, lat: number) => [number, number];
  /** Its inverse: the file's CRS → WGS 84 lon/lat. */
  toLonLat: (x: number, y: number) => [number, number];
  /** True when the CRS is geographic (x, y are lon, lat in degrees). */
  geographic: boolean;
  epsg: number;
  /** Pixel size in metres (the smaller axis). */
  spacingM: number;
}

/** Largest window decoded: about 0.5 GB as float32, a 1° tile at 1″ many times over; a 30 m DEM of all Italy must be coarsened first. */
export const MAX_WINDOW_PIXELS = 120_000_000;

/** TIFF magic: "II*\0", "MM\0*", BigTIFF "II+\0" / "MM\0+". */
export function isTiff(head: Uint8Array): boolean {
  const [a, b, c, d] = head;
  return (a === 0x49 && b === 0x49 && (c === 0x2a || c === 0x2b) && d === 0) || (a === 0x4d && b === 0x4d && c === 0 && (d === 0x2a || d === 0x2b));
}

/**
 * The pixels of `path` covering the WGS 84 box [west, south, east, north]
 * (plus two pixels of margin for the bilinear interpolation).
 */
export async function readGeoTiffWindow(path: string, box: readonly [number, number, number, number]): Promise<GeoTiffWindow> {
  // Loaded on first use: only `ingest sm100` with a GeoTIFF needs it, every other CLI start would pay for it.
  const { fromFile } = await import('geotiff');
  const tiff = await fromFile(path);
  try {
    const image = await tiff.getImage(0);
    const keys = image.getGeoKeys() ?? {};
    const epsg = Number(keys.ProjectedCSTypeGeoKey ?? keys.GeographicTypeGeoKey);
    if (!Number.isInteger(epsg) || epsg <= 0 || epsg === 32767) {
      throw new Error('no EPSG code in its GeoKeys (user-defined CRS): reproject it with gdalwarp -t_srs EPSG:4326');
    }
    const def = proj4Definition(epsg);
    const conv = proj4('+proj=longlat +datum=WGS84 +no_defs', def);
    const toCrs = (lon: number, lat: number) => conv.forward([lon, lat]) as [number, number];
    const toLonLat = (x: number, y: number) => conv.inverse([x, y]) as [number, number];
    // VerticalUnitsGeoKey 9001 is the metre; a DEM in feet would be a silent 3.28× error.
    const vertical = keys.VerticalUnitsGeoKey;
    if (vertical !== undefined && Number(vertical) !== 9001) throw new Error(`heights in EPSG unit ${String(vertical)} (VerticalUnitsGeoKey), not metres: convert them first, e.g. gdal_calc.py`);
    const [originX, originY] = image.getOrigin() as [number, number];
    const [resX, resY] = image.getResolution() as [number, number];
    if (!(resX > 0 && resY < 0)) throw new Error(`pixel scale ${resX} × ${resY}: only north-up rasters are read (gdalwarp it first)`);
    const dx = resX;
    const dy = -resY;
    // PixelIsArea (the default): the tie point is the corner of pixel (0, 0); PixelIsPoint: its centre.
    const pointRaster = Number(keys.GTRasterTypeGeoKey) === 2;
    const cx0 = originX + (pointRaster ? 0 : dx / 2);
    const cy0 = originY - (pointRaster ? 0 : dy / 2);

    // The window: the box's corners and edge midpoints in the file's CRS.
    const [w, s, e, n] = box;
    const corners = [[w, s], [w, n], [e, s], [e, n], [(w + e) / 2, s], [(w + e) / 2, n], [w, (s + n) / 2], [e, (s + n) / 2]].map(([lo, la]) => toCrs(lo!, la!));
    const xs = corners.map((p) => (p[0] - cx0) / dx);
    const ys = corners.map((p) => (cy0 - p[1]) / dy);
    const width = image.getWidth();
    const height = image.getHeight();
    const i0 = Math.max(0, Math.floor(Math.min(...xs)) - 2);
    const i1 = Math.min(width, Math.ceil(Math.max(...xs)) + 3);
    const j0 = Math.max(0, Math.floor(Math.min(...ys)) - 2);
    const j1 = Math.min(height, Math.ceil(Math.max(...ys)) + 3);
    if (!(i1 > i0 && j1 > j0)) throw new Error(`does not cover ${box.join(', ')} (WGS 84 west, south, east, north)`);
    const pixels = (i1 - i0) * (j1 - j0);
    if (pixels > MAX_WINDOW_PIXELS) {
      throw new Error(`the area asked for is ${pixels} pixels of this raster (at most ${MAX_WINDOW_PIXELS}): coarsen it first, e.g. gdalwarp -tr <metres> <metres> -r average in.tif out.tif`);
    }

    const raster = (await image.readRasters({ window: [i0, j0, i1, j1], samples: [0], interleave: true })) as ArrayLike<number>;
    const noData = image.getGDALNoData();
    const values = new Float32Array((i1 - i0) * (j1 - j0));
    for (let k = 0; k < values.length; k++) {
      const v = raster[k]!;
      values[k] = v === noData || !Number.isFinite(v) ? NaN : v;
    }
    const metresPerUnit = isGeographic(def) ? 111_195 : 1;
    const spacingM = Math.min(dx * metresPerUnit * (isGeographic(def) ? Math.cos((((s + n) / 2) * Math.PI) / 180) : 1), dy * metresPerUnit);
    return { values, nx: i1 - i0, ny: j1 - j0, x0: cx0 + i0 * dx, y0: cy0 - j0 * dy, dx, dy, toCrs, toLonLat, geographic: isGeographic(def), epsg, spacingM };
  } finally {
    await tiff.close();
  }
}
