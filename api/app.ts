/**
 * `buildApp`: the Fastify application, built apart from `listen()` so that
 * tests use `app.inject()` and the CLI, the benchmark and tests start it the
 * same way.
 *
 * Registration order: request timing (first onRequest hook), error
 * handling, shared services (tiles, weather), then
 * routes. The access layer (api/access: keys, plans, quotas) registers
 * between the services and the routes; the operator dashboard (api/admin)
 * only when MP_ADMIN_TOKEN and REDIS_URL are set.
 */
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyServerOptions } from 'fastify';
import type { TileStore } from '../tiles/reader.js';
import errorsPlugin from './plugins/errors.js';
import timingPlugin from './plugins/timing.js';
import tilesPlugin from './plugins/tiles.js';
import weatherPlugin from './plugins/weather.js';
import accessPlugin, { type AccessPluginOptions } from './access/plugin.js';
import { registerQueueDashboard } from './admin/dashboard.js';
import healthRoutes from './routes/health.js';
import { redactingSerializers, redactKeys } from './logging/redact-keys.js';
import { errorBody } from './plugins/errors.js';
import { clientErrorHandler } from './server/client-errors.js';
import { loadServerLimits } from './server/limits.js';
import weatherRoutes from './routes/weather.js';

export interface AppOptions {
  /** Data directory (`$METEOPUNTO_DATA`), products under `<dataDir>/tiles/`. */
  dataDir: string;
  /** A tile store to share (tests, benchmark); default a new one over dataDir. */
  tiles?: TileStore;
  /** Fastify/pino logger options; default off. */
  logger?: FastifyServerOptions['logger'];
  /** Current time, ms since the epoch; default Date.now (tests freeze it). */
  clock?: () => number;
  /** Trust X-Forwarded-* from a proxy in front (see Fastify trustProxy). */
  trustProxy?: FastifyServerOptions['trustProxy'];
  /**
   * Keys, plans and quotas (api/access). Default: built from process.env
   * (REDIS_URL → Redis; else the embedded keys file in dataDir and in-memory quotas).
   */
  access?: AccessPluginOptions;
  /** Environment for the operator dashboard (MP_ADMIN_TOKEN, REDIS_URL); default process.env. */
  env?: NodeJS.ProcessEnv;
}

/** Logger options with the key-redacting serializers (api/logging/redact-keys.ts) unless the caller sets its own. */
function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (logger === false || logger === undefined) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...redactingSerializers, ...(base.serializers ?? {}) } };
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const limits = loadServerLimits(opts.env ?? process.env);
  const app = Fastify({
    keepAliveTimeout: limits.keepAliveTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    clientErrorHandler,
    logger: withRedaction(opts.logger ?? false),
    trustProxy: opts.trustProxy ?? false,
    // verbose: validation errors carry the schema and value, for 400 messages that name bounds.
    ajv: { customOptions: { verbose: true } },
    // Errors raised by the router before any route (FST_ERR_BAD_URL: bad percent-encoding) in the API's shape.
    frameworkErrors: (error, _request, reply: FastifyReply) => {
      const status = typeof error.statusCode === 'number' && error.statusCode < 500 ? error.statusCode : 400;
      const message = error.code === 'FST_ERR_BAD_URL' ? 'The request URL is not valid percent-encoding' : redactKeys(error.message);
      void reply.code(status).type('application/json; charset=utf-8').send(errorBody('INVALID_PARAMETER', message));
    },
  });
  // Not Fastify options: set on the Node server (api/server/limits.ts says why these values).
  const server = app.server as import('node:http').Server;
  server.headersTimeout = limits.headersTimeoutMs;
  server.maxConnections = limits.maxConnections;
  await app.register(timingPlugin);
  await app.register(errorsPlugin);
  await app.register(tilesPlugin, { dataDir: opts.dataDir, ...(opts.tiles ? { tiles: opts.tiles } : {}) });
  await app.register(weatherPlugin, { dataDir: opts.dataDir, ...(opts.clock ? { clock: opts.clock } : {}) });
  const env = opts.env ?? process.env;
  // The embedded key store lives in the served data directory unless the caller says otherwise.
  await app.register(accessPlugin, opts.access ?? { env: { ...env, METEOPUNTO_DATA: opts.dataDir } });
  // Mounted only when an operator token is configured (README, "Queue dashboard").
  if (env.MP_ADMIN_TOKEN && env.REDIS_URL) {
    await registerQueueDashboard(app, { redisUrl: env.REDIS_URL, token: env.MP_ADMIN_TOKEN });
  }
  await app.register(healthRoutes, opts.clock ? { clock: opts.clock } : {});
  await app.register(weatherRoutes);
  return app;
}
