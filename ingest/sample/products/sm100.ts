/**
 * Sample product `sm100`: the real terrain (../terrain.ts) over San Marino at 0.0003°
 * (~30 m, the spacing of Copernicus GLO-30) as a CF NetCDF4 DEM, ingested
 * with `ingest sm100`, which then downscales the sample nwp onto the 100 m
 * grid (so a Developer demo key sees San Marino answered by sm100).
 */
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { gridBounds } from '../../../geo/grid.js';
import { SM100_GRID } from '../../products/sm100/grid.js';
import { SM100_TERRAIN_STORE } from '../../products/sm100/terrain.js';
import { CfNetcdfWriter } from '../netcdf-writer.js';
import { cellCentres, globalAttrs } from '../netcdf-common.js';
import type { SampleStep } from '../step.js';
import { terrainOnGrid } from '../terrain.js';

const SPACING_DEG = 0.0003;

/** The DEM's grid: the sm100 grid's box plus one DEM pixel. */
function demGrid(): RegularLatLonGrid {
  const [w, s, e, n] = gridBounds(SM100_GRID);
  const x0 = +(w - SPACING_DEG).toFixed(4);
  const y0 = +(s - SPACING_DEG).toFixed(4);
  return { kind: 'regular_ll', x0, y0, dx: SPACING_DEG, dy: SPACING_DEG, nx: Math.ceil((e - x0) / SPACING_DEG) + 2, ny: Math.ceil((n - y0) / SPACING_DEG) + 2 };
}

export const sm100Sample: SampleStep = {
  product: 'sm100',
  stores: ['sm100', SM100_TERRAIN_STORE],
  describe: () => {
    const g = demGrid();
    return `sample San Marino DEM: ${g.nx}×${g.ny} cells at ~30 m, then sm100 from the sample nwp`;
  },
  async generate(c) {
    const grid = demGrid();
    const file = join(c.dir, 'meteopunto-sample-dem-san-marino.nc');
    const terrain = await terrainOnGrid(grid, true);
    const w = await CfNetcdfWriter.create(file, cellCentres(grid.y0, grid.dy, grid.ny), cellCentres(grid.x0, grid.dx, grid.nx), globalAttrs(c.run, 'digital elevation model (San Marino)'));
    try {
      w.addStatic('orog', terrain.elevationM, { units: 'm', standard_name: 'surface_altitude', long_name: 'surface altitude (ARPA-SIMC 1 km DEM of northern Italy, else ICON-2I orography; interpolated)' });
    } finally {
      w.close();
    }
    return [file];
  },
};
