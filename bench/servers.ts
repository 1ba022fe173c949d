/**
 * The servers the HTTP bench (./http.ts) loads, each in a child process
 * forked from this file the same way (same Node flags, logger off, listening
 * on 127.0.0.1:0), and the parent's handle on them: start, CPU time, memory,
 * quota batches, stop.
 *
 * - `bare`: a bare Fastify JSON route, the baseline of every ratio.
 * - `access`: the same route behind the real access layer (api/access: key
 *   check, the quota decision, rate-limit headers) and nothing else. No
 *   weather.php can be faster than this with the same access layer, so its
 *   ratio to the bare route bounds the weather.php ratios, and its
 *   `elapsed_ms` bounds weather.php's.
 * - `weather`: the app (buildApp) with a cache that holds the whole bench
 *   store, pre-loaded at the bench points.
 * - `weather-auto`: the app with the tile cache at its default size (sized
 *   from the stores), nothing pre-loaded.
 * - `floor`: the `access` server's access layer in front of routes that each
 *   replay an answer captured from one of the others (./replay.ts): what an
 *   answer costs a server that computes nothing, the floor of its ratio.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../api/app.js';
import accessPlugin from '../api/access/plugin.js';
import { createAccessServices, type AccessServices } from '../api/access/services.js';
import type { BatchStats } from '../api/access/quota-batch.js';
import timingPlugin, { elapsedMs } from '../api/plugins/timing.js';
import { registerBatching } from '../api/plugins/batching.js';
import { FIELD_GROUPS } from '../api/fields/registry.js';
import type { PointQuery } from '../api/weather/service.js';
import { TileStore } from '../tiles/read/reader.js';
import { benchAccessEnv } from './api-key.js';
import { decodeThreads } from '../api/cli.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';
import { peakRssBytes } from './peak-rss.js';
import { registerReplay, type ReplayRoute } from './replay.js';

export type ServerKind = 'weather' | 'weather-auto' | 'bare' | 'access' | 'floor';

/** Chunk cache for the benchmark: holds the whole national nwp store (18 variables) and the DEM. */
export const BENCH_CACHE_BYTES = 1024 * 1024 * 1024;

/** The path each kind of server is loaded at. */
export const BARE_PATH = '/bare';
export const ACCESS_PATH = '/access';

const ALL_GROUPS = new Set(FIELD_GROUPS);

async function buildServer(kind: ServerKind, dataDir: string, replay: readonly ReplayRoute[]) {
  // Keys and quotas embedded and in memory, or in Redis with BENCH_REDIS_URL; never the caller's REDIS_URL.
  const env = benchAccessEnv(dataDir);
  // Built here, as the access plugin would, so the child can report its quota batches (the process exits on stop).
  const access = kind === 'bare' ? null : await createAccessServices({ env, cacheKeys: true });
  if (kind === 'weather' || kind === 'weather-auto') {
    // Decode threads as `serve` has them (METEOPUNTO_DECODE_THREADS, default 0).
    const tiles = new TileStore(dataDir, { decodeThreads: decodeThreads(), ...(kind === 'weather' ? { cacheBytes: BENCH_CACHE_BYTES } : {}) });
    return { app: await buildApp({ dataDir, env, access: { services: access! }, tiles }), tiles, access };
  }
  if (kind === 'bare') {
    const app = Fastify({ logger: false });
    app.get(BARE_PATH, async () => ({ hello: 'world' }));
    return { app, tiles: null, access };
  }
  return { app: await buildAccessApp(access!, kind === 'floor' ? replay : null), tiles: null, access };
}

/**
 * The `access` server's app (or, with `replay`, the `floor` server's):
 * weather.php's access path (api/app.ts, api/routes/weather.ts), the hand-over
 * to the check phase, timing, the key in onRequest, the quota in the handler,
 * in front of the bare route or of the replayed answers.
 */
export async function buildAccessApp(access: AccessServices, replay: readonly ReplayRoute[] | null): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  registerBatching(app);
  await app.register(timingPlugin);
  await app.register(accessPlugin, { services: access });
  if (replay) for (const r of replay) registerReplay(app, r);
  else {
    app.get(ACCESS_PATH, { config: { endpoint: 'weather' } }, async function (request, reply) {
      await this.consumeQuota(request, reply);
      return { hello: 'world', elapsed_ms: elapsedMs(request) };
    });
  }
  return app;
}

/** The quota batches a server sent to Redis (api/access/quota-batch.ts); null with embedded quotas. */
export type QuotaBatches = BatchStats | null;

/** The routes a `floor` child replays: the first message its parent sends (startChild). */
function replayRoutes(): Promise<ReplayRoute[]> {
  return new Promise((ok) => process.once('message', (msg: { replay: ReplayRoute[] }) => ok(msg.replay)));
}

/** Child side: serve one kind of app until told to stop. */
async function serveChild(kind: ServerKind, dataDir: string): Promise<void> {
  const { app, tiles, access } = await buildServer(kind, dataDir, kind === 'floor' ? await replayRoutes() : []);
  const address = await app.listen({ port: 0, host: '127.0.0.1' });
  process.on('message', (msg: { warm?: PointQuery[]; cpu?: true; stop?: true; memory?: true; quota?: true }) => {
    if (msg.cpu) process.send!({ cpu: process.cpuUsage() });
    if (msg.quota) process.send!({ quota: { batches: access?.quota.batcher?.sent ?? null } });
    // Resident memory now and at its peak, and the tile cache (bench/random-points.ts).
    if (msg.memory) {
      process.send!({ memory: { rss: process.memoryUsage().rss, peakRss: peakRssBytes(), cache: tiles ? tiles.cacheStats() : 0 } });
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

function startChild(kind: ServerKind, dataDir: string, points: PointQuery[], replay: readonly ReplayRoute[]): Promise<{ child: ChildProcess; base: string }> {
  // BENCH_PROFILE_DIR=<dir> writes a V8 CPU profile of each server (open it in Chrome DevTools).
  const profileDir = setting(processEnv(), 'BENCH_PROFILE_DIR');
  const prof = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = fork(fileURLToPath(import.meta.url), ['--bench-server', kind, dataDir], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    execArgv: [...process.execArgv, ...prof],
  });
  if (kind === 'floor') child.send({ replay });
  return new Promise((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`bench ${kind} server exited with ${code}`)));
    child.on('message', (msg: { listening?: string; ready?: string }) => {
      if (msg.listening) child.send({ warm: points });
      if (msg.ready) ok({ child, base: msg.ready });
    });
  });
}

/**
 * Asks the child for one reading (`cpu`: its process.cpuUsage(), µs;
 * `memory`: its resident memory and tile cache, see serveChild; `quota`: its
 * quota batches, {@link QuotaBatches}) and waits
 * for the answer.
 */
export function askChild<T>(child: ChildProcess, what: 'cpu' | 'memory' | 'quota'): Promise<T> {
  return new Promise((ok) => {
    const on = (msg: Partial<Record<typeof what, T>>) => {
      const answer = msg[what];
      if (!answer) return;
      child.off('message', on);
      ok(answer);
    };
    child.on('message', on);
    child.send({ [what]: true });
  });
}

/** The child's process.cpuUsage(), µs. */
export function childCpuUs(child: ChildProcess): Promise<NodeJS.CpuUsage> {
  return askChild(child, 'cpu');
}

/**
 * Start a server of `kind` (pre-loaded at `points` for 'weather'; replaying
 * `replay` for 'floor'), run `fn` against it, stop it.
 */
export async function withServer<R>(
  kind: ServerKind, dataDir: string, points: PointQuery[], fn: (child: ChildProcess, base: string) => Promise<R>, replay: readonly ReplayRoute[] = [],
): Promise<R> {
  const { child, base } = await startChild(kind, dataDir, points, replay);
  try {
    return await fn(child, base);
  } finally {
    child.removeAllListeners('exit');
    const exited = new Promise((ok) => child.once('exit', ok));
    child.send({ stop: true });
    await exited;
  }
}

if (process.argv[2] === '--bench-server') {
  const [, , , kind, dataDir] = process.argv;
  await serveChild(kind as ServerKind, dataDir!);
}
