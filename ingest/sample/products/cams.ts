/**
 * Sample product `cams`: a NetCDF3 classic file shaped like a CAMS European
 * regional forecast as the Atmosphere Data Store delivers it (ENSEMBLE
 * writer: variables `pm2p5_conc` … `rwpg_conc`, dims (time, level, latitude,
 * longitude), a level axis of size 1, latitude descending, time units
 * "hours" with the date in long_name "FORECAST time from YYYYMMDD", units
 * "µg/m3" and "grains/m3", _FillValue −999), 0.1° over the sample's extent,
 * hourly over the sample's times. The values are synthetic and plausible
 * (labelled SAMPLE in the file and the manifest): particulate matter and NO₂
 * highest in the Po plain and at night, ozone in the afternoon, pollen by
 * season.
 */
import { join } from 'node:path';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { PO_PLAIN } from '../geography.js';
import { globalAttrs } from '../netcdf-common.js';
import { Netcdf3Writer, type Nc3Variable } from '../netcdf3-writer.js';
import { fbm, seedFromTime } from '../noise.js';
import type { SampleStep } from '../step.js';

/** 0.1°, the CAMS European regional grid spacing. */
const STEP = 0.1;

/** Pollen season of each species: peak day of year, half-width in days, peak grains/m³ (Italian calendars, order of magnitude). */
const POLLEN = {
  apg_conc: { species: 'Alder Pollen Grain', peak: 50, width: 25, max: 60 },
  bpg_conc: { species: 'Birch Pollen Grain', peak: 105, width: 20, max: 80 },
  gpg_conc: { species: 'Grass Pollen Grain', peak: 140, width: 35, max: 50 },
  mpg_conc: { species: 'Mugwort Pollen Grain', peak: 225, width: 20, max: 15 },
  opg_conc: { species: 'Olive Pollen Grain', peak: 140, width: 18, max: 120 },
  rwpg_conc: { species: 'Ragweed Pollen Grain', peak: 245, width: 18, max: 40 },
} as const;

const POLLUTANTS = {
  pm2p5_conc: 'PM2.5 Aerosol',
  pm10_conc: 'PM10 Aerosol',
  no2_conc: 'Nitrogen Dioxide',
  o3_conc: 'Ozone',
  so2_conc: 'Sulphur Dioxide',
} as const;

export const camsSample: SampleStep = {
  product: 'cams',
  describe: (c) => `sample CAMS (air quality and pollen): ${camsGrid(c.nwpGrid).nx}×${camsGrid(c.nwpGrid).ny} cells at 0.1°, ${c.times.length} hourly steps`,
  async generate(c) {
    const file = join(c.dir, `meteopunto-sample-cams-${c.run.toISOString().slice(0, 10).replace(/-/g, '')}.nc`);
    writeCamsFile(file, camsGrid(c.nwpGrid), c.run, c.times);
    return [file];
  },
};

/** The 0.1° grid covering the sample's NWP extent. */
export function camsGrid(nwp: RegularLatLonGrid): RegularLatLonGrid {
  const x1 = nwp.x0 + (nwp.nx - 1) * nwp.dx;
  const y1 = nwp.y0 + (nwp.ny - 1) * nwp.dy;
  return { kind: 'regular_ll', x0: nwp.x0, y0: nwp.y0, dx: STEP, dy: STEP, nx: Math.floor((x1 - nwp.x0) / STEP + 1e-9) + 1, ny: Math.floor((y1 - nwp.y0) / STEP + 1e-9) + 1 };
}

function writeCamsFile(path: string, grid: RegularLatLonGrid, run: Date, times: Date[]): void {
  const day = new Date(Date.UTC(run.getUTCFullYear(), run.getUTCMonth(), run.getUTCDate()));
  const ymd = day.toISOString().slice(0, 10).replace(/-/g, '');
  // Latitude descending, as CAMS Europe writes it.
  const lat = Float32Array.from({ length: grid.ny }, (_, j) => +(grid.y0 + (grid.ny - 1 - j) * grid.dy).toFixed(3));
  const lon = Float32Array.from({ length: grid.nx }, (_, i) => +(grid.x0 + i * grid.dx).toFixed(3));
  const data = (name: string, units: string, species: string): Nc3Variable => ({
    name, dims: ['time', 'level', 'latitude', 'longitude'], attrs: { species, units, value: 'hourly values', standard_name: 'Not Defined', _FillValue: -999 },
  });
  const vars: Nc3Variable[] = [
    { name: 'longitude', dims: ['longitude'], attrs: { long_name: 'longitude', units: 'degrees_east' }, values: lon },
    { name: 'latitude', dims: ['latitude'], attrs: { long_name: 'latitude', units: 'degrees_north' }, values: lat },
    { name: 'level', dims: ['level'], attrs: { long_name: 'level', units: 'm' }, values: Float32Array.of(0) },
    { name: 'time', dims: ['time'], attrs: { long_name: `FORECAST time from ${ymd}`, units: 'hours' } },
    ...Object.entries(POLLUTANTS).map(([n, s]) => data(n, 'µg/m3', s)),
    ...Object.entries(POLLEN).map(([n, p]) => data(n, 'grains/m3', p.species)),
  ];
  const w = new Netcdf3Writer(path, [
    { name: 'longitude', length: grid.nx }, { name: 'latitude', length: grid.ny }, { name: 'level', length: 1 }, { name: 'time', length: 0 },
  ], {
    ...globalAttrs(run, 'CAMS-shaped air quality and pollen forecast'),
    FORECAST: `Europe, ${ymd}+[0H_96H] (SAMPLE)`,
  }, vars);
  try {
    const seed = seedFromTime(run.getTime());
    const cells = grid.nx * grid.ny;
    // Static pattern per cell: the Po plain and a noise field for "emissions".
    const plain = new Float32Array(cells);
    const noise = new Float32Array(cells);
    for (let j = 0; j < grid.ny; j++) {
      for (let i = 0; i < grid.nx; i++) {
        const la = lat[j]!;
        const lo = lon[i]!;
        const k = j * grid.nx + i;
        const e = ((la - PO_PLAIN.lat) / (PO_PLAIN.semiLat * 2)) ** 2 + ((lo - PO_PLAIN.lon) / (PO_PLAIN.semiLon * 1.3)) ** 2;
        plain[k] = Math.exp(-e);
        noise[k] = fbm(lo * 1.5, la * 1.5, seed, 3);
      }
    }
    for (const t of times) {
      const hour = t.getUTCHours() + 1; // local time in Italy, roughly
      const doy = (t.getTime() - Date.UTC(t.getUTCFullYear(), 0, 0)) / 86_400_000;
      const night = 0.5 + 0.5 * Math.cos(((hour - 2) / 24) * 2 * Math.PI); // 1 at 02, 0 at 14
      const sun = Math.max(0, Math.sin(((hour - 8) / 14) * Math.PI)); // afternoon ozone
      const winter = 0.5 + 0.5 * Math.cos(((doy - 15) / 365) * 2 * Math.PI);
      const rec: Record<string, Float32Array> = { time: Float32Array.of((t.getTime() - day.getTime()) / 3_600_000) };
      for (const n of [...Object.keys(POLLUTANTS), ...Object.keys(POLLEN)]) rec[n] = new Float32Array(cells);
      for (let k = 0; k < cells; k++) {
        const p = plain[k]!;
        const n = noise[k]!;
        const pm25 = 4 + 50 * p * (0.4 + 0.6 * winter) * (0.7 + 0.5 * night) + 8 * n;
        rec.pm2p5_conc![k] = pm25;
        rec.pm10_conc![k] = pm25 * 1.4 + 3 * n;
        rec.no2_conc![k] = 3 + 45 * p * (0.5 + 0.8 * night) + 15 * n * n;
        rec.o3_conc![k] = 35 + 75 * sun * (1 - 0.5 * winter) * (0.8 + 0.4 * n) - 20 * p * night;
        rec.so2_conc![k] = 0.5 + 4 * n * n + 3 * p;
        for (const [name, s] of Object.entries(POLLEN)) {
          const season = Math.exp(-(((doy - s.peak) / s.width) ** 2));
          rec[name]![k] = s.max * season * (0.3 + 1.2 * n) * (0.6 + 0.4 * Math.sin((hour / 24) * Math.PI));
        }
      }
      w.appendRecord(rec);
    }
  } finally {
    w.close();
  }
}
