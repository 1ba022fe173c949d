/**
 * The static part of sm100: each 100 m cell's elevation as the area mean of
 * a DEM over the cell, stored as its own static store `sm100-dem` (no feeds:
 * the router never answers from it; the downscaling reads it).
 *
 * Area mean by sub-sampling: the DEM is interpolated bilinearly at n × n
 * points spread evenly over the cell (centres of n × n sub-cells) and
 * averaged, n = ⌈100 m / DEM spacing⌉ between 1 and 10. With a 10–30 m DEM
 * (TINITALY, Copernicus GLO-30) every DEM pixel in the cell contributes: the
 * area mean. A DEM coarser than the cell (the 1 km test DEM) gives n = 1,
 * the bilinear value at the centre: smooth, with no detail finer than the DEM.
 */
import { basename } from 'node:path';
import { cellLatLon, gridBounds } from '../../../geo/grid.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import type { PublishResult } from '../../../tiles/types.js';
import { inRegion } from '../../../geo/in-region.js';
import { variableMeta } from '../store-meta.js';
import { IngestError } from '../../ingest-types.js';
import { DEM_VARIABLES } from '../dem/variables.js';
import { openDemRaster, type DemRaster } from './dem-raster.js';
import { SM100_GRID, SM100_REGION } from './grid.js';

/** The store holding the 100 m elevation. */
export const SM100_TERRAIN_STORE = 'sm100-dem';

/** Sub-samples per cell side for a DEM of `spacingM`. */
export function subSamplesPerSide(spacingM: number, cellM = 100): number {
  return Math.min(10, Math.max(1, Math.ceil(cellM / spacingM - 1e-9)));
}

/** The 100 m elevation grid (row-major, SM100_GRID) from a DEM raster; NaN where the DEM has no value. */
export function cellMeanElevation(dem: DemRaster): Float32Array {
  const g = SM100_GRID;
  const n = subSamplesPerSide(dem.spacingM);
  const out = new Float32Array(g.nx * g.ny);
  for (let j = 0; j < g.ny; j++) {
    for (let i = 0; i < g.nx; i++) {
      let sum = 0;
      let count = 0;
      for (let b = 0; b < n; b++) {
        for (let a = 0; a < n; a++) {
          const p = cellLatLon(g, i + (a + 0.5) / n - 0.5, j + (b + 0.5) / n - 0.5);
          const z = dem.elevationAt(p.lat, p.lon);
          if (z === z) {
            sum += z;
            count++;
          }
        }
      }
      out[j * g.nx + i] = count > 0 ? sum / count : NaN;
    }
  }
  return out;
}

export interface TerrainReport {
  published: PublishResult;
  description: string;
  subSamples: number;
  /** Min and max cell elevation inside San Marino, m. */
  rangeInside: [number, number];
}

/** Build and publish `sm100-dem` from a DEM file. IngestError when the DEM leaves part of San Marino without a value. */
export async function ingestTerrain(root: string, demFile: string, opts: { sample?: boolean } = {}): Promise<TerrainReport> {
  const dem = await openDemRaster(demFile, gridBounds(SM100_GRID));
  const elevation = cellMeanElevation(dem);
  let missing = 0;
  let lo = Infinity;
  let hi = -Infinity;
  for (let j = 0; j < SM100_GRID.ny; j++) {
    for (let i = 0; i < SM100_GRID.nx; i++) {
      const p = cellLatLon(SM100_GRID, i, j);
      if (!inRegion(SM100_REGION, p.lat, p.lon)) continue;
      const z = elevation[j * SM100_GRID.nx + i]!;
      if (z !== z) missing++;
      else [lo, hi] = [Math.min(lo, z), Math.max(hi, z)];
    }
  }
  if (missing > 0) throw new IngestError(`${demFile}: ${dem.description} leaves ${missing} of San Marino's 100 m cells without an elevation (outside the DEM or no-data)`);
  const spec = DEM_VARIABLES.elevation;
  const subSamples = subSamplesPerSide(dem.spacingM);
  const published = await writeProductVersion(root, {
    product: SM100_TERRAIN_STORE,
    grid: SM100_GRID,
    times: [],
    variables: {
      elevation: { ...variableMeta(spec), longName: `${spec.longName} (mean over the 100 m cell)`, values: [elevation], static: true },
    },
    source: { files: [basename(demFile)], note: `${dem.description}; cell mean of ${subSamples} × ${subSamples} bilinear sub-samples`, ...(opts.sample ? { sample: true } : {}) },
    meta: { layout: 'static', region: SM100_REGION, feeds: [], priority: 0 },
  });
  return { published, description: dem.description, subSamples, rangeInside: [lo, hi] };
}
