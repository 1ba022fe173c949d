/**
 * A/B of two builds' weather.php and widget.php in ONE process, through
 * Fastify's inject() (the whole lifecycle: hooks, key, quota in Redis with
 * BENCH_REDIS_URL, fields, JSON, headers as Node's ServerResponse checks
 * them; no socket), A and B taking turns batch by batch (32 requests at
 * once, as the bench's connections send them), `requests` of each per round:
 *
 *   node dist/bench/http-ab-inject.js <dataDir of ./http-ab.ts> <A dist> <B dist> [rounds] [requests]
 *
 * Why beside ./http-ab.ts: on a machine shared by several heavy jobs, the
 * CPU per request of a server in its own process moves by ±30 % from one
 * window to the next (its batches grow and shrink with its share of the
 * cores), which hides a change of a few µs. Here A and B take turns every
 * few milliseconds in the same process, under the same load. Both
 * apps share A's tile store (the data path is not what is compared).
 * Prints each round's CPU per request (process.cpuUsage, µs) and the median
 * of B/A over the rounds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { benchPoints } from './data.js';
import { median } from './rounds.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';

const CONCURRENCY = 32;

async function buildFrom(dist: string, dataDir: string, tiles: unknown): Promise<FastifyInstance> {
  const at = (p: string) => import(pathToFileURL(join(dist, p)).href);
  const { buildApp } = await at('api/app.js');
  const { createAccessServices } = await at('api/access/services.js');
  const { benchAccessEnv } = await at('bench/api-key.js');
  const env = benchAccessEnv(dataDir);
  const access = await createAccessServices({ env, cacheKeys: true });
  return buildApp({ dataDir, env, access: { services: access }, tiles });
}

async function main(): Promise<void> {
  const [dataDir, aDist, bDist, roundsArg, requestsArg] = process.argv.slice(2);
  if (!dataDir || !aDist || !bDist) throw new Error('usage: http-ab-inject <dataDir> <A dist> <B dist> [rounds] [requests]');
  const rounds = Number(roundsArg ?? 10);
  const requests = Number(requestsArg ?? 2000);
  const keys = JSON.parse(readFileSync(join(dataDir, 'ab-keys.json'), 'utf8')) as Record<'business' | 'free', string>;
  const { TileStore } = await import(pathToFileURL(join(aDist, 'tiles/read/reader.js')).href);
  const tiles = new TileStore(dataDir, { cacheBytes: 1024 * 1024 * 1024 });
  const apps = { A: await buildFrom(aDist, dataDir, tiles), B: await buildFrom(bDist, dataDir, tiles) };
  const urls = benchPoints(2000).map((p) => `lat=${p.lat.toFixed(4)}&lon=${p.lon.toFixed(4)}${p.altM !== undefined ? `&alt=${p.altM}` : ''}`);
  const abWindows = setting(processEnv(), 'BENCH_AB_WINDOWS');
  const windows = [
    { label: 'business', path: '/api/v1/weather.php?', key: keys.business },
    { label: 'free', path: '/api/v1/weather.php?', key: keys.free },
    { label: 'widget', path: '/api/v1/widget.php?name=Firenze&', key: keys.free },
  ].filter((w) => !abWindows || abWindows.split(',').includes(w.label));
  let next = 0;
  /** One batch of CONCURRENCY requests on `app`: its CPU time, µs. */
  const batch = async (app: FastifyInstance, path: string, key: string): Promise<number> => {
    const c0 = process.cpuUsage();
    const answers = await Promise.all(Array.from({ length: CONCURRENCY }, () =>
      app.inject({ method: 'GET', url: path + urls[next++ % urls.length]!, headers: { 'x-api-key': key } })));
    const c = process.cpuUsage(c0);
    const bad = answers.find((r) => r.statusCode !== 200);
    if (bad) throw new Error(`${bad.statusCode}: ${bad.body.slice(0, 300)}`);
    return c.user + c.system;
  };
  const cpu = new Map(windows.map((w) => [w.label, { A: [] as number[], B: [] as number[] }]));
  const batches = Math.max(2, Math.round(requests / CONCURRENCY));
  for (const w of windows) for (const app of Object.values(apps)) for (let b = 0; b < batches; b++) await batch(app, w.path, w.key); // warm-up
  for (let r = 0; r < rounds; r++) {
    for (const w of windows) {
      // A and B take turns batch by batch (a few ms each), so both meet the same load from elsewhere.
      const us = { A: 0, B: 0 };
      for (let b = 0; b < batches; b++) {
        for (const name of b % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) us[name] += await batch(apps[name], w.path, w.key);
      }
      for (const name of ['A', 'B'] as const) cpu.get(w.label)![name].push(us[name] / (batches * CONCURRENCY));
    }
  }
  for (const [label, { A, B }] of cpu) {
    const ratios = A.map((a, i) => B[i]! / a);
    console.log(`${label.padEnd(8)} A ${A.map((x) => x.toFixed(1)).join(' ')} µs`);
    console.log(`${''.padEnd(8)} B ${B.map((x) => x.toFixed(1)).join(' ')} µs`);
    console.log(`${''.padEnd(8)} A median ${median(A).toFixed(1)}, B median ${median(B).toFixed(1)}, B/A median of rounds ${median(ratios).toFixed(3)} (${Math.min(...ratios).toFixed(2)}–${Math.max(...ratios).toFixed(2)})`);
  }
  await apps.A.close();
  await apps.B.close();
  process.exit(0);
}

await main();
