/**
 * weather.php at random points across Italy (a different point per request,
 * `points` long before it repeats) with the tile cache at its default size
 * and nothing loaded beforehand: what traffic spread over the whole country
 * costs, cold chunks included (decoded on demand during the warm-up second
 * and the measured requests), and what it leaves in memory.
 *
 * The memory check: after `requests` requests (BENCH_RANDOM_REQUESTS, default
 * 1,000,000) the server's resident set must stay within its tile cache budget
 * (the size the cache was configured with, not what it filled) plus
 * {@link SERVER_OVERHEAD_BYTES} for everything else the process holds.
 */
import type { ChildProcess } from 'node:child_process';
import { processEnv } from '../config/process-env.js';
import { integerSetting } from '../config/environment.js';
import { benchPoints } from './data.js';
import { measureWith, type HttpBenchOptions } from './http.js';
import type { LoadResult } from './rounds.js';
import { askChild, withServer } from './servers.js';
import { randomChecks } from './targets.js';
import { pointRead, type BenchContext } from './section.js';

/**
 * What a weather.php server holds besides its tile cache, stated: Node and
 * V8 (code, heap, the young generation between collections), Fastify and its
 * compiled schemas, the store manifests, the key and quota state. A server
 * started on the bench data with an empty cache sits at about 100–130 MiB.
 */
export const SERVER_OVERHEAD_BYTES = 200 * 2 ** 20;

export interface ServerMemory {
  rss: number;
  /** The largest resident set the process has had (./peak-rss.ts). */
  peakRss: number;
  cache: { bytes: number; maxBytes: number };
}

export interface RandomPointsResult extends LoadResult {
  /** Requests answered in the warm-up second before the measured ones. */
  warmupRequests: number;
  /** Server memory before the first request and after the last one. */
  before: ServerMemory;
  after: ServerMemory;
}

/** The server child's resident memory and tile cache (bench/servers.ts serveChild). */
function serverMemory(child: ChildProcess): Promise<ServerMemory> {
  return askChild(child, 'memory');
}

export async function runRandomPointsBench(
  opts: Omit<HttpBenchOptions, 'keys'> & { apiKey: string; requests: number },
): Promise<RandomPointsResult> {
  return withServer('weather-auto', opts.dataDir, [], async (child, base) => {
    const before = await serverMemory(child);
    const r = await measureWith('weather-auto', child, base, { ...opts, keys: [] }, opts.apiKey, { requests: opts.requests });
    const after = await serverMemory(child);
    return { ...r, warmupRequests: r.warmupRequests ?? 0, before, after };
  });
}

export interface MemoryVerdict {
  budgetBytes: number;
  pass: boolean;
}

/** RSS after the run against the configured cache size plus the stated overhead. */
export function memoryVerdict(after: ServerMemory, overheadBytes = SERVER_OVERHEAD_BYTES): MemoryVerdict {
  const budgetBytes = after.cache.maxBytes + overheadBytes;
  return { budgetBytes, pass: after.rss <= budgetBytes };
}

const mib = (bytes: number) => `${(bytes / 2 ** 20).toFixed(0)} MiB`;

/** The lines `npm run bench` prints for the run. */
export function describeRandomPoints(plan: string, distinct: number, r: RandomPointsResult, bareRps: number): string[] {
  const v = memoryVerdict(r.after);
  return [
    `  weather.php, ${plan} key, random points across Italy (${distinct.toLocaleString('en')} before repeating), default cache, nothing pre-loaded, ` +
      `${r.requests.toLocaleString('en')} requests after ${r.warmupRequests.toLocaleString('en')} in a warm-up second: ` +
      `${r.rps.toFixed(0)} req/s (${r.cpuUsPerRequest?.toFixed(1)} µs; latency median ${r.medianMs.toFixed(2)} ms, p99 ${r.p99Ms.toFixed(2)} ms); ` +
      `ratio to bare ${(r.rps / bareRps).toFixed(2)}`,
    `  server memory: at start RSS ${mib(r.before.rss)}; after the run RSS ${mib(r.after.rss)} (peak ${mib(r.after.peakRss)}), ` +
      `tile cache ${mib(r.after.cache.bytes)} of ${mib(r.after.cache.maxBytes)}`,
    `  RSS ${mib(r.after.rss)} ≤ cache ${mib(r.after.cache.maxBytes)} + ${mib(SERVER_OVERHEAD_BYTES)} overhead: ${v.pass ? 'PASS' : 'FAIL'}` +
      (r.after.peakRss > v.budgetBytes ? ` (the peak, ${mib(r.after.peakRss)}, was above it)` : ''),
  ];
}

/** Points drawn before the sequence repeats. */
const DISTINCT_POINTS = 100_000;

/** The section of `npm run bench`: the first key's random points, the memory check, their targets. */
export async function runRandomPointsSection(ctx: BenchContext): Promise<void> {
  const http = ctx.http;
  if (!http) throw new Error('random points: the http section has not run');
  const first = ctx.keys[0]!;
  const requests = integerSetting(processEnv(), 'BENCH_RANDOM_REQUESTS', 1_000_000);
  const r = await runRandomPointsBench({
    dataDir: ctx.root, seconds: ctx.seconds, connections: ctx.connections, points: benchPoints(DISTINCT_POINTS), apiKey: first.apiKey, requests,
  });
  for (const line of describeRandomPoints(first.plan, DISTINCT_POINTS, r, http.bare.rps)) console.log(line);
  // A server over its memory budget fails the run (after the remaining figures).
  if (!memoryVerdict(r.after).pass) process.exitCode = 1;
  ctx.checks.push(...randomChecks({ plan: first.plan, ratio: r.rps / http.bare.rps, p99Ms: r.p99Ms }, { ...http, redis: ctx.redis, ...pointRead(ctx) }));
}
