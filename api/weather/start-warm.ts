/**
 * A starting server's warm-up, in order: the tile cache (every product's
 * blocks, tiles/read/warm.ts), then the answers (./warm-answers.ts) and the
 * HTTP code (./warm-http.ts), so that the first clients meet neither a cold
 * block nor code V8 has not compiled yet. /healthz answers 503 `warming`
 * from before `listen` until all of it is done (`startWarming`, read by
 * api/routes/health.ts), then one line says what was warmed.
 */
import type { FastifyInstance } from 'fastify';
import type { AddressInfo } from 'node:net';
import { warmAppAnswers, type AnswerWarmReport } from './warm-answers.js';
import { warmHttp, type HttpWarmReport } from './warm-http.js';

/** GETs of `/`: about what the answers need (measured: docs/benchmarks-journal.md, "The start window"). */
export const WARM_GETS = 4000;

declare module 'fastify' {
  interface FastifyInstance {
    /** True while a starting server warms up (api/cli.ts); absent where nothing warms (tests' apps). */
    startWarming?: () => boolean;
  }
}

/** Levels at which Fastify logs every request (two lines each with its own logger). */
const PER_REQUEST_LEVELS = new Set(['info', 'debug', 'trace']);

/**
 * `fn` with the app's log at warn at most: the warm-up's thousands of requests would log two lines each at info.
 * A client request answered meanwhile (before ready, so rare) is logged at warn and above only.
 */
async function quietly<T>(app: FastifyInstance, fn: () => Promise<T>): Promise<T> {
  const level = app.log.level;
  if (PER_REQUEST_LEVELS.has(level)) app.log.level = 'warn';
  try {
    return await fn();
  } finally {
    app.log.level = level;
  }
}

/** Where the server can reach itself: its listening address, a wildcard one as loopback. */
function ownAddress(app: FastifyInstance): { host: string; port: number } | null {
  const a = app.server.address();
  if (!a || typeof a === 'string') return null;
  const { address, port } = a as AddressInfo;
  return { host: address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address, port };
}

/** Call before `listen`: from then /healthz is not ready until the returned `run` (after `listen`) has finished. */
export function startWarm(app: FastifyInstance): { run(): Promise<void> } {
  let warming = true;
  app.decorate('startWarming', () => warming);
  const run = async () => {
    const t0 = performance.now();
    const keys = app.products.products().filter((p) => p.layout !== 'periods').map((p) => p.product);
    let blocks = 0;
    let bytes = 0;
    try {
      for (const r of await app.tiles.warmLive(keys)) {
        blocks += r.blocks;
        bytes += r.bytes;
      }
    } catch (err) {
      app.log.error({ err }, 'tile cache warm failed');
    }
    const tilesMs = performance.now() - t0;
    const cpu0 = process.cpuUsage();
    let answers: AnswerWarmReport | undefined;
    let http: HttpWarmReport | undefined;
    try {
      answers = await warmAppAnswers(app);
      const own = ownAddress(app);
      // Nothing to answer (no forecast covers now): the HTTP code would warm for nothing either.
      if (own && answers.lookups > 0) http = await quietly(app, () => warmHttp(own.host, own.port, WARM_GETS));
    } catch (err) {
      app.log.error({ err }, 'answer warm-up failed');
    } finally {
      warming = false;
    }
    const cpu = process.cpuUsage(cpu0);
    app.log.info(
      {
        ms: Math.round(performance.now() - t0), tilesMs: Math.round(tilesMs), blocks, MiB: Math.round(bytes / 2 ** 20),
        lookups: answers?.lookups ?? 0, lookupErrors: answers?.errors ?? 0, gets: http?.requests ?? 0, getErrors: http?.errors ?? 0,
        answersCpuMs: Math.round((cpu.user + cpu.system) / 1000),
      },
      'tile cache warm: ready',
    );
  };
  return { run };
}
