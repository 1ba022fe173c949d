/**
 * `meteopunto serve [--port <n>] [--host <h>]`: run the API server.
 *
 * Port: --port, else $PORT, else 8080. Host: --host, else $HOST, else
 * 127.0.0.1 (set HOST=0.0.0.0 to listen on every interface, e.g. in a
 * container). Data: $METEOPUNTO_DATA (default ./data). Logs on stdout at
 * $LOG_LEVEL (default info): readable lines on a terminal, pino's JSON lines
 * otherwise ($METEOPUNTO_LOG_FORMAT forces either; ./request-log.ts). Chunk cache:
 * $METEOPUNTO_TILE_CACHE_MB (default: the decoded size of the stores
 * published at start-up plus the largest again, at least 256 MiB, at most half the
 * memory: tiles/read/cache-budget.ts; logged at start).
 *
 * SIGTERM or SIGINT closes the server gracefully: it stops accepting
 * connections, answers the requests in flight, then returns 0. A second
 * signal during shutdown exits at once with 130.
 */
import type { FastifyInstance } from 'fastify';
import { dataDir } from '../config/paths.js';
import { TileStore } from '../tiles/read/reader.js';
import type { WarmReport } from '../tiles/read/warm.js';
import { STORE_KEY } from '../tiles/read/live-versions.js';
import { followPublished } from '../tiles/publish-channel.js';
import { defaultReadPlan } from './weather/warm-plan.js';
import { startWarm } from './weather/start-warm.js';
import { buildApp } from './app.js';
import { processEnv } from '../config/process-env.js';
import { integerSetting, setting, type Environment } from '../config/environment.js';
import { serverLimits, trustProxy } from './server-limits.js';
import { logFormat } from '../config/log-format.js';
import { serverLogging } from './request-log.js';

export const DEFAULT_PORT = 8080;
export const DEFAULT_HOST = '127.0.0.1';

const USAGE = `usage: meteopunto serve [--port <n>] [--host <h>]

  --port <n>   TCP port (default $PORT or ${DEFAULT_PORT})
  --host <h>   address to bind (default $HOST or ${DEFAULT_HOST}; 0.0.0.0 for all interfaces)

environment: METEOPUNTO_DATA (data directory, default ./data), PORT, HOST, LOG_LEVEL (default info),
             METEOPUNTO_LOG_FORMAT (pretty or json; default pretty on a terminal, else json),
             METEOPUNTO_TILE_CACHE_MB (decoded chunk cache, MiB; default sized from the published stores),
             METEOPUNTO_HISTORY_CACHE_MB (the reanalysis years' decoded cache, MiB; default 256),
             METEOPUNTO_DECODE_THREADS (threads decoding cold tile blocks; default 0: on the event loop)`;

export interface ServeOptions {
  port: number;
  host: string;
  /** Chunk cache budget, bytes (undefined: the reader's default). */
  cacheBytes?: number;
  /** The reanalysis years' own decoded cache, bytes (unset: the tile store's default). */
  historyCacheBytes?: number;
  /** Threads decoding cold blocks off the event loop (0: on it). */
  decodeThreads: number;
}

/**
 * METEOPUNTO_DECODE_THREADS, default 0 (decode on the event loop): on the
 * 2-core development machine one decode thread made random-point traffic
 * slower, not faster (docs/benchmarks.md); more cores may differ.
 */
export function decodeThreads(env: Environment = processEnv()): number {
  return integerSetting(env, 'METEOPUNTO_DECODE_THREADS', 0);
}

/** Parse argv and environment; throws a message naming the bad option. */
export function parseServeArgs(argv: readonly string[], env: Environment = processEnv()): ServeOptions | 'help' {
  let port: string | undefined = setting(env, 'PORT');
  let host: string | undefined = setting(env, 'HOST');
  let portFrom = 'PORT';
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined];
    if (flag === '--help' || flag === '-h') return 'help';
    if (flag !== '--port' && flag !== '--host') throw new Error(`unknown option '${a}'`);
    const value = inline ?? argv[++i];
    if (value === undefined || value === '') throw new Error(`${flag} needs a value`);
    if (flag === '--port') {
      port = value;
      portFrom = '--port';
    } else host = value;
  }
  let portNum = DEFAULT_PORT;
  if (port !== undefined) {
    portNum = /^\d{1,5}$/.test(port) ? Number(port) : NaN;
    if (!(portNum >= 0 && portNum <= 65535)) throw new Error(`${portFrom} must be an integer 0..65535, got '${port}'`);
  }
  const opts: ServeOptions = { port: portNum, host: host ?? DEFAULT_HOST, decodeThreads: decodeThreads(env) };
  const cache = cacheMiB(env, 'METEOPUNTO_TILE_CACHE_MB');
  if (cache !== undefined) opts.cacheBytes = cache * 1024 * 1024;
  const history = cacheMiB(env, 'METEOPUNTO_HISTORY_CACHE_MB');
  if (history !== undefined) opts.historyCacheBytes = history * 1024 * 1024;
  return opts;
}

/** A cache budget in MiB from the environment: an integer ≥ 16, or undefined when unset. */
function cacheMiB(env: Environment, name: string): number | undefined {
  const raw = setting(env, name);
  if (raw === undefined) return undefined;
  const mb = /^\d{1,6}$/.test(raw) ? Number(raw) : NaN;
  if (!(mb >= 16)) throw new Error(`${name} must be an integer ≥ 16 (MiB), got '${raw}'`);
  return mb;
}

/**
 * With REDIS_URL, a publish announced on Redis (tiles/publish-channel.ts) makes the server read that store's
 * current.json at once instead of at its next check; without, or while Redis is away, the check alone finds it.
 */
function followPublishes(app: FastifyInstance, redisUrl: string | undefined): void {
  if (!redisUrl) return;
  let warned = false;
  const follower = followPublished(redisUrl, (stores) => app.tiles.refresh(stores.filter((s) => STORE_KEY.test(s))), (err) => {
    if (warned) return;
    warned = true;
    app.log.warn({ err }, 'publish announcements: Redis unreachable; new versions are found by the manifest check instead');
  });
  void follower.ready.then(() => {
    warned = false;
  });
  app.addHook('onClose', async () => follower.close());
}

/** One line per warmed version: a start's, or a publish's switch. */
function logWarm(app: FastifyInstance, r: WarmReport): void {
  const what = { product: r.key, version: r.version, blocks: r.blocks, of: r.total, MiB: Math.round(r.bytes / 2 ** 20), ms: Math.round(r.ms) };
  if (r.stopped) app.log.warn({ ...what, stopped: r.stopped }, r.gone ? 'version removed while warming: not switched to' : 'tile warm stopped early');
  else app.log.info(what, r.switched ? 'new version warm: switched to it' : 'version warm');
}

/** Close the app on SIGTERM/SIGINT; resolves once closed. */
function closeOnSignal(app: FastifyInstance): Promise<void> {
  return new Promise((resolveClosed) => {
    let closing = false;
    const onSignal = (signal: NodeJS.Signals) => {
      if (closing) {
        app.log.warn({ signal }, 'second signal during shutdown: exiting now');
        process.exit(130);
      }
      closing = true;
      app.log.info({ signal }, 'shutting down: finishing requests in flight');
      app.close().then(
        () => resolveClosed(),
        (err: unknown) => {
          app.log.error({ err }, 'error while closing');
          resolveClosed();
        },
      );
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
    app.addHook('onClose', async () => {
      process.off('SIGTERM', onSignal);
      process.off('SIGINT', onSignal);
    });
  });
}

export interface ServeHooks {
  /** Called once the server listens and has logged its start-up lines, with its base URL (`meteopunto start` prints the demo key there, last). */
  onListening?(url: string): Promise<void>;
}

export async function run(argv: string[], hooks: ServeHooks = {}): Promise<number> {
  let opts: ServeOptions | 'help';
  try {
    opts = parseServeArgs(argv);
  } catch (err) {
    console.error(`meteopunto serve: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (opts === 'help') {
    console.log(USAGE);
    return 0;
  }
  const root = dataDir();
  // A new version is warmed before it answers, and /healthz is not ready until the start's warm is done (tiles/read/warm.ts, ./weather/start-warm.ts).
  let onWarm: (r: WarmReport) => void = () => undefined;
  const tiles = new TileStore(root, {
    decodeThreads: opts.decodeThreads,
    ...(opts.cacheBytes !== undefined ? { cacheBytes: opts.cacheBytes } : {}),
    ...(opts.historyCacheBytes !== undefined ? { historyCacheBytes: opts.historyCacheBytes } : {}),
    warm: defaultReadPlan(),
    onWarm: (r) => onWarm(r),
  });
  const env = processEnv();
  const { logger, requestLines } = serverLogging(logFormat(env, process.stdout.isTTY === true), setting(env, 'LOG_LEVEL') ?? 'info');
  const app = await buildApp({ dataDir: root, tiles, limits: serverLimits(), trustProxy: trustProxy(), logger, requestLines });
  const warm = startWarm(app);
  onWarm = (r) => logWarm(app, r);
  // Tiles in a bucket: load its manifests before the first request (a directory is read as requests come).
  const reachable = await app.tiles.readyAll().then(
    () => true,
    (err: unknown) => (app.log.error({ err }, `tile storage ${app.tiles.storage.location} unreachable at start: weather.php answers 503 until it answers`), false),
  );
  followPublishes(app, setting(env, 'REDIS_URL'));
  const closed = closeOnSignal(app);
  let url: string;
  try {
    url = await app.listen({ port: opts.port, host: opts.host });
  } catch (err) {
    const e = err as NodeJS.ErrnoException;
    const why = e.code === 'EADDRINUSE' ? `port ${opts.port} is already in use (choose another with --port or PORT)` : e.message;
    console.error(`meteopunto serve: cannot listen on ${opts.host}:${opts.port}: ${why}`);
    await app.close();
    return 1;
  }
  app.log.info({ cacheMiB: Math.round(app.tiles.cacheStats().maxBytes / 2 ** 20) }, 'tile cache budget');
  const products = app.products.products();
  // An unreachable store has said so above: "nothing published" would be a second, wrong reason.
  if (reachable && !products.some((p) => p.feeds.includes('base'))) app.log.warn({ dataDir: root }, 'no forecast data published yet: weather.php answers 503 until `meteopunto ingest nwp <file>` or `meteopunto demo` runs');
  const sample = products.filter((p) => app.tiles.manifest(p.product)?.source.sample === true).map((p) => p.product);
  if (sample.length > 0) app.log.warn({ products: sample }, `serving SAMPLE data (meteopunto demo), not real data: ${sample.join(', ')}`);
  void warm.run();
  await hooks.onListening?.(url);
  await closed;
  return 0;
}
