/**
 * HTTP half of `npm run bench`: requests per second of weather.php against a
 * bare Fastify JSON route, and of widget.php against weather.php (same
 * server, key and points). Each server runs in its own child process, forked
 * from this file the same way (same Node flags, logger off, listening on
 * 127.0.0.1:0); the parent loads it over loopback with keep-alive
 * connections, each running requests back to back (autocannon-style closed
 * loop on raw sockets), the same query strings for both, first a warm-up,
 * then a measured window.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import Fastify from 'fastify';
import { buildApp } from '../api/app.js';
import { FIELD_GROUPS, type Plan } from '../api/access/contract.js';

const ALL_GROUPS = new Set(FIELD_GROUPS);
import type { PointQuery } from '../api/weather/service.js';
import { TileStore } from '../tiles/reader.js';
import { benchAccessEnv } from './api-key.js';
import { decodeThreads } from '../api/cli.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';
import { peakRssBytes } from './peak-rss.js';
import { combineRounds, median, ROUNDS } from './rounds.js';

/** Chunk cache for the benchmark: holds the whole national nwp store (~0.6 GB decoded, 22 variables) and the DEM. */
export const BENCH_CACHE_BYTES = 1024 * 1024 * 1024;

export interface HttpBenchOptions {
  dataDir: string;
  /** Measured seconds per server (after 1 s of warm-up). */
  seconds: number;
  connections: number;
  points: PointQuery[];
  /** API keys (bench/api-key.ts), sent in X-API-Key: weather.php is measured once per key, the bare route with the first. */
  keys: Array<{ plan: Plan; apiKey: string }>;
}

export type WeatherResult = LoadResult & {
  plan: Plan;
  elapsedMedianMs: number;
  /** weather.php / bare requests per second, per round and the median round. */
  ratios: number[];
  ratio: number;
  widget: LoadResult;
  /** widget.php / weather.php, median round. */
  widgetRatio: number;
};

/** widget.php as the benchmark loads it: the default mode (js) and variant, a place name; the point and key as weather.php's. */
export const WIDGET_BENCH_QUERY = 'name=Firenze';

export interface LoadResult {
  rps: number;
  /** Server CPU time (user + system) per answered request over the measured window, µs. */
  cpuUsPerRequest?: number;
  /** Of which system time (kernel: socket writes and reads), µs. */
  sysUsPerRequest?: number;
  requests: number;
  errors: number;
  /** Requests answered in the warm-up before the measured window (measureWith). */
  warmupRequests?: number;
  /** The first non-200 answer (status line and body), for the error message. */
  firstError?: string;
  medianMs: number;
  p99Ms: number;
}

/** 'weather-auto': weather.php with the tile cache at its default size (sized from the stores), nothing pre-loaded. */
export type ServerKind = 'weather' | 'weather-auto' | 'bare';
const WARMUP_MS = 1000;

function queryOf(p: PointQuery): string {
  return `lat=${p.lat.toFixed(4)}&lon=${p.lon.toFixed(4)}${p.altM !== undefined ? `&alt=${p.altM}` : ''}`;
}

/** Child side: serve one kind of app until told to stop. */
async function serveChild(kind: ServerKind, dataDir: string): Promise<void> {
  let app;
  if (kind === 'weather' || kind === 'weather-auto') {
    // Keys and quotas embedded and in memory, or in Redis with BENCH_REDIS_URL; never the caller's REDIS_URL.
    const env = benchAccessEnv(dataDir);
    // Decode threads as `serve` has them (METEOPUNTO_DECODE_THREADS, default 0).
    const tiles = new TileStore(dataDir, { decodeThreads: decodeThreads(), ...(kind === 'weather' ? { cacheBytes: BENCH_CACHE_BYTES } : {}) });
    app = await buildApp({ dataDir, env, access: { env }, tiles });
  } else {
    app = Fastify({ logger: false });
    app.get('/bare', async () => ({ hello: 'world' }));
  }
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (msg: { warm?: PointQuery[]; cpu?: true; stop?: true; memory?: true }) => {
    if (msg.cpu) process.send!({ cpu: process.cpuUsage() });
    // Resident memory now and at its peak, and the tile cache (bench/random-points.ts).
    if (msg.memory) {
      process.send!({ memory: { rss: process.memoryUsage().rss, peakRss: peakRssBytes(), cache: kind === 'bare' ? 0 : app.tiles.cacheStats() } });
    }
    if (msg.warm) {
      const points = msg.warm;
      const warm = async () => {
        if (kind === 'weather') for (const p of points) await app.weather.observe({ ...p, plan: 'business', groups: ALL_GROUPS });
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
  const profileDir = setting(processEnv(), 'BENCH_PROFILE_DIR');
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
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

/** The child's process.cpuUsage(), µs. */
function childCpuUs(child: ChildProcess): Promise<NodeJS.CpuUsage> {
  return new Promise((ok) => {
    const on = (msg: { cpu?: NodeJS.CpuUsage }) => {
      if (!msg.cpu) return;
      child.off('message', on);
      ok(msg.cpu);
    };
    child.on('message', on);
    child.send({ cpu: true });
  });
}

/** When a load stops sending: after `ms`, or after `requests` requests (whichever comes first when both are given). */
export interface LoadWindow {
  ms?: number;
  requests?: number;
}

/**
 * Closed-loop load over raw keep-alive sockets: each connection sends the next
 * request as soon as the previous answer is complete. Requests are
 * pre-encoded and answers are framed by Content-Length only (what Fastify
 * sends), so the client costs a fraction of what node:http would and the
 * server, not the load generator, is what gets measured (as autocannon does).
 */
export async function load(
  base: string, paths: string[], apiKey: string, connections: number, window: LoadWindow, onBody?: (body: string) => void,
): Promise<LoadResult> {
  const { hostname, port } = new URL(base);
  const reqs = paths.map((p) =>
    Buffer.from(`GET ${p} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-API-Key: ${apiKey}\r\nConnection: keep-alive\r\n\r\n`, 'latin1'));
  const lat: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const end = performance.now() + (window.ms ?? Infinity);
  const maxRequests = window.requests ?? Infinity;
  const HEADER_END = Buffer.from('\r\n\r\n');
  const conn = () =>
    new Promise<void>((done) => {
      const sock = connect(Number(port), hostname);
      sock.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const send = () => {
        if (next >= maxRequests || performance.now() >= end) {
          sock.end();
          return;
        }
        sentAt = performance.now();
        sock.write(reqs[next++ % reqs.length]!);
      };
      sock.on('connect', send);
      sock.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        for (;;) {
          const h = buf.indexOf(HEADER_END);
          if (h < 0) return;
          const head = buf.toString('latin1', 0, h);
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          const len = m ? Number(m[1]) : 0;
          if (buf.length < h + 4 + len) return;
          const status = Number(head.slice(9, 12));
          if (status === 200) {
            lat.push(performance.now() - sentAt);
            if (onBody && (lat.length & 63) === 0) onBody(buf.toString('utf8', h + 4, h + 4 + len));
          } else {
            errors++;
            firstError ??= `${head.slice(0, head.indexOf('\r\n'))}: ${buf.toString('utf8', h + 4, h + 4 + Math.min(len, 300))}`;
          }
          buf = buf.subarray(h + 4 + len);
          send();
        }
      });
      sock.on('error', () => {
        errors++;
        done();
      });
      sock.on('close', () => done());
    });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, conn));
  const took = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return {
    rps: lat.length / took,
    requests: lat.length,
    errors,
    ...(firstError !== undefined ? { firstError } : {}),
    medianMs: lat[Math.floor(lat.length / 2)] ?? NaN,
    p99Ms: lat[Math.floor(lat.length * 0.99)] ?? NaN,
  };
}

/**
 * Load one server with one key: warm-up, then the measured window (`opts.seconds`,
 * or `requests` requests when given) with the server's CPU time around it.
 */
export async function measureWith(
  kind: ServerKind, child: ChildProcess, base: string, opts: HttpBenchOptions, apiKey: string, onBody?: (body: string) => void, widget = false,
  requests?: number, warmupMs = WARMUP_MS,
): Promise<LoadResult> {
  const path = kind === 'bare' ? '/bare' : widget ? '/api/v1/widget.php' : '/api/v1/weather.php';
  const paths = opts.points.map((p) => `${path}?${queryOf(p)}${widget ? `&${WIDGET_BENCH_QUERY}` : ''}`);
  const warm = warmupMs > 0 ? await load(base, paths, apiKey, opts.connections, { ms: warmupMs }) : { requests: 0, errors: 0 };
  const cpu0 = await childCpuUs(child);
  const r = await load(base, paths, apiKey, opts.connections, requests !== undefined ? { requests } : { ms: opts.seconds * 1000 }, onBody);
  const cpu1 = await childCpuUs(child);
  const answered = Math.max(1, r.requests + r.errors);
  r.cpuUsPerRequest = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / answered;
  r.sysUsPerRequest = (cpu1.system - cpu0.system) / answered;
  r.warmupRequests = warm.requests + warm.errors;
  // Error answers are cheap: a run that measured mostly errors measured nothing.
  if (r.errors > r.requests / 100) throw new Error(`bench ${kind}: ${r.errors} non-200 answers (${r.requests} OK); first: ${r.firstError}`);
  if (r.errors > 0) console.log(`  (${kind}: ${r.errors} non-200 answers; first: ${r.firstError})`);
  return r;
}

/** Start a server of `kind`, run `fn` against it, stop it. */
export async function withServer<R>(kind: ServerKind, opts: HttpBenchOptions, fn: (child: ChildProcess, base: string) => Promise<R>): Promise<R> {
  const { child, base } = await startChild(kind, opts.dataDir, opts.points);
  try {
    return await fn(child, base);
  } finally {
    child.removeAllListeners('exit');
    const exited = new Promise((ok) => child.once('exit', ok));
    child.send({ stop: true });
    await exited;
  }
}

/**
 * The bare route and weather.php (then widget.php, per key) measured in
 * alternating windows, {@link ROUNDS} rounds of `opts.seconds / ROUNDS` s
 * each, both servers up throughout: a burst of load from elsewhere on a
 * shared machine then hits both sides of a ratio, which is taken per round;
 * the median round is reported (./rounds.ts).
 */
export async function runHttpBench(opts: HttpBenchOptions): Promise<{ bare: LoadResult; weather: WeatherResult[] }> {
  if (opts.keys.length === 0) throw new Error('runHttpBench: no API key');
  const win = { ...opts, seconds: opts.seconds / ROUNDS };
  return withServer('bare', opts, (bareChild, bareBase) =>
    withServer('weather', opts, async (child, base) => {
      const bare: LoadResult[] = [];
      const per = opts.keys.map(() => ({ weather: [] as LoadResult[], widget: [] as LoadResult[], elapsed: [] as number[] }));
      for (let round = 0; round < ROUNDS; round++) {
        const warmupMs = round === 0 ? WARMUP_MS : 0;
        bare.push(await measureWith('bare', bareChild, bareBase, win, opts.keys[0]!.apiKey, undefined, false, undefined, warmupMs));
        for (const [k, { apiKey }] of opts.keys.entries()) {
          const acc = per[k]!;
          acc.weather.push(await measureWith('weather', child, base, win, apiKey, (body) => {
            const e = (JSON.parse(body) as { elapsed_ms?: number }).elapsed_ms;
            if (typeof e === 'number') acc.elapsed.push(e);
          }, false, undefined, warmupMs));
          // widget.php on the same server, same key and points, right after: the box of the base fields, rendered.
          acc.widget.push(await measureWith('weather', child, base, win, apiKey, undefined, true, undefined, warmupMs));
        }
      }
      const weather = opts.keys.map(({ plan }, k): WeatherResult => {
        const acc = per[k]!;
        const ratios = acc.weather.map((w, r) => w.rps / bare[r]!.rps);
        return {
          ...combineRounds(acc.weather),
          plan,
          elapsedMedianMs: median(acc.elapsed),
          ratios,
          ratio: median(ratios),
          widget: combineRounds(acc.widget),
          widgetRatio: median(acc.widget.map((w, r) => w.rps / acc.weather[r]!.rps)),
        };
      });
      return { bare: combineRounds(bare), weather };
    }),
  );
}

if (process.argv[2] === '--bench-server') {
  const [, , , kind, dataDir] = process.argv;
  await serveChild(kind as ServerKind, dataDir!);
}
