/**
 * Sample product `nwp`: a CF NetCDF4 file shaped like an ERA5/IFS forecast
 * (ERA5 names and units, int16 packed), synthetic weather on the analytic
 * terrain (../weather.ts), hourly over the sample's times.
 */
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { CfNetcdfWriter, int16Range, type Packing } from '../netcdf-writer.js';
import { cellCentres, globalAttrs } from '../netcdf-common.js';
import { seedFromTime } from '../noise.js';
import type { SampleStep } from '../step.js';
import { terrainOnGrid } from '../terrain.js';
import { SAMPLE_VARIABLES, weatherAt, weatherContext, type SampleVariable } from '../weather.js';

/** Per variable: NetCDF attributes (ERA5 names and units) and int16 packing range. */
const VARIABLE_META: Record<SampleVariable, { attrs: Record<string, string>; packing: Packing }> = {
  t2m: { attrs: { units: 'K', standard_name: 'air_temperature', long_name: '2 metre temperature' }, packing: int16Range(200, 340) },
  d2m: { attrs: { units: 'K', standard_name: 'dew_point_temperature', long_name: '2 metre dewpoint temperature' }, packing: int16Range(190, 320) },
  msl: { attrs: { units: 'Pa', standard_name: 'air_pressure_at_mean_sea_level', long_name: 'Mean sea level pressure' }, packing: int16Range(94_000, 106_000) },
  sp: { attrs: { units: 'Pa', standard_name: 'surface_air_pressure', long_name: 'Surface pressure' }, packing: int16Range(50_000, 108_000) },
  u10: { attrs: { units: 'm s**-1', standard_name: 'eastward_wind', long_name: '10 metre U wind component' }, packing: int16Range(-40, 40) },
  v10: { attrs: { units: 'm s**-1', standard_name: 'northward_wind', long_name: '10 metre V wind component' }, packing: int16Range(-40, 40) },
  i10fg: { attrs: { units: 'm s**-1', standard_name: 'wind_speed_of_gust', long_name: 'Instantaneous 10 metre wind gust' }, packing: int16Range(0, 80) },
  tcc: { attrs: { units: '(0 - 1)', standard_name: 'cloud_area_fraction', long_name: 'Total cloud cover' }, packing: int16Range(0, 1) },
  tp: { attrs: { units: 'm', standard_name: 'lwe_thickness_of_precipitation_amount', long_name: 'Total precipitation', cell_methods: 'time: sum' }, packing: int16Range(0, 0.1) },
  sf: { attrs: { units: 'm of water equivalent', standard_name: 'lwe_thickness_of_snowfall_amount', long_name: 'Snowfall', cell_methods: 'time: sum' }, packing: int16Range(0, 0.1) },
  ssrd: { attrs: { units: 'J m**-2', standard_name: 'surface_downwelling_shortwave_flux_in_air', long_name: 'Surface short-wave (solar) radiation downwards', cell_methods: 'time: sum' }, packing: int16Range(0, 5e6) },
  fdir: { attrs: { units: 'J m**-2', long_name: 'Total sky direct solar radiation at surface', cell_methods: 'time: sum' }, packing: int16Range(0, 5e6) },
  strd: { attrs: { units: 'J m**-2', standard_name: 'surface_downwelling_longwave_flux_in_air', long_name: 'Surface thermal radiation downwards', cell_methods: 'time: sum' }, packing: int16Range(0, 2e6) },
  tco3: { attrs: { units: 'kg m**-2', standard_name: 'atmosphere_mass_content_of_ozone', long_name: 'Total column ozone' }, packing: int16Range(0.003, 0.012) },
  ww: { attrs: { units: '1', long_name: 'present weather, WMO code table 4677' }, packing: { kind: 'code' } },
};

export const nwpSample: SampleStep = {
  product: 'nwp',
  describe: (c) => `sample NWP: ${c.nwpGrid.nx}×${c.nwpGrid.ny} cells, ${c.times.length} hourly steps from ${c.run.toISOString()}`,
  async generate(c) {
    const stamp = c.run.toISOString().slice(0, 13).replace(/[-:]/g, '');
    const file = join(c.dir, `meteopunto-sample-nwp-${stamp}Z.nc`);
    await writeNwpFile(file, c.nwpGrid, c.run, c.times, c.signal);
    return [file];
  },
};

async function writeNwpFile(path: string, grid: RegularLatLonGrid, run: Date, times: Date[], signal?: AbortSignal): Promise<void> {
  const terrain = await terrainOnGrid(grid);
  const ctx = weatherContext(grid, terrain, run, seedFromTime(run.getTime()));
  const w = await CfNetcdfWriter.create(path, cellCentres(grid.y0, grid.dy, grid.ny), cellCentres(grid.x0, grid.dx, grid.nx), globalAttrs(run, 'NWP forecast'));
  try {
    const units = `hours since ${run.toISOString().slice(0, 19).replace('T', ' ')}`;
    w.defineTime(units, 0);
    const z = Float32Array.from(terrain.elevationM, (m) => m * 9.80665);
    w.addStatic('z', z, { units: 'm**2 s**-2', standard_name: 'surface_geopotential', long_name: 'Geopotential (model orography × g)' });
    for (const name of SAMPLE_VARIABLES) w.defineTimed({ name, attrs: VARIABLE_META[name].attrs, packing: VARIABLE_META[name].packing });
    for (const t of times) {
      signal?.throwIfAborted();
      w.appendStep((t.getTime() - run.getTime()) / 3_600_000, weatherAt(ctx, t));
    }
  } finally {
    w.close();
  }
}
