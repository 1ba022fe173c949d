/**
 * Sample product `uv`: one NetCDF4 file laid out like CM SAF SARAH's
 * effective cloud albedo (`CAL`, dimensionless, time in seconds since
 * 1983-01-01, 0.05°), hourly over the sample's times and its extent.
 * Synthetic (labelled SAMPLE): cloud fields drifting east, clearer to the
 * south, so the demo's uv_index shows the satellite term.
 */
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { CfNetcdfWriter } from '../netcdf-writer.js';
import { cellCentres, globalAttrs } from '../netcdf-common.js';
import { fbm, seedFromTime } from '../noise.js';
import type { SampleStep } from '../step.js';

const STEP = 0.05;
const SARAH_EPOCH_MS = Date.UTC(1983, 0, 1);

export const uvSample: SampleStep = {
  product: 'uv',
  describe: (c) => `sample uv (satellite effective cloud albedo): ${uvGrid(c.nwpGrid).nx}×${uvGrid(c.nwpGrid).ny} cells at 0.05°, ${c.times.length} hourly slots`,
  async generate(c) {
    const file = join(c.dir, `CALin${c.run.toISOString().slice(0, 10).replace(/-/g, '')}-meteopunto-sample-SARAH.nc`);
    await writeCalFile(file, uvGrid(c.nwpGrid), c.run, c.times, c.signal);
    return [file];
  },
};

function uvGrid(nwp: RegularLatLonGrid): RegularLatLonGrid {
  const x1 = nwp.x0 + (nwp.nx - 1) * nwp.dx;
  const y1 = nwp.y0 + (nwp.ny - 1) * nwp.dy;
  return { kind: 'regular_ll', x0: nwp.x0, y0: nwp.y0, dx: STEP, dy: STEP, nx: Math.floor((x1 - nwp.x0) / STEP + 1e-9) + 1, ny: Math.floor((y1 - nwp.y0) / STEP + 1e-9) + 1 };
}

async function writeCalFile(path: string, grid: RegularLatLonGrid, run: Date, times: Date[], signal?: AbortSignal): Promise<void> {
  const lat = cellCentres(grid.y0, grid.dy, grid.ny);
  const lon = cellCentres(grid.x0, grid.dx, grid.nx);
  const cells = grid.nx * grid.ny;
  const seed = seedFromTime(run.getTime()) + 113;
  const f = await CfNetcdfWriter.create(path, lat, lon, globalAttrs(run, 'effective cloud albedo (CM SAF SARAH layout)'));
  try {
    f.defineTime('seconds since 1983-01-01 00:00:00', (run.getTime() - SARAH_EPOCH_MS) / 1000);
    f.defineTimed({ name: 'CAL', packing: { kind: 'float32' }, attrs: { units: '1', long_name: 'effective cloud albedo' } });
    for (const t of times) {
      signal?.throwIfAborted();
      const hours = (t.getTime() - run.getTime()) / 3_600_000;
      const cal = new Float32Array(cells);
      for (let j = 0; j < grid.ny; j++) {
        for (let i = 0; i < grid.nx; i++) {
          const n = fbm((lon[i]! - 0.15 * hours) * 0.9, lat[j]! * 0.9, seed, 4);
          cal[j * grid.nx + i] = Math.max(0, Math.min(0.95, 1.6 * (n - 0.35) + 0.03 * (lat[j]! - 40)));
        }
      }
      f.appendStep((t.getTime() - SARAH_EPOCH_MS) / 1000, { CAL: cal });
    }
  } finally {
    f.close();
  }
}
