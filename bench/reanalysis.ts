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
import { NX, NY, VARS, YEAR, writeEra5Year } from './era5-year.js';
import { TileStore } from '../tiles/read/reader.js';

const HOUR = 3_600_000;

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
    const files = await writeEra5Year(inputs, days);
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
