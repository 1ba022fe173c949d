/**
 * Reanalysis section of `npm run bench` (history at speed): one year of
 * hourly Italy at 0.25° in the ERA5 CDS NetCDF layout (./era5-year.ts: 12
 * monthly NetCDF4 files, int16 packed like the CDS delivers them), then:
 *
 * - `meteopunto ingest reanalysis` of the 12 files in a child process
 *   (./reanalysis-ingest.ts): seconds and peak resident set, against
 *   {@link INGEST_SECONDS_TARGET} and {@link INGEST_RSS_TARGET_BYTES};
 * - `time=` across the year: WeatherService.observe of the Free fields at
 *   random points at random hours of the year (BENCH_TIME_REQUESTS, default
 *   5,000) on a tile store at its DEFAULT cache size, nothing loaded before:
 *   median, p99 (target {@link TIME_P99_TARGET_MS}), the cache held and the
 *   process's RSS growth over the requests, each against the cache budget;
 * - warm `time=` lookup at one instant (tryObserve, 500 points, default
 *   cache), µs; cold (a fresh tile store per point: manifest, blocks read
 *   and decoded), ms.
 *
 * BENCH_REANALYSIS_DAYS (default 365) shortens the year for a quick check
 * (the targets are for a whole year). Run it alone:
 * `BENCH_SECTIONS=reanalysis node dist/bench/run.js`.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { PublishedProducts } from '../api/router/published.js';
import { WeatherService } from '../api/weather/service.js';
import { processEnv } from '../config/process-env.js';
import { integerSetting } from '../config/environment.js';
import { TileStore } from '../tiles/read/reader.js';
import { NX, NY, VARS, YEAR, writeEra5Year } from './era5-year.js';
import { mulberry32 } from './prng.js';
import { ingestInChild } from './reanalysis-ingest.js';
import type { BenchContext } from './section.js';

/** One ERA5 year of Italy, hourly, on the 2-core machine. */
export const INGEST_SECONDS_TARGET = 60;
export const INGEST_RSS_TARGET_BYTES = 1024 ** 3;
/** `time=` at random points and hours of one year, default cache: the interface's advertised typical latency. */
export const TIME_P99_TARGET_MS = 20;

const HOUR = 3_600_000;
const MIB = 2 ** 20;

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

const NO_GROUPS: ReadonlySet<never> = new Set();
const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

export async function runReanalysisSection(ctx: Pick<BenchContext, 'checks'>): Promise<void> {
  const env = processEnv();
  const days = integerSetting(env, 'BENCH_REANALYSIS_DAYS', 365);
  const requests = integerSetting(env, 'BENCH_TIME_REQUESTS', 5000);
  const work = mkdtempSync(join(tmpdir(), 'mp-bench-rean-'));
  try {
    const inputs = join(work, 'inputs');
    mkdirSync(inputs);
    let t = performance.now();
    const files = await writeEra5Year(inputs, days);
    console.log(`reanalysis bench: ${files.length} ERA5-layout NetCDF4 files, ${days} days hourly, ${NX}×${NY} cells at 0.25°, ${VARS.length} variables + z, written in ${((performance.now() - t) / 1000).toFixed(1)} s (${(dirBytes(inputs) / MIB).toFixed(0)} MiB)`);
    const root = join(work, 'data');
    const ing = await ingestInChild(root, files);
    const store = dirBytes(join(root, 'tiles', 'reanalysis', String(YEAR)));
    console.log(`  ingest reanalysis (child process): ${ing.seconds.toFixed(1)} s (CPU ${ing.cpuSeconds.toFixed(1)} s, load ${loadavg()[0]!.toFixed(1)}), peak RSS ${(ing.peakRssBytes / MIB).toFixed(0)} MiB, for ${ing.times} steps × ${ing.variables} variables; store ${(store / MIB).toFixed(1)} MiB`);
    const whole = days >= 365 ? '' : ` (${days} days, not a whole year)`;
    ctx.checks.push(
      { what: `ERA5 year ingest, seconds${whole}`, measured: ing.seconds.toFixed(1), target: `≤ ${INGEST_SECONDS_TARGET}`, pass: ing.seconds <= INGEST_SECONDS_TARGET },
      { what: `ERA5 year ingest, peak RSS MiB${whole}`, measured: (ing.peakRssBytes / MIB).toFixed(0), target: `≤ ${INGEST_RSS_TARGET_BYTES / MIB}`, pass: ing.peakRssBytes <= INGEST_RSS_TARGET_BYTES },
    );

    // time= across the year at the default cache, from cold.
    const y0 = Date.UTC(YEAR, 0, 1);
    const hours = days * 24;
    const rnd = mulberry32(20261126);
    const tiles = new TileStore(root);
    const service = new WeatherService(tiles, new PublishedProducts(tiles));
    const lat: number[] = [];
    const rssBefore = process.memoryUsage().rss;
    for (let k = 0; k < requests; k++) {
      // From the fourth hour on, so that the trend's three hours back are in the year too.
      const p = { lat: 37 + rnd() * 9.5, lon: 7 + rnd() * 11, timeMs: y0 + (3 + rnd() * (hours - 4)) * HOUR, plan: 'free' as const, groups: NO_GROUPS };
      const c = performance.now();
      if (!service.tryObserve(p)) await service.observe(p);
      lat.push(performance.now() - c);
    }
    const rssGrowth = process.memoryUsage().rss - rssBefore;
    lat.sort((a, b) => a - b);
    const st = tiles.cacheStats();
    const p99 = quantile(lat, 0.99);
    console.log(`  time= at random points and hours of ${YEAR} (Free fields, default cache ${(st.maxBytes / MIB).toFixed(0)} MiB, from cold): median ${quantile(lat, 0.5).toFixed(2)} ms, p99 ${p99.toFixed(1)} ms, max ${lat[lat.length - 1]!.toFixed(1)} ms over ${requests}; cache ${(st.bytes / MIB).toFixed(0)} MiB held, ${st.misses} blocks decoded, ${st.hits} hits; the process's RSS grew ${(rssGrowth / MIB).toFixed(0)} MiB`);
    ctx.checks.push(
      { what: `time= random points and hours of a year, p99 ms${whole}`, measured: p99.toFixed(1), target: `≤ ${TIME_P99_TARGET_MS}`, pass: p99 <= TIME_P99_TARGET_MS },
      { what: 'time= random, decoded blocks held, MiB', measured: (st.bytes / MIB).toFixed(0), target: `≤ ${(st.maxBytes / MIB).toFixed(0)} (default budget)`, pass: st.bytes <= st.maxBytes },
      // What the requests left resident, blocks and all (freed buffers not yet collected count too): within the budget.
      { what: 'time= random, RSS growth over the requests, MiB', measured: (rssGrowth / MIB).toFixed(0), target: `≤ ${(st.maxBytes / MIB).toFixed(0)} (default budget)`, pass: rssGrowth <= st.maxBytes },
    );

    // One instant, warm and cold.
    const timeMs = y0 + Math.floor(hours / 2) * HOUR + 30 * 60_000;
    const points = Array.from({ length: 500 }, (_, k) => ({ lat: 37 + ((k * 7919) % 1000) / 1000 * 9.5, lon: 7 + ((k * 104_729) % 1000) / 1000 * 11, timeMs, plan: 'free' as const, groups: NO_GROUPS }));
    const cold: number[] = [];
    for (const p of points.slice(0, 50)) {
      const fresh = new TileStore(root);
      const s = new WeatherService(fresh, new PublishedProducts(fresh));
      const c = performance.now();
      await s.observe(p);
      cold.push(performance.now() - c);
    }
    for (const p of points) await service.observe(p);
    const warm: number[] = [];
    for (let round = 0; round < 10; round++) {
      for (const p of points) {
        const c = process.hrtime.bigint();
        if (!service.tryObserve(p)) throw new Error('time= lookup was not warm');
        warm.push(Number(process.hrtime.bigint() - c) / 1000);
      }
    }
    warm.sort((a, b) => a - b);
    cold.sort((a, b) => a - b);
    console.log(`  time= lookup (Free fields, ${new Date(timeMs).toISOString()}, default cache): warm median ${quantile(warm, 0.5).toFixed(2)} µs over ${warm.length}; cold (fresh tile store) median ${quantile(cold, 0.5).toFixed(1)} ms over ${cold.length}`);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
