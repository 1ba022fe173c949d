/**
 * A starting server's warm-up, in order: the tile cache (every product's
 * blocks, tiles/read/warm.ts), then the answers (./warm-answers.ts) and the
 * HTTP path (./warm-http.ts): keyed weather.php GETs to the server's own
 * address with a warm-up key (api/access/plugin.ts `warmUpKey`: held in this
 * process only, admitted until the warm-up ends), so that the first clients
 * meet neither a cold block nor code V8 has not compiled yet, the key check,
 * the quota call and the route included. /healthz answers 503 `warming`
 * from before `listen` until all of it is done (`startWarming`, read by
 * api/routes/health.ts), then one line says what was warmed.
 *
 * The warm-up's own requests are not logged, everything else is, as
 * configured: its lookups are no requests, and its GETs carry
 * {@link WARM_UP_HEADER} with a random token of this process, which
 * {@link isWarmUpRequest} (api/app.ts's log controller) recognises while a
 * warm-up runs. A client cannot know the token, so cannot silence its own
 * requests' lines.
 */
import type { FastifyInstance } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { warmAppAnswers, warmRequests, type AnswerWarmReport } from './warm-answers.js';
import { warmHttp, type HttpWarmReport } from './warm-http.js';
import { WEATHER_PATH } from '../routes/weather.js';
import { coversNow, nowProduct } from '../routes/health-reasons.js';

/**
 * The warm-up's GETs: 4,000 keyed weather.php requests brought the first seconds' CPU per request down to the warm
 * server's (docs/benchmarks-journal.md, "The start window, keyed").
 */
export const WARM_GETS = 4000;

/** The plan of the warm-up's key: its answers run every builder. */
const WARM_PLAN = 'business';

declare module 'fastify' {
  interface FastifyInstance {
    /** True while a starting server warms up (api/cli.ts); absent where nothing warms (tests' apps). */
    startWarming?: () => boolean;
  }
}

/** The header of the warm-up's GETs (lower case, as Node gives request headers). */
export const WARM_UP_HEADER = 'x-meteopunto-warm-up';

/** Its value: 128 random bits drawn when the process loads this module, sent only to the server's own address. */
const WARM_UP_TOKEN = randomBytes(16).toString('hex');

/** Warm-ups running in this process: while none runs (almost always), no request is one of theirs. */
let warmUps = 0;

/**
 * Whether `req` is one of a running start warm-up's own requests, which are not logged: thousands of GETs would
 * log two lines each at info. A client's request answered meanwhile logs as any other.
 */
export function isWarmUpRequest(req: { readonly headers: IncomingHttpHeaders }): boolean {
  return warmUps > 0 && req.headers[WARM_UP_HEADER] === WARM_UP_TOKEN;
}

/** `fn` with the warm-up's requests recognised (all of a warm-up's run: a client's request meanwhile is logged even if it guesses). */
async function recognisingWarmUps<T>(fn: () => Promise<T>): Promise<T> {
  warmUps++;
  try {
    return await fn();
  } finally {
    warmUps--;
  }
}

/** Where the server can reach itself: its listening address, a wildcard one as loopback. */
function ownAddress(app: FastifyInstance): { host: string; port: number } | null {
  const a = app.server.address();
  if (!a || typeof a === 'string') return null;
  const { address, port } = a as AddressInfo;
  return { host: address === '0.0.0.0' ? '127.0.0.1' : address === '::' ? '::1' : address, port };
}

export interface StartWarmOptions {
  /** The time the answers are for, ms (default now; tests freeze it). */
  nowMs?: number;
  /** Synthetic lookups (default warm-answers.ts's WARM_LOOKUPS). */
  lookups?: number;
  /** GETs of `/` (default {@link WARM_GETS}). */
  gets?: number;
}

/** Connections at once: a loaded server's quota batches (the bench's load: 32 connections). */
const WARM_CONNECTIONS = 32;

/**
 * The warm-up's headers, five sets in turn: clients send their headers in other orders and sets than the warm-up's
 * (which needs its token), and code optimised for one request object's shape alone is thrown away at the first
 * other (V8 "wrong map" deopts of the HTTP parser's, the key check's and the route's functions at the first
 * client's request); after five shapes V8 compiles the lookups for any.
 */
function headerSets(key: string): Record<string, string>[] {
  const token = { [WARM_UP_HEADER]: WARM_UP_TOKEN };
  return [
    { 'x-api-key': key, ...token },
    { ...token, 'x-api-key': key },
    { 'user-agent': 'meteopunto-warm-up', 'x-api-key': key, ...token },
    { accept: 'application/json', ...token, 'x-api-key': key },
    { 'x-api-key': key, accept: '*/*', 'user-agent': 'meteopunto-warm-up', ...token },
  ];
}

/** weather.php at `n` points spread over `bbox`, half with `alt=`, as clients ask (4 decimals). */
export function warmPaths(bbox: readonly [number, number, number, number], n: number): string[] {
  return warmRequests(bbox, n).map((r) => `${WEATHER_PATH}?lat=${r.lat.toFixed(4)}&lon=${r.lon.toFixed(4)}${r.altM === undefined ? '' : `&alt=${r.altM}`}`);
}

/**
 * `gets` keyed weather.php requests to the server's own address, with warm-up keys of {@link WARM_PLAN} (a new one
 * whenever the plan's minute quota would refuse the next request); `GET /` where the app has no access plugin.
 */
async function warmOverHttp(app: FastifyInstance, own: { host: string; port: number }, gets: number, nowMs: number): Promise<HttpWarmReport> {
  const headers = { [WARM_UP_HEADER]: WARM_UP_TOKEN };
  const m = nowProduct(app.products, app.tiles, nowMs);
  if (!app.hasDecorator('warmUpKey') || !m || !coversNow(m, nowMs)) return warmHttp(own.host, own.port, gets, { headers });
  const paths = warmPaths(m.region.bbox, gets);
  const total: HttpWarmReport = { requests: 0, errors: 0, ms: 0 };
  while (total.requests < gets) {
    const key = app.warmUpKey(WARM_PLAN);
    try {
      const n = Math.min(gets - total.requests, key.perMinute);
      const r = await warmHttp(own.host, own.port, n, { connections: WARM_CONNECTIONS, headers: headerSets(key.key), paths: paths.slice(total.requests, total.requests + n) });
      total.requests += r.requests;
      total.errors += r.errors;
      total.ms += r.ms;
      if (r.requests < n) break; // out of time (warmHttp's maxMs)
    } finally {
      key.end();
    }
  }
  return total;
}

/** Call before `listen`: from then /healthz is not ready until the returned `run` (after `listen`) has finished. */
export function startWarm(app: FastifyInstance, opts: StartWarmOptions = {}): { run(): Promise<void> } {
  let warming = true;
  app.decorate('startWarming', () => warming);
  const warmUp = async () => {
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
      answers = await warmAppAnswers(app, { ...(opts.nowMs !== undefined ? { nowMs: opts.nowMs } : {}), ...(opts.lookups !== undefined ? { lookups: opts.lookups } : {}) });
      const own = ownAddress(app);
      // Nothing to answer (no forecast covers now): the HTTP code would warm for nothing either.
      if (own && answers.lookups > 0) {
        http = await warmOverHttp(app, own, opts.gets ?? WARM_GETS, opts.nowMs ?? Date.now());
      }
    } catch (err) {
      app.log.error({ err }, 'answer warm-up failed');
    } finally {
      warming = false;
    }
    const cpu = process.cpuUsage(cpu0);
    app.log.info(
      {
        ms: Math.round(performance.now() - t0), tilesMs: Math.round(tilesMs), blocks, MiB: Math.round(bytes / 2 ** 20),
        spareMiB: Math.round(app.tiles.warmSpareBytes() / 2 ** 20),
        lookups: answers?.lookups ?? 0, lookupErrors: answers?.errors ?? 0, gets: http?.requests ?? 0, getErrors: http?.errors ?? 0,
        answersCpuMs: Math.round((cpu.user + cpu.system) / 1000),
      },
      'tile cache warm: ready',
    );
  };
  return { run: () => recognisingWarmUps(warmUp) };
}
