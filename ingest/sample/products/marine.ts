/**
 * Sample product `marine`: two CF NetCDF4 files on one 1/24° grid over the
 * sample's extent, hourly over the sample's times, NaN over the analytic
 * terrain's land (../terrain.ts):
 *
 * - an SST file named and laid out like the Copernicus Marine MED SST L4
 *   (`analysed_sst` in kelvin, time in seconds since 1981-01-01, GHRSST);
 * - a wave file like the MEDSEA wave analysis and forecast (`VHM0` m,
 *   `VMDR` degree from, `VTM10` and `VTPK` s, CF standard names).
 *
 * One grid for both so that the store keeps both (a store has one grid).
 * Values are synthetic and plausible (labelled SAMPLE in the files and the
 * manifest): SST by latitude and season, a swell train from the north-west
 * (maestrale) whose height comes and goes over a day and a half.
 */
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { CfNetcdfWriter } from '../netcdf-writer.js';
import { cellCentres, globalAttrs } from '../netcdf-common.js';
import { fbm, seedFromTime } from '../noise.js';
import type { SampleStep } from '../step.js';
import { terrainOnGrid } from '../terrain.js';

/** 1/24°, the MEDSEA wave model grid spacing. */
const STEP = 1 / 24;
const GHRSST_EPOCH_MS = Date.UTC(1981, 0, 1);

export const marineSample: SampleStep = {
  product: 'marine',
  describe: (c) => `sample marine (SST and waves): ${marineGrid(c.nwpGrid).nx}×${marineGrid(c.nwpGrid).ny} cells at 1/24°, ${c.times.length} hourly steps`,
  async generate(c) {
    const grid = marineGrid(c.nwpGrid);
    const day = c.run.toISOString().slice(0, 10).replace(/-/g, '');
    const sst = join(c.dir, `${day}000000-meteopunto-sample-L4_GHRSST-SSTfnd-MED.nc`);
    const waves = join(c.dir, `meteopunto-sample-MEDSEA-waves-${day}.nc`);
    await writeMarineFiles(sst, waves, grid, c.run, c.times, c.signal);
    return [sst, waves];
  },
};

/** The 1/24° grid covering the sample's NWP extent. */
export function marineGrid(nwp: RegularLatLonGrid): RegularLatLonGrid {
  const x1 = nwp.x0 + (nwp.nx - 1) * nwp.dx;
  const y1 = nwp.y0 + (nwp.ny - 1) * nwp.dy;
  return { kind: 'regular_ll', x0: nwp.x0, y0: nwp.y0, dx: STEP, dy: STEP, nx: Math.floor((x1 - nwp.x0) / STEP + 1e-9) + 1, ny: Math.floor((y1 - nwp.y0) / STEP + 1e-9) + 1 };
}

async function writeMarineFiles(sstPath: string, wavesPath: string, grid: RegularLatLonGrid, run: Date, times: Date[], signal?: AbortSignal): Promise<void> {
  const land = (await terrainOnGrid(grid)).land;
  const lat = cellCentres(grid.y0, grid.dy, grid.ny);
  const lon = cellCentres(grid.x0, grid.dx, grid.nx);
  const seed = seedFromTime(run.getTime()) + 77;
  const cells = grid.nx * grid.ny;
  const noise = new Float32Array(cells);
  for (let j = 0; j < grid.ny; j++) for (let i = 0; i < grid.nx; i++) noise[j * grid.nx + i] = fbm(lon[i]! * 0.8, lat[j]! * 0.8, seed, 3);

  const sst = await CfNetcdfWriter.create(sstPath, lat, lon, { ...globalAttrs(run, 'sea surface temperature (GHRSST L4 layout)'), gds_version_id: '2.0' });
  const waves = await CfNetcdfWriter.create(wavesPath, lat, lon, globalAttrs(run, 'wave analysis and forecast (MEDSEA layout)'));
  try {
    sst.defineTime('seconds since 1981-01-01 00:00:00', (run.getTime() - GHRSST_EPOCH_MS) / 1000);
    sst.defineTimed({ name: 'analysed_sst', packing: { kind: 'float32' }, attrs: { units: 'kelvin', standard_name: 'sea_surface_foundation_temperature', long_name: 'analysed sea surface temperature' } });
    waves.defineTime(`hours since ${run.toISOString().slice(0, 19).replace('T', ' ')}`, 0);
    const wave = (name: string, units: string, standard: string, long: string) =>
      waves.defineTimed({ name, packing: { kind: 'float32' }, attrs: { units, standard_name: standard, long_name: long } });
    wave('VHM0', 'm', 'sea_surface_wave_significant_height', 'Spectral significant wave height (Hm0)');
    wave('VMDR', 'degree', 'sea_surface_wave_from_direction', 'Mean wave direction from (Mdir)');
    wave('VTM10', 's', 'sea_surface_wave_mean_period_from_variance_spectral_density_inverse_frequency_moment', 'Spectral moments (-1,0) wave period (Tm-10)');
    wave('VTPK', 's', 'sea_surface_wave_period_at_variance_spectral_density_maximum', 'Wave period at spectral peak / peak period (Tp)');

    for (const t of times) {
      signal?.throwIfAborted();
      const doy = (t.getTime() - Date.UTC(t.getUTCFullYear(), 0, 0)) / 86_400_000;
      const hours = (t.getTime() - run.getTime()) / 3_600_000;
      const season = Math.cos(((doy - 225) / 365) * 2 * Math.PI); // 1 in mid-August, −1 in mid-February
      const afternoon = Math.sin(((t.getUTCHours() - 9) / 24) * 2 * Math.PI);
      const rec = { sst: new Float32Array(cells), hs: new Float32Array(cells), dir: new Float32Array(cells), tm: new Float32Array(cells), tp: new Float32Array(cells) };
      for (let j = 0; j < grid.ny; j++) {
        for (let i = 0; i < grid.nx; i++) {
          const k = j * grid.nx + i;
          if (land[k]) {
            rec.sst[k] = rec.hs[k] = rec.dir[k] = rec.tm[k] = rec.tp[k] = NaN;
            continue;
          }
          const n = noise[k]!;
          // Mediterranean SST: ~13–15 °C in February, 24–27 °C in August, colder to the north.
          rec.sst[k] = 273.15 + 19.5 - 0.35 * (lat[j]! - 40) + (5.5 + 0.15 * (lat[j]! - 40)) * season + 0.3 * afternoon + 1.2 * (n - 0.5);
          const swell = 0.5 + 0.5 * Math.sin((hours / 36) * 2 * Math.PI + lon[i]! * 0.4);
          const hs = 0.15 + 2.2 * swell * (0.4 + n);
          rec.hs[k] = hs;
          rec.dir[k] = (((305 + 40 * (n - 0.5) + 15 * Math.sin(hours / 10)) % 360) + 360) % 360;
          rec.tm[k] = 2.2 + 2.4 * Math.sqrt(hs);
          rec.tp[k] = 1.25 * rec.tm[k]!;
        }
      }
      sst.appendStep((t.getTime() - GHRSST_EPOCH_MS) / 1000, { analysed_sst: rec.sst });
      waves.appendStep(hours, { VHM0: rec.hs, VMDR: rec.dir, VTM10: rec.tm, VTPK: rec.tp });
    }
  } finally {
    sst.close();
    waves.close();
  }
}
