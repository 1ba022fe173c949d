/**
 * HTTP half of `npm run bench`: requests per second of weather.php against a
 * bare Fastify JSON route. Each server runs in its own child process, forked
 * from this file the same way (same Node flags, logger off, listening on
 * 127.0.0.1:0); the parent loads it over loopback with keep-alive
 * connections, each running requests back to back (autocannon-style closed
 * loop), the same query strings for both, first a warm-up, then a measured
 * window.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { Agent, request } from 'node:http';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { buildApp } from '../api/app.js';
import type { PointQuery } from '../api/weather/observe.js';
import { TileStore } from '../tiles/reader.js';

/** Chunk cache for the benchmark: holds the whole national nwp store (~0.3 GB decoded) and the DEM. */
export const BENCH_CACHE_BYTES = 1024 * 1024 * 1024;

export interface HttpBenchOptions {
  dataDir: string;
  /** Measured seconds per server (after 1 s of warm-up). */
  seconds: number;
  connections: number;
  points: PointQuery[];
}

export interface LoadResult {
  rps: number;
  requests: number;
  errors: number;
  medianMs: number;
  p99Ms: number;
}

type ServerKind = 'weather' | 'bare';
const WARMUP_MS = 1000;

function queryOf(p: PointQuery): string {
  return `lat=${p.lat.toFixed(4)}&lon=${p.lon.toFixed(4)}${p.altM !== undefined ? `&alt=${p.altM}` : ''}`;
}

/** Child side: serve one kind of app until told to stop. */
async function serveChild(kind: ServerKind, dataDir: string): Promise<void> {
  let app;
  if (kind === 'weather') {
    app = await buildApp({ dataDir, tiles: new TileStore(dataDir, { cacheBytes: BENCH_CACHE_BYTES }) });
  } else {
    app = Fastify({ logger: false });
    app.get('/bare', async () => ({ hello: 'world' }));
  }
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (msg: { warm?: PointQuery[]; stop?: true }) => {
    if (msg.warm) {
      const points = msg.warm;
      const warm = async () => {
        if (kind === 'weather') for (const p of points) await app.weather.observe(p);
        process.send!({ ready: address });
      };
      void warm();
    }
    if (msg.stop) void app.close().then(() => process.exit(0));
  });
  process.send!({ listening: address });
}

function startChild(kind: ServerKind, dataDir: string, points: PointQuery[]): Promise<{ child: ChildProcess; base: string }> {
  // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of each server (open it in Chrome DevTools).
  const prof = process.env.BENCH_PROFILE_DIR ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`] : [];
  const child = fork(fileURLToPath(import.meta.url), ['--bench-server', kind, dataDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...prof],
  });
  return new Promise((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`bench ${kind} server exited with ${code}`)));
    child.on('message', (msg: { listening?: string; ready?: string }) => {
      if (msg.listening) child.send({ warm: points });
      if (msg.ready) ok({ child, base: msg.ready });
    });
  });
}

/** Closed-loop load: `connections` loops, each sending the next URL as soon as the previous answer is read. */
async function load(urls: string[], connections: number, ms: number, onBody?: (body: string) => void): Promise<LoadResult> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const lat: number[] = [];
  let errors = 0;
  let next = 0;
  const end = performance.now() + ms;
  const one = (url: string) =>
    new Promise<number>((ok) => {
      const req = request(url, { agent }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (b: Buffer) => parts.push(b));
        res.on('end', () => {
          if (onBody && (next & 63) === 0) onBody(Buffer.concat(parts).toString());
          ok(res.statusCode ?? 0);
        });
      });
      req.on('error', () => ok(0));
      req.end();
    });
  const loop = async () => {
    while (performance.now() < end) {
      const url = urls[next++ % urls.length]!;
      const t = performance.now();
      const status = await one(url);
      if (status === 200) lat.push(performance.now() - t);
      else errors++;
    }
  };
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, loop));
  const took = (performance.now() - t0) / 1000;
  agent.destroy();
  lat.sort((a, b) => a - b);
  return {
    rps: lat.length / took,
    requests: lat.length,
    errors,
    medianMs: lat[Math.floor(lat.length / 2)] ?? NaN,
    p99Ms: lat[Math.floor(lat.length * 0.99)] ?? NaN,
  };
}

async function measure(kind: ServerKind, opts: HttpBenchOptions, onBody?: (body: string) => void): Promise<LoadResult> {
  const { child, base } = await startChild(kind, opts.dataDir, opts.points);
  try {
    const path = kind === 'weather' ? '/api/v1/weather.php' : '/bare';
    const urls = opts.points.map((p) => `${base}${path}?${queryOf(p)}`);
    await load(urls, opts.connections, WARMUP_MS);
    const r = await load(urls, opts.connections, opts.seconds * 1000, onBody);
    if (r.errors > 0) console.log(`  (${kind}: ${r.errors} non-200 answers)`);
    return r;
  } finally {
    child.removeAllListeners('exit');
    const exited = new Promise((ok) => child.once('exit', ok));
    child.send({ stop: true });
    await exited;
  }
}

export async function runHttpBench(opts: HttpBenchOptions): Promise<{ bare: LoadResult; weather: LoadResult & { elapsedMedianMs: number } }> {
  const elapsed: number[] = [];
  const bare = await measure('bare', opts);
  const weather = await measure('weather', opts, (body) => {
    const e = (JSON.parse(body) as { elapsed_ms?: number }).elapsed_ms;
    if (typeof e === 'number') elapsed.push(e);
  });
  elapsed.sort((a, b) => a - b);
  return { bare, weather: { ...weather, elapsedMedianMs: elapsed[Math.floor(elapsed.length / 2)] ?? NaN } };
}

if (process.argv[2] === '--bench-server') {
  const [, , , kind, dataDir] = process.argv;
  await serveChild(kind as ServerKind, dataDir!);
}
