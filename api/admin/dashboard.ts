/**
 * The operators' queue dashboard: Bull Board over the ingest and schedule
 * queues (config/queues.ts), mounted at `/admin/queues` behind the operator
 * token (operator-token.ts). Without a configured token (or without Redis)
 * nothing is mounted at all, so `/admin/queues` is an ordinary 404 — no
 * dashboard is ever exposed unprotected. BullMQ and Bull Board are loaded only
 * when the dashboard is mounted.
 *
 * Errors inside it leave in the API's shape (5xx without detail, logged);
 * while its Redis is unreachable its API answers 503 at once and the log
 * gets one warning, not one per reconnection attempt.
 *
 * The api may not import jobs/: it opens its own Queue handles from the
 * shared queue names and prefix.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Queue } from 'bullmq';
import type { FastifyAdapter as BoardAdapter } from '@bull-board/fastify';
import { QUEUE_NAMES, queuePrefix } from '../../config/queues.js';
import { MIN_TOKEN_LENGTH, operatorGuard } from './operator-token.js';
import type { ErrorBody } from '../errors.js';
import { errorBody, failureOf, logFailure } from '../plugins/errors.js';
import { redactSecrets } from '../../config/redaction.js';

export interface QueueDashboardOptions {
  /** REDIS_URL; no dashboard without it. */
  redisUrl: string | undefined;
  /** METEOPUNTO_ADMIN_TOKEN; no dashboard without it. At least 16 characters. */
  token: string | undefined;
  /** Redis key prefix of the queues (default METEOPUNTO_QUEUE_PREFIX or 'meteopunto'). */
  prefix?: string;
  /** Mount path (default /admin/queues). */
  basePath?: string;
}

export const DASHBOARD_PATH = '/admin/queues';
type BoardErrorHandler = Parameters<BoardAdapter['setErrorHandler']>[0];
const UNAVAILABLE_RETRY_S = 5;
/** How long a dashboard API request waits for a first connection to Redis, ms. */
const READY_WAIT_MS = 1000;

/** Whether every queue's Redis connection is ready (waiting at most READY_WAIT_MS for a first one). */
async function queuesReady(queues: readonly Queue[]): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<null>((resolve) => {
    timer = setTimeout(() => resolve(null), READY_WAIT_MS);
  });
  try {
    const clients = await Promise.race([Promise.all(queues.map((q) => q.getBackend().client)), late]);
    return clients !== null && clients.every((c) => c.status === 'ready');
  } catch {
    return false;
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Logs the queues' Redis errors as JSON warnings, each message once until
 * the connection is ready again (ioredis retries every few hundred ms; a
 * line per retry would flood the log).
 */
function watchRedis(app: FastifyInstance, queues: readonly Queue[]): void {
  let last: string | null = null;
  for (const q of queues) {
    q.on('error', (err: Error) => {
      if (err.message === last) return;
      last = err.message;
      app.log.warn({ queue: q.name, err }, 'queue dashboard: Redis error; its API answers 503 until Redis is back');
    });
    q.getBackend().client.then(
      (client) =>
        client.on('ready', () => {
          if (last === null) return;
          last = null;
          app.log.info({ queue: q.name }, 'queue dashboard: Redis is back');
        }),
      () => {}, // the connection's own errors arrive as 'error' events above
    );
  }
}

async function queueDashboard(app: FastifyInstance, opts: QueueDashboardOptions): Promise<void> {
  const basePath = opts.basePath ?? DASHBOARD_PATH;
  if (!opts.token || !opts.redisUrl) {
    app.log.info(`queue dashboard not mounted (${!opts.token ? 'METEOPUNTO_ADMIN_TOKEN' : 'REDIS_URL'} not set)`);
    return;
  }
  if (opts.token.length < MIN_TOKEN_LENGTH) {
    throw new Error(`METEOPUNTO_ADMIN_TOKEN must be at least ${MIN_TOKEN_LENGTH} characters (e.g. \`openssl rand -hex 24\`)`);
  }
  const [{ Queue }, { createBullBoard }, { BullMQAdapter }, { FastifyAdapter }] = await Promise.all([
    import('bullmq'),
    import('@bull-board/api'),
    import('@bull-board/api/bullMQAdapter'),
    import('@bull-board/fastify'),
  ]);
  const prefix = opts.prefix ?? queuePrefix();
  // Fail fast instead of queueing commands while Redis is away: the page errors, the API keeps serving.
  const connection = { url: opts.redisUrl, enableOfflineQueue: false, maxRetriesPerRequest: 1 };
  const queues: Queue[] = QUEUE_NAMES.map((name) => new Queue(name, { connection, prefix }));
  watchRedis(app, queues);
  app.addHook('onClose', async () => {
    // close() sends QUIT, which fails while Redis is away (and a disconnect then waits for an end that never
    // comes): then the sockets are just dropped.
    const ready = await queuesReady(queues);
    await Promise.all(queues.map((q) => (ready ? q.close() : q.getBackend().close(true))));
  });

  const token = opts.token;
  const apiPath = `${basePath}/api/`;
  // Encapsulated: the guard and Bull Board's view/static plugins stay inside this context.
  await app.register(async (admin) => {
    admin.addHook('onRequest', operatorGuard(token, basePath));
    // Bull Board's API waits for Redis without a bound; its page and assets need none.
    admin.addHook('onRequest', async (request, reply) => {
      if (!request.url.startsWith(apiPath) || (await queuesReady(queues))) return;
      const body: ErrorBody = { error: { code: 'SERVICE_UNAVAILABLE', message: 'queue store (Redis) unreachable; the weather API keeps serving' } };
      return reply.code(503).header('Retry-After', UNAVAILABLE_RETRY_S).header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
    });
    admin.addHook('onError', async (request, _reply, error) => logFailure(error, failureOf(error), request));
    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(basePath);
    createBullBoard({
      queues: queues.map((q) => new BullMQAdapter(q)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'Meteopunto queues' } },
    });
    // After createBullBoard, which sets its own: errors thrown in the dashboard leave in the API's shape, 5xx without detail.
    // Bull Board's typings list only the statuses it sends itself (a 401 or 503 is not among them).
    serverAdapter.setErrorHandler(((error: Error) => {
      const f = failureOf(error);
      return { status: f.status, body: errorBody(f.code, redactSecrets(f.message)) };
    }) as BoardErrorHandler);
    await admin.register(serverAdapter.registerPlugin(), { prefix: basePath });
  });
  app.log.info(`queue dashboard mounted at ${basePath}`);
}

/** The dashboard as a named fastify-plugin (its onClose hook closes the Queue handles). */
export const queueDashboardPlugin = fp(queueDashboard, { name: 'meteopunto-queue-dashboard', fastify: '5.x' });

/**
 * Mount the dashboard on the app (the lead calls this in buildApp):
 * `await registerQueueDashboard(app, { redisUrl, token })` with REDIS_URL and METEOPUNTO_ADMIN_TOKEN.
 */
export async function registerQueueDashboard(app: FastifyInstance, opts: QueueDashboardOptions): Promise<void> {
  await app.register(queueDashboardPlugin, opts);
}
