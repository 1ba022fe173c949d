/**
 * Reanalysis case of `npm run bench`: one year of hourly
 * Italy at 0.25° in the ERA5 CDS NetCDF layout (12 monthly NetCDF4 files,
 * int16 packed like the CDS delivers them, generated once into a temp dir:
 * t2m, d2m, msl, u10, v10, i10fg, tcc, tp, ssrd, strd, fdir and z), then:
 *
 * - `meteopunto ingest reanalysis` of the 12 files (runIngest): seconds
 *   (target ≤ 60 s on the 2-core machine) and the year's store size;
 * - warm `time=` lookup (WeatherService.tryObserve of the Free fields at a
 *   time in that year; target: as fast as the forecast lookup), µs;
 * - cold `time=` lookup (a fresh tile store per point: manifest, chunks read
 *   and decoded), ms.
 *
 * BENCH_REANALYSIS_DAYS (default 365) shortens the year for a quick check.
 * Run it alone: `node dist/bench/reanalysis.js`.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { PublishedProducts } from '../api/router/published.js';
import { WeatherService } from '../api/weather/service.js';
import { processEnv } from '../config/process-env.js';
import { integerSetting } from '../config/environment.js';
import { runIngest } from '../ingest/pipeline.js';
import { CfNetcdfWriter, int16Range, type Packing } from '../ingest/sample/netcdf-writer.js';
import { TileStore } from '../tiles/read/reader.js';

const YEAR = 1995;
const NX = 67;
const NY = 57;
const LON0 = 4.5;
const LAT0 = 34.5;
const STEP = 0.25;
const HOUR = 3_600_000;
const HOURS_SINCE_1900 = (ms: number) => (ms - Date.UTC(1900, 0, 1)) / HOUR;

const VARS: { name: string; units: string; long: string; packing: Packing; f: (lat: number, lon: number, h: number) => number }[] = [
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

async function writeYear(dir: string, days: number): Promise<string[]> {
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

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

const NO_GROUPS: ReadonlySet<never> = new Set();

/** Cache for the warm time= lookups: the year's blocks the 500 points touch. */
const WARM_CACHE_BYTES = 4 * 1024 ** 3;

export async function runReanalysisBench(): Promise<void> {
  const days = integerSetting(processEnv(), 'BENCH_REANALYSIS_DAYS', 365);
  const work = mkdtempSync(join(tmpdir(), 'mp-bench-rean-'));
  try {
    const inputs = join(work, 'inputs');
    mkdirSync(inputs);
    let t = performance.now();
    const files = await writeYear(inputs, days);
    console.log(`reanalysis bench: ${files.length} ERA5-layout NetCDF4 files, ${days} days hourly, ${NX}×${NY} cells at 0.25°, ${VARS.length} variables + z, written in ${((performance.now() - t) / 1000).toFixed(1)} s (${(dirBytes(inputs) / 2 ** 20).toFixed(0)} MiB)`);
    const root = join(work, 'data');
    t = performance.now();
    const r = await runIngest({ root, product: 'reanalysis', files, source: { model: 'ERA5' } });
    const ingestS = (performance.now() - t) / 1000;
    const store = dirBytes(join(root, 'tiles', 'reanalysis', String(YEAR)));
    console.log(`  ingest reanalysis: ${ingestS.toFixed(1)} s for ${r.times} steps × ${r.variables.length} variables (target ≤ 60 s for a year); store ${(store / 2 ** 20).toFixed(1)} MiB`);

    const timeMs = Date.UTC(YEAR, 0, 1) + Math.floor((days * 24) / 2) * HOUR + 30 * 60_000;
    const points = Array.from({ length: 500 }, (_, k) => ({ lat: 37 + ((k * 7919) % 1000) / 1000 * 9.5, lon: 7 + ((k * 104_729) % 1000) / 1000 * 11, timeMs, plan: 'free' as const, groups: NO_GROUPS }));
    const cold: number[] = [];
    for (const p of points.slice(0, 50)) {
      const tiles = new TileStore(root);
      const service = new WeatherService(tiles, new PublishedProducts(tiles, root));
      const c = performance.now();
      await service.observe(p);
      cold.push(performance.now() - c);
    }
    // Every block spans the whole year (8,760 steps): the warm phase needs them all cached, more than the
    // default budget sized for forecast stores, so it gets its own (the cold phase above keeps the default).
    const tiles = new TileStore(root, { cacheBytes: WARM_CACHE_BYTES });
    const service = new WeatherService(tiles, new PublishedProducts(tiles, root));
    for (const p of points) await service.observe(p);
    const warm: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (const p of points) {
        const c = process.hrtime.bigint();
        if (!service.tryObserve(p)) throw new Error('time= lookup was not warm');
        warm.push(Number(process.hrtime.bigint() - c) / 1000);
      }
    }
    const median = (a: number[]) => a.sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
    console.log(`  time= lookup (Free fields, ${new Date(timeMs).toISOString()}): warm median ${median(warm).toFixed(2)} µs over ${warm.length} (${(tiles.cacheStats().bytes / 2 ** 20).toFixed(0)} MiB of decoded blocks); cold (fresh tile store) median ${median(cold).toFixed(1)} ms over ${cold.length}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await runReanalysisBench();
