/**
 * The operators' queue dashboard: Bull Board over the ingest and schedule
 * queues (config/queues.ts), mounted at `/admin/queues` behind the operator
 * token (operator-token.ts). Without a configured token (or without Redis)
 * nothing is mounted at all, so `/admin/queues` is an ordinary 404 — no
 * dashboard is ever exposed unprotected. BullMQ and Bull Board are loaded only
 * when the dashboard is mounted.
 *
 * The api may not import jobs/: it opens its own Queue handles from the
 * shared queue names and prefix.
 */
import fp from 'fastify-plugin';
import type { FastifyInstance } from 'fastify';
import type { Queue } from 'bullmq';
import { QUEUE_NAMES, queuePrefix } from '../../config/queues.js';
import { MIN_TOKEN_LENGTH, operatorGuard } from './operator-token.js';

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
  for (const q of queues) q.on('error', (err) => app.log.warn({ queue: q.name, err: err.message }, 'queue dashboard: Redis error'));
  app.addHook('onClose', async () => {
    await Promise.all(queues.map((q) => q.close()));
  });

  const token = opts.token;
  // Encapsulated: the guard and Bull Board's view/static plugins stay inside this context.
  await app.register(async (admin) => {
    admin.addHook('onRequest', operatorGuard(token, basePath));
    const serverAdapter = new FastifyAdapter();
    serverAdapter.setBasePath(basePath);
    createBullBoard({
      queues: queues.map((q) => new BullMQAdapter(q)),
      serverAdapter,
      options: { uiConfig: { boardTitle: 'Meteopunto queues' } },
    });
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
