/**
 * The reanalysis bench's input: one year of hourly Italy at 0.25° in the
 * ERA5 CDS NetCDF layout (12 monthly NetCDF4 files, int16 packed like the CDS
 * delivers them: t2m, d2m, msl, u10, v10, i10fg, tcc, tp, ssrd, strd, fdir,
 * and z in January's file), smooth synthetic fields with a daily and a
 * yearly cycle. Also runnable alone to keep a year for profiling:
 * `node dist/bench/era5-year.js <dir> [days]`.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CfNetcdfWriter, int16Range, type Packing } from '../ingest/sample/netcdf-writer.js';

export const YEAR = 1995;
export const NX = 67;
export const NY = 57;
const LON0 = 4.5;
const LAT0 = 34.5;
const STEP = 0.25;
const HOUR = 3_600_000;
const HOURS_SINCE_1900 = (ms: number) => (ms - Date.UTC(1900, 0, 1)) / HOUR;

export const VARS: { name: string; units: string; long: string; packing: Packing; f: (lat: number, lon: number, h: number) => number }[] = [
  { name: 't2m', units: 'K', long: '2 metre temperature', packing: int16Range(220, 330), f: (la, lo, h) => 288 - 0.6 * (la - 40) + 8 * Math.sin((2 * Math.PI * (h % 24 - 9)) / 24) + 10 * Math.sin((2 * Math.PI * (h / 24 - 100)) / 365) + 0.1 * lo },
  { name: 'd2m', units: 'K', long: '2 metre dewpoint temperature', packing: int16Range(200, 320), f: (la, lo, h) => 280 - 0.6 * (la - 40) + 6 * Math.sin((2 * Math.PI * (h / 24 - 100)) / 365) + 0.05 * lo },
  { name: 'msl', units: 'Pa', long: 'Mean sea level pressure', packing: int16Range(94000, 106000), f: (la, lo, h) => 101300 + 800 * Math.sin(la / 3 + h / 50) + 300 * Math.cos(lo / 4) },
  { name: 'u10', units: 'm s**-1', long: '10 metre U wind component', packing: int16Range(-60, 60), f: (la, _lo, h) => 4 * Math.sin(la / 2 + h / 30) },
  { name: 'v10', units: 'm s**-1', long: '10 metre V wind component', packing: int16Range(-60, 60), f: (_la, lo, h) => 3 * Math.cos(lo / 2 + h / 40) },
  { name: 'i10fg', units: 'm s**-1', long: 'Instantaneous 10 metre wind gust', packing: int16Range(0, 80), f: (la, _lo, h) => 8 + 5 * Math.abs(Math.sin(la / 2 + h / 30)) },
  { name: 'tcc', units: '(0 - 1)', long: 'Total cloud cover', packing: int16Range(0, 1), f: (la, lo, h) => 0.5 + 0.5 * Math.sin(la + lo + h / 20) },
  { name: 'tp', units: 'm', long: 'Total precipitation', packing: int16Range(0, 0.1), f: (la, _lo, h) => Math.max(0, 0.001 * Math.sin(la * 2 + h / 10)) },
  { name: 'ssrd', units: 'J m**-2', long: 'Surface short-wave (solar) radiation downwards', packing: int16Range(0, 4e6), f: (_la, _lo, h) => Math.max(0, 3e6 * Math.sin((2 * Math.PI * (h % 24 - 6)) / 24)) },
  { name: 'strd', units: 'J m**-2', long: 'Surface thermal radiation downwards', packing: int16Range(0, 2e6), f: (la) => 1.1e6 - 5e3 * (la - 40) },
  { name: 'fdir', units: 'J m**-2', long: 'Total sky direct solar radiation at surface', packing: int16Range(0, 4e6), f: (_la, _lo, h) => Math.max(0, 2e6 * Math.sin((2 * Math.PI * (h % 24 - 6)) / 24)) },
];

export async function writeEra5Year(dir: string, days: number): Promise<string[]> {
  const lat = Float64Array.from({ length: NY }, (_, j) => LAT0 + j * STEP);
  const lon = Float64Array.from({ length: NX }, (_, i) => LON0 + i * STEP);
  const files: string[] = [];
  const start = Date.UTC(YEAR, 0, 1);
  const end = start + days * 24 * HOUR;
  for (let m = 0; m < 12; m++) {
    const from = Math.max(start, Date.UTC(YEAR, m, 1));
    const to = Math.min(end, Date.UTC(YEAR, m + 1, 1));
    if (from >= to) break;
    const path = join(dir, `era5-italy-${YEAR}-${String(m + 1).padStart(2, '0')}.nc`);
    const w = await CfNetcdfWriter.create(path, lat, lon, { Conventions: 'CF-1.6', history: 'meteopunto bench: ERA5 CDS layout' });
    w.defineTime('hours since 1900-01-01 00:00:00.0', HOURS_SINCE_1900(from));
    if (m === 0) {
      const z = new Float32Array(NX * NY);
      for (let j = 0; j < NY; j++) for (let i = 0; i < NX; i++) z[j * NX + i] = 9.80665 * Math.max(0, 600 + 800 * Math.sin((LAT0 + j * STEP) * 0.7) * Math.cos((LON0 + i * STEP) * 0.9));
      w.addStatic('z', z, { units: 'm**2 s**-2', long_name: 'Geopotential', standard_name: 'geopotential' });
    }
    for (const v of VARS) w.defineTimed({ name: v.name, attrs: { units: v.units, long_name: v.long }, packing: v.packing });
    for (let t = from; t < to; t += HOUR) {
      const h = HOURS_SINCE_1900(t);
      const values: Record<string, Float32Array> = {};
      for (const v of VARS) {
        const a = new Float32Array(NX * NY);
        for (let j = 0; j < NY; j++) for (let i = 0; i < NX; i++) a[j * NX + i] = v.f(LAT0 + j * STEP, LON0 + i * STEP, h);
        values[v.name] = a;
      }
      w.appendStep(h, values);
    }
    w.close();
    files.push(path);
  }
  return files;
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const files = await writeEra5Year(process.argv[2] ?? '.', Number(process.argv[3] ?? 365));
  console.log(files.join('\n'));
}
