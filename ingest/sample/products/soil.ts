/**
 * Sample product `soil`: one CF NetCDF4 file laid out like an ERA5-Land
 * download from the Climate Data Store (`swvl1`..`swvl4` m3 m-3, `stl1`..`stl4`
 * K, the static land-sea mask `lsm`), 0.1° over the sample's extent, hourly
 * over the sample's times. Values are synthetic and plausible (labelled
 * SAMPLE): moister soil on higher ground, the top layer following a daily
 * cycle around the season's mean, deeper layers damped and lagging. Over
 * the sea the file carries what ERA5 does (0 m³/m³, the sea's temperature),
 * so the land mask is what keeps it out of answers.
 */
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { CfNetcdfWriter } from '../netcdf-writer.js';
import { cellCentres, globalAttrs } from '../netcdf-common.js';
import { fbm, seedFromTime } from '../noise.js';
import type { SampleStep } from '../step.js';
import { terrainOnGrid } from '../terrain.js';

/** ERA5-Land's spacing. */
const STEP = 0.1;
/** Layer mid-depths, m, of 0–7, 7–28, 28–100, 100–289 cm: the daily cycle fades with depth. */
const MID_DEPTH_M = [0.035, 0.175, 0.64, 1.945];

export const soilSample: SampleStep = {
  product: 'soil',
  describe: (c) => `sample soil (4 layers): ${soilGrid(c.nwpGrid).nx}×${soilGrid(c.nwpGrid).ny} cells at 0.1°, ${c.times.length} hourly steps`,
  async generate(c) {
    const file = join(c.dir, `meteopunto-sample-era5-land-soil-${c.run.toISOString().slice(0, 10)}.nc`);
    await writeSoilFile(file, soilGrid(c.nwpGrid), c.run, c.times, c.signal);
    return [file];
  },
};

function soilGrid(nwp: RegularLatLonGrid): RegularLatLonGrid {
  const x1 = nwp.x0 + (nwp.nx - 1) * nwp.dx;
  const y1 = nwp.y0 + (nwp.ny - 1) * nwp.dy;
  return { kind: 'regular_ll', x0: nwp.x0, y0: nwp.y0, dx: STEP, dy: STEP, nx: Math.floor((x1 - nwp.x0) / STEP + 1e-9) + 1, ny: Math.floor((y1 - nwp.y0) / STEP + 1e-9) + 1 };
}

async function writeSoilFile(path: string, grid: RegularLatLonGrid, run: Date, times: Date[], signal?: AbortSignal): Promise<void> {
  const terrain = await terrainOnGrid(grid);
  const lat = cellCentres(grid.y0, grid.dy, grid.ny);
  const lon = cellCentres(grid.x0, grid.dx, grid.nx);
  const cells = grid.nx * grid.ny;
  const seed = seedFromTime(run.getTime()) + 91;
  const wet = new Float32Array(cells);
  for (let j = 0; j < grid.ny; j++) for (let i = 0; i < grid.nx; i++) wet[j * grid.nx + i] = fbm(lon[i]! * 1.2, lat[j]! * 1.2, seed, 3);

  const f = await CfNetcdfWriter.create(path, lat, lon, globalAttrs(run, 'soil moisture and temperature (ERA5-Land layout)'));
  try {
    f.addStatic('lsm', Float32Array.from(terrain.land, (l) => (l ? 1 : 0)), { units: '(0 - 1)', long_name: 'Land-sea mask', standard_name: 'land_binary_mask' });
    f.defineTime(`hours since ${run.toISOString().slice(0, 19).replace('T', ' ')}`, 0);
    for (let k = 1; k <= 4; k++) {
      f.defineTimed({ name: `swvl${k}`, packing: { kind: 'float32' }, attrs: { units: 'm**3 m**-3', long_name: `Volumetric soil water layer ${k}`, standard_name: 'volume_fraction_of_condensed_water_in_soil' } });
      f.defineTimed({ name: `stl${k}`, packing: { kind: 'float32' }, attrs: { units: 'K', long_name: `Soil temperature level ${k}`, standard_name: 'soil_temperature' } });
    }
    for (const t of times) {
      signal?.throwIfAborted();
      const doy = (t.getTime() - Date.UTC(t.getUTCFullYear(), 0, 0)) / 86_400_000;
      const season = Math.cos(((doy - 210) / 365) * 2 * Math.PI); // warmest soil in late July
      const day = Math.sin(((t.getUTCHours() - 8) / 24) * 2 * Math.PI); // top layer warmest mid-afternoon
      const rec: Record<string, Float32Array> = {};
      for (let k = 1; k <= 4; k++) {
        rec[`swvl${k}`] = new Float32Array(cells);
        rec[`stl${k}`] = new Float32Array(cells);
      }
      for (let j = 0; j < grid.ny; j++) {
        for (let i = 0; i < grid.nx; i++) {
          const c = j * grid.nx + i;
          const mean = 273.15 + 15 - 0.5 * (lat[j]! - 40) - 0.006 * terrain.elevationM[c]! + 9 * season;
          for (let k = 1; k <= 4; k++) {
            const damp = Math.exp(-MID_DEPTH_M[k - 1]! / 0.12);
            if (!terrain.land[c]) {
              rec[`swvl${k}`]![c] = 0;
              rec[`stl${k}`]![c] = 273.15 + 19 + 5 * season;
              continue;
            }
            rec[`swvl${k}`]![c] = 0.12 + 0.22 * wet[c]! + 0.00004 * terrain.elevationM[c]! + 0.02 * (k - 1);
            rec[`stl${k}`]![c] = mean + 6 * damp * day;
          }
        }
      }
      f.appendStep((t.getTime() - run.getTime()) / 3_600_000, rec);
    }
  } finally {
    f.close();
  }
}
