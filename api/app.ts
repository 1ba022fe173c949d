/**
 * `buildApp`: the Fastify application, built apart from `listen()` so that
 * tests use `app.inject()` and the CLI, the benchmark and tests start it the
 * same way.
 *
 * Registration order: the hand-over to the check phase, which also stamps
 * the request for `elapsed_ms` (first onRequest hook), error handling, shared services (tiles, weather), then
 * routes. CORS, then the access layer (api/access: keys, plans, quotas),
 * register between the services and the routes; the operator dashboard (api/admin)
 * only when METEOPUNTO_ADMIN_TOKEN and REDIS_URL are set.
 */
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import type { TileStore } from '../tiles/read/reader.js';
import errorsPlugin from './plugins/errors.js';
import timingPlugin from './plugins/timing.js';
import securityHeaders from './plugins/security-headers.js';
import tilesPlugin from './plugins/tiles.js';
import weatherPlugin from './plugins/weather.js';
import accessPlugin, { type AccessPluginOptions } from './access/plugin.js';
import { registerQueueDashboard } from './admin/dashboard.js';
import { registerMetrics } from './plugins/metrics.js';
import { registerApiVersion } from './plugins/api-version.js';
import { registerBatching } from './plugins/batching.js';
import { registerOpenApi } from './plugins/openapi.js';
import { queuePrefix } from '../config/queues.js';
import { parseCorsOrigins, registerCors } from './plugins/cors.js';
import healthRoutes from './routes/health.js';
import weatherRoutes from './routes/weather.js';
import widgetRoutes from './routes/widget.js';
import rootRoutes from './routes/root.js';
import { withRedaction } from './log-redaction.js';
import { secretValues } from '../config/redaction.js';
import { RequestLines } from './request-log.js';
import { isWarmUpRequest } from './weather/start-warm.js';
import { clientErrorHandler, frameworkErrors, refuseConnect, requireHttp1 } from './client-errors.js';
import { DEFAULT_SERVER_LIMITS, type ServerLimits } from './server-limits.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';

export interface AppOptions {
  /** Data directory (`$METEOPUNTO_DATA`), products under `<dataDir>/tiles/`. */
  dataDir: string;
  /** A tile store to share (tests, benchmark); default a new one over dataDir. */
  tiles?: TileStore;
  /** Fastify/pino logger options; default off. */
  logger?: FastifyServerOptions['logger'];
  /** Log each request as one line when it is answered (./request-log.ts), instead of Fastify's line in and line out. */
  requestLines?: boolean;
  /** Current time, ms since the epoch; default Date.now (tests freeze it). */
  clock?: () => number;
  /** Trust X-Forwarded-* from a proxy in front (see Fastify trustProxy). */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * Keys, plans and quotas (api/access). Default: built from the process environment
   * (REDIS_URL → Redis; else the embedded keys file in dataDir and in-memory quotas).
   */
  access?: AccessPluginOptions;
  /** Connection limits of the HTTP server (./server-limits.ts); default DEFAULT_SERVER_LIMITS. */
  limits?: ServerLimits;
  /** Origins whose pages may call weather.php from the browser (./plugins/cors.ts); default METEOPUNTO_CORS_ORIGINS. */
  corsOrigins?: '*' | string[];
  /** Environment for the operator dashboard (METEOPUNTO_ADMIN_TOKEN, REDIS_URL) and CORS; default the process environment. */
  env?: NodeJS.ProcessEnv;
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const limits = opts.limits ?? DEFAULT_SERVER_LIMITS;
  const env = opts.env ?? processEnv();
  const app = Fastify({
    // Every log line passes the redaction rule, with the environment's credentials (operator token, ...) removed (./log-redaction.ts).
    logger: withRedaction(opts.logger ?? false, secretValues(env)),
    // A start warm-up's own requests are not logged, every other one is (./weather/start-warm.ts).
    logController: opts.requestLines ? new RequestLines({ disableRequestLogging: isWarmUpRequest }) : new LogController({ disableRequestLogging: isWarmUpRequest }),
    trustProxy: opts.trustProxy ?? false,
    // verbose: validation errors carry the schema and value, for 400 messages that name bounds.
    ajv: { customOptions: { verbose: true } },
    // Errors before any route, in the API's shape (./client-errors.ts).
    clientErrorHandler,
    frameworkErrors,
    requestTimeout: limits.requestTimeoutMs,
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    // headersTimeout is checked every connectionsCheckingInterval (Node's default: 30 s).
    http: { requireHostHeader: false, headersTimeout: limits.headersTimeoutMs, connectionsCheckingInterval: Math.min(1000, limits.headersTimeoutMs) },
    // find-my-way's compiled matcher instead of a tree walk per request (same matching; docs/benchmarks-journal.md, "The HTTP layer").
    routerOptions: { compile: true },
  });
  app.server.maxConnections = limits.maxConnections;
  app.server.on('connect', refuseConnect);
  registerBatching(app);
  app.addHook('onRequest', requireHttp1);
  registerApiVersion(app);
  await app.register(timingPlugin);
  await app.register(securityHeaders);
  await app.register(errorsPlugin);
  await app.register(tilesPlugin, { dataDir: opts.dataDir, ...(opts.tiles ? { tiles: opts.tiles } : {}) });
  await app.register(weatherPlugin, { dataDir: opts.dataDir, ...(opts.clock ? { clock: opts.clock } : {}) });
  // Before access: its onRequest hook must run before a key refusal, so a listed origin can read the 401 or 403.
  await registerCors(app, opts.corsOrigins ?? parseCorsOrigins(setting(env, 'METEOPUNTO_CORS_ORIGINS')));
  // The embedded key store lives in the served data directory unless the caller says otherwise.
  await app.register(accessPlugin, opts.access ?? { env: { ...env, METEOPUNTO_DATA: opts.dataDir } });
  // Mounted only when an operator token is configured (docs/jobs.md, "Queue dashboard").
  const adminToken = setting(env, 'METEOPUNTO_ADMIN_TOKEN');
  const redisUrl = setting(env, 'REDIS_URL');
  if (adminToken && redisUrl) {
    await registerQueueDashboard(app, { redisUrl, token: adminToken });
  }
  if (adminToken) await registerMetrics(app, { token: adminToken, dataDir: opts.dataDir, ...(redisUrl ? { queues: { redisUrl, prefix: queuePrefix(env) } } : {}) });
  await registerOpenApi(app);
  await app.register(healthRoutes, opts.clock ? { clock: opts.clock } : {});
  await app.register(weatherRoutes);
  await app.register(widgetRoutes);
  await app.register(rootRoutes);
  return app;
}
