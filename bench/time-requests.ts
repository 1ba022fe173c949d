/**
 * The `time=` half of the reanalysis section (./reanalysis.ts), on a data
 * directory holding an ingested ERA5 year of ./era5-year.ts:
 *
 * - `time=` across the year: WeatherService.observe of the Free fields at
 *   random points at random hours of the year (BENCH_TIME_REQUESTS, default
 *   5,000) on a tile store at its DEFAULT cache size, nothing loaded before:
 *   median, p99 (target {@link TIME_P99_TARGET_MS}), the cache held and the
 *   process's RSS growth over the requests, each against the budget; beside
 *   them what the p99 is made of: CPU per request and the collector's pauses
 *   (a miss decodes chunks, and their buffers are what the collector chases);
 * - warm `time=` lookup at one instant (tryObserve, 500 points, default
 *   cache), µs; cold (a fresh tile store per point: manifest, blocks read
 *   and decoded), ms.
 */
import { loadavg } from 'node:os';
import { PerformanceObserver } from 'node:perf_hooks';
import { PublishedProducts } from '../api/router/published.js';
import { WeatherService } from '../api/weather/service.js';
import { TileStore } from '../tiles/read/reader.js';
import { YEAR } from './era5-year.js';
import { mulberry32 } from './prng.js';
import type { Check } from './targets.js';

/** `time=` at random points and hours of one year, default cache: the interface's advertised typical latency. */
export const TIME_P99_TARGET_MS = 20;

const HOUR = 3_600_000;
const MIB = 2 ** 20;
const NO_GROUPS: ReadonlySet<never> = new Set();
const quantile = (sorted: readonly number[], q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;

/** Measure `time=` on the year ingested under `root` (`days` of it); targets go to `checks`. */
export async function measureTimeRequests(root: string, days: number, requests: number, checks: Check[]): Promise<void> {
  const whole = days >= 365 ? '' : ` (${days} days, not a whole year)`;
  const y0 = Date.UTC(YEAR, 0, 1);
  const hours = days * 24;
  const rnd = mulberry32(20261126);
  const tiles = new TileStore(root);
  const service = new WeatherService(tiles, new PublishedProducts(tiles));
  const lat: number[] = [];
  let gcMs = 0;
  const gc = new PerformanceObserver((l) => {
    for (const e of l.getEntries()) gcMs += e.duration;
  });
  gc.observe({ entryTypes: ['gc'] });
  const load0 = loadavg()[0]!;
  const cpu0 = process.cpuUsage();
  const rssBefore = process.memoryUsage().rss;
  for (let k = 0; k < requests; k++) {
    // From the fourth hour on, so that the trend's three hours back are in the year too.
    const p = { lat: 37 + rnd() * 9.5, lon: 7 + rnd() * 11, timeMs: y0 + (3 + rnd() * (hours - 4)) * HOUR, plan: 'free' as const, groups: NO_GROUPS };
    const c = performance.now();
    if (!service.tryObserve(p)) await service.observe(p);
    lat.push(performance.now() - c);
  }
  const cpu = process.cpuUsage(cpu0);
  const rssGrowth = process.memoryUsage().rss - rssBefore;
  // The collector's entries reach the observer from the event loop's check phase, which a run of misses read
  // synchronously (tiles/read/planar-block.ts) may never have reached: let them arrive before disconnecting.
  for (let k = 0; k < 3; k++) await new Promise((resolve) => setImmediate(resolve));
  gc.disconnect();
  lat.sort((a, b) => a - b);
  // The period store's blocks: the reader's history cache and its budget (tiles/read/cache-budget.ts).
  const st = tiles.cacheStats().history;
  const p99 = quantile(lat, 0.99);
  console.log(
    `  time= at random points and hours of ${YEAR} (Free fields, default cache ${(st.maxBytes / MIB).toFixed(0)} MiB, from cold, load ${load0.toFixed(1)}–${loadavg()[0]!.toFixed(1)}): ` +
      `median ${quantile(lat, 0.5).toFixed(2)} ms, p90 ${quantile(lat, 0.9).toFixed(1)} ms, p99 ${p99.toFixed(1)} ms, max ${lat[lat.length - 1]!.toFixed(1)} ms over ${requests}; ` +
      `CPU ${((cpu.user + cpu.system) / 1000 / requests).toFixed(2)} ms per request, collector pauses ${(gcMs / 1000).toFixed(1)} s in all; ` +
      `cache ${(st.bytes / MIB).toFixed(0)} MiB held, ${st.misses} blocks decoded, ${st.hits} hits; the process's RSS grew ${(rssGrowth / MIB).toFixed(0)} MiB`,
  );
  checks.push(
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
}
