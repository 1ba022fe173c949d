/** Sample product `dem`: the real terrain (../terrain.ts, the 1 km DEM where it has data) at ~1 km, as a CF NetCDF4 file. */
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { CfNetcdfWriter } from '../netcdf-writer.js';
import { cellCentres, globalAttrs } from '../netcdf-common.js';
import type { SampleStep } from '../step.js';
import { terrainOnGrid } from '../terrain.js';

export const demSample: SampleStep = {
  product: 'dem',
  describe: (c) => `sample DEM: ${c.demGrid.nx}×${c.demGrid.ny} cells`,
  async generate(c) {
    const file = join(c.dir, 'meteopunto-sample-dem.nc');
    await writeDemFile(file, c.demGrid, c.run);
    return [file];
  },
};

async function writeDemFile(path: string, grid: RegularLatLonGrid, run: Date): Promise<void> {
  const terrain = await terrainOnGrid(grid, true);
  const w = await CfNetcdfWriter.create(path, cellCentres(grid.y0, grid.dy, grid.ny), cellCentres(grid.x0, grid.dx, grid.nx), globalAttrs(run, 'digital elevation model'));
  try {
    w.addStatic('orog', terrain.elevationM, { units: 'm', standard_name: 'surface_altitude', long_name: 'surface altitude (ARPA-SIMC 1 km DEM of northern Italy, else ICON-2I orography; interpolated)' });
  } finally {
    w.close();
  }
}
