/**
 * `/metrics` in Prometheus text format (prom-client), on the API port, only
 * for `Authorization: Bearer <METEOPUNTO_ADMIN_TOKEN>` (401 otherwise);
 * not mounted at all without an operator token. One registry per app.
 *
 * Counted: requests by route and status, latency by route, quota refusals
 * (429) by plan, tile cache hits, misses, bytes and budget per cache
 * (forecast, history), and per published store
 * its data age (now − publish time) and coverage end, access-store
 * failures, ingests the gate refused (tiles/gate-refusals.ts), ingest and
 * schedule jobs (./job-metrics.ts) when Redis is
 * configured; plus the process metrics prom-client collects by default.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import { countGateRefusals } from '../../tiles/gate-refusals.js';
import { registerJobMetrics, type JobMetricsOptions } from './job-metrics.js';

export interface MetricsOptions {
  token: string;
  dataDir: string;
  /** With Redis: job metrics from the BullMQ queues (./job-metrics.ts). */
  queues?: JobMetricsOptions;
}

function sameSecret(a: string, b: string): boolean {
  const d = (t: string) => createHash('sha256').update(t).digest();
  return timingSafeEqual(d(a), d(b));
}

export async function registerMetrics(app: FastifyInstance, opts: MetricsOptions): Promise<void> {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'meteopunto_' });
  const requests = new Counter({ name: 'meteopunto_http_requests_total', help: 'API requests by route and status', labelNames: ['route', 'status'], registers: [registry] });
  const latency = new Histogram({
    name: 'meteopunto_http_request_duration_seconds', help: 'API response time by route', labelNames: ['route'],
    buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5], registers: [registry],
  });
  const refusals = new Counter({ name: 'meteopunto_quota_refusals_total', help: 'Requests refused for quota (429) by plan', labelNames: ['plan'], registers: [registry] });
  const tiles = app.tiles;
  const products = app.products;
  // Two caches, labelled apart: the forecast stores' and the period stores' (tiles/read/cache-budget.ts). A sum
  // would hide a history cache that thrashes behind a forecast cache that holds everything.
  const perCache = (name: string, help: string, stat: 'hits' | 'misses' | 'bytes' | 'maxBytes') =>
    new Gauge({
      name, help, labelNames: ['cache'], registers: [registry],
      collect() {
        const all = tiles.cacheStats();
        this.set({ cache: 'forecast' }, all[stat] - all.history[stat]);
        this.set({ cache: 'history' }, all.history[stat]);
      },
    });
  perCache('meteopunto_tile_cache_hits', 'Tile cache lookups answered from memory since start, by cache', 'hits');
  perCache('meteopunto_tile_cache_misses', 'Tile blocks decoded from disk since start, by cache', 'misses');
  perCache('meteopunto_tile_cache_bytes', 'Decoded bytes held in each tile cache', 'bytes');
  perCache('meteopunto_tile_cache_budget_bytes', 'Each tile cache\'s budget, bytes', 'maxBytes');
  const age = new Gauge({ name: 'meteopunto_data_age_seconds', help: 'Seconds since the live version of each store was published', labelNames: ['store'], registers: [registry] });
  new Gauge({
    name: 'meteopunto_data_coverage_end_seconds', help: 'Last valid time of each store (Unix seconds)', labelNames: ['store'], registers: [registry],
    collect() {
      this.reset();
      age.reset();
      const now = Date.now();
      // The stores as the router sees them, through the tile storage (a directory or a bucket alike).
      for (const p of products.products()) {
        const keys = p.layout === 'periods' ? products.periods(p.product).map((y) => `${p.product}/${y}`) : [p.product];
        for (const key of keys) {
          const m = tiles.manifest(key);
          if (!m) continue;
          age.set({ store: key }, (now - Date.parse(m.published)) / 1000);
          if (m.coverage) this.set({ store: key }, Date.parse(m.coverage.to) / 1000);
        }
      }
    },
  });

  new Counter({
    name: 'meteopunto_gate_refusals_total', help: 'Ingests the ingest gate refused, by product and check (docs/gate.md)',
    labelNames: ['product', 'check'], registers: [registry],
    collect() {
      this.reset();
      for (const r of countGateRefusals(opts.dataDir).values()) this.inc({ product: r.product, check: r.check }, r.count);
    },
  });

  const accessErrors = app.accessErrors;
  new Counter({
    name: 'meteopunto_access_store_errors_total', help: 'Requests refused 503 because the key store or the quota store (Redis) did not answer',
    labelNames: ['store'], registers: [registry],
    collect() {
      this.reset();
      this.inc({ store: 'keys' }, accessErrors.keyStore);
      this.inc({ store: 'quota' }, accessErrors.quotaStore);
    },
  });
  if (opts.queues) {
    const close = await registerJobMetrics(registry, opts.queues);
    app.addHook('onClose', close);
  }

  app.addHook('onResponse', async (request: FastifyRequest, reply: FastifyReply) => {
    const route = request.routeOptions.url ?? 'unmatched';
    if (route === '/metrics') return;
    requests.inc({ route, status: String(reply.statusCode) });
    latency.observe({ route }, reply.elapsedTime / 1000);
    const plan = (request as { access?: { plan?: string } | null }).access?.plan;
    if (reply.statusCode === 429) refusals.inc({ plan: plan ?? 'unknown' });
  });

  app.get('/metrics', async (request, reply) => {
    const m = /^Bearer\s+(.+)$/i.exec(request.headers.authorization?.trim() ?? '');
    if (!m || !sameSecret(m[1]!, opts.token)) {
      return reply.code(401).header('www-authenticate', 'Bearer realm="meteopunto-metrics"').send({ error: { code: m ? 'INVALID_KEY' : 'MISSING_KEY', message: 'metrics need Authorization: Bearer <METEOPUNTO_ADMIN_TOKEN>' } });
    }
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(await registry.metrics());
  });
}
