/**
 * Free-field point lookup of `npm run bench`: WeatherService.tryObserve of
 * the Free field set, assembly included (nwp now, nwp −3 h for the trend,
 * the DEM, condition, humidity, rounding), warm, median and p99 per call.
 */
import { PublishedProducts } from '../api/router/published.js';
import { WeatherService } from '../api/weather/service.js';
import { TileStore } from '../tiles/read/reader.js';
import { benchPoints } from './data.js';
import type { BenchContext } from './section.js';
import { BENCH_CACHE_BYTES } from './servers.js';

const NO_GROUPS: ReadonlySet<never> = new Set();

function quantile(sorted: Float64Array, q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Warm lookups of the Free field set; per-call timings in µs. */
export async function freeFieldLookup(root: string): Promise<{ medianUs: number; p99Us: number; n: number }> {
  const tiles = new TileStore(root, { cacheBytes: BENCH_CACHE_BYTES });
  const service = new WeatherService(tiles, new PublishedProducts(tiles));
  // Shaped as the route builds them (api/routes/weather.ts toObserveRequest): every property present.
  const points = benchPoints(2000).map((p) => ({ lat: p.lat, lon: p.lon, altM: p.altM, timeMs: undefined, plan: 'free' as const, groups: NO_GROUPS, only: undefined }));
  for (const p of points) await service.observe(p); // load every chunk the points touch
  const rounds = 25;
  const us = new Float64Array(points.length * rounds);
  let n = 0;
  let sink = 0;
  for (let r = 0; r < rounds; r++) {
    for (const p of points) {
      const t = process.hrtime.bigint();
      const f = service.tryObserve(p);
      us[n++] = Number(process.hrtime.bigint() - t) / 1000;
      if (!f) throw new Error('benchmark lookup was not warm');
      sink += (f.temperature as number | null) ?? 0;
    }
  }
  if (!Number.isFinite(sink)) console.log(sink);
  us.sort();
  return { medianUs: quantile(us, 0.5), p99Us: quantile(us, 0.99), n };
}

export async function runFreeFieldSection(ctx: BenchContext): Promise<void> {
  const free = await freeFieldLookup(ctx.root);
  console.log(`free-field point lookup (warm, assembly included): median ${free.medianUs.toFixed(2)} µs, p99 ${free.p99Us.toFixed(2)} µs over ${free.n} lookups (target: median < 20 µs)`);
}
