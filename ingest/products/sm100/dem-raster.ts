/**
 * A DEM file as the terrain builder sees it: elevation at any (lat, lon) by
 * bilinear interpolation between its pixel centres, and its pixel spacing.
 * GeoTIFF is read by ingest/geotiff (any supported CRS, through proj4);
 * GRIB and NetCDF by the project's readers, mapped like product `dem`
 * (orography names, geopotential → m, no-data outside −500…9000 m).
 */
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import { gridIndexOf, type GridDef } from '../../../geo/grid.js';
import { bilinearAt } from '../../../geo/raster-bilinear.js';
import { ReadError } from '../../field.js';
import { readGeoTiffWindow, isTiff } from '../../geotiff/geotiff-reader.js';
import { IngestError } from '../../ingest-types.js';
import { readFile } from '../../readers.js';
import { demProduct } from '../dem/product.js';
import { DEM_VARIABLES } from '../dem/variables.js';
import { mapFields } from '../../mapping/map-fields.js';

export interface DemRaster {
  /** For notes and the manifest: 'dem.tif (GeoTIFF EPSG:32632, 10 m)'. */
  description: string;
  /** Pixel spacing, m (the finer axis). */
  spacingM: number;
  /** Elevation, m; NaN outside the raster or where all four neighbours are no-data. */
  elevationAt(lat: number, lon: number): number;
}

/** Read `path` as a DEM covering the WGS 84 box [west, south, east, north]. */
export async function openDemRaster(path: string, box: readonly [number, number, number, number]): Promise<DemRaster> {
  if (isTiff(await head(path))) return geoTiffRaster(path, box);
  return modelGridRaster(path);
}

async function head(path: string): Promise<Uint8Array> {
  let fh;
  try {
    fh = await open(path, 'r');
  } catch (err) {
    throw new ReadError(path, (err as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : String(err), { cause: err });
  }
  try {
    const buf = new Uint8Array(4);
    await fh.read(buf, 0, 4, 0);
    return buf;
  } finally {
    await fh.close();
  }
}

async function geoTiffRaster(path: string, box: readonly [number, number, number, number]): Promise<DemRaster> {
  let w;
  try {
    w = await readGeoTiffWindow(path, box);
  } catch (err) {
    throw new ReadError(path, `GeoTIFF: ${(err as Error).message}`, { cause: err });
  }
  const [lo, hi] = DEM_VARIABLES.elevation.validRange;
  for (let k = 0; k < w.values.length; k++) if (!(w.values[k]! >= lo && w.values[k]! <= hi)) w.values[k] = NaN;
  return {
    description: `${basename(path)} (GeoTIFF EPSG:${w.epsg}, ${formatSpacing(w.spacingM)})`,
    spacingM: w.spacingM,
    elevationAt(lat, lon) {
      const [x, y] = w.toCrs(lon, lat);
      return bilinearAt(w.values, w.nx, w.ny, (x - w.x0) / w.dx, (w.y0 - y) / w.dy);
    },
  };
}

async function modelGridRaster(path: string): Promise<DemRaster> {
  const mapped = mapFields(demProduct, (await readFile(path)).map((field) => ({ field, file: path })));
  const f = mapped.fields.find((c) => c.variable === 'elevation');
  if (!f) throw new IngestError(`${path}: no elevation field (a DEM or a model orography: orog, hsurf, z, ...)`);
  const grid: GridDef = f.grid;
  const values = f.values;
  // Rotated grids are near-uniform in their own degrees; lat/lon columns narrow by cos(latitude) (San Marino: 44° N).
  const spacingM = (grid.kind === 'rotated_ll' ? Math.min(grid.dx, grid.dy) : Math.min(grid.dy, grid.dx * Math.cos((44 * Math.PI) / 180))) * 111_195;
  const kind = grid.kind === 'rotated_ll' ? 'rotated lat/lon' : 'lat/lon';
  return {
    description: `${basename(path)} (${kind} ${formatSpacing(spacingM)}, field ${f.source})`,
    spacingM,
    elevationAt(lat, lon) {
      const g = gridIndexOf(grid, lat, lon);
      return g ? bilinearAt(values, grid.nx, grid.ny, g.x, g.y) : NaN;
    },
  };
}

function formatSpacing(m: number): string {
  return m < 1000 ? `${Math.round(m)} m` : `${(m / 1000).toFixed(1)} km`;
}
