/**
 * GET /healthz: liveness plus the age of every published product.
 *
 * 200 when the node can answer weather.php now, 503 with the reasons
 * otherwise (./health-reasons.ts: nothing feeds the base fields, or the
 * product answering "now" does not cover the current time). Per product, from its manifest:
 * version, publication time and age in seconds, the valid-time range,
 * whether it covers the current time (a forecast past its last step makes
 * weather.php answer 503), and whether it is the labelled sample dataset;
 * period products (reanalysis years) are listed as `<product>/<year>`.
 * No paths, no keys, nothing a stranger could misuse.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Manifest } from '../../tiles/manifest.js';
import { HEALTH_REASON_CODES, healthReasons } from './health-reasons.js';

export const HEALTH_PATH = '/healthz';

const Nullable = <T extends ReturnType<typeof Type.String>>(t: T) => Type.Union([t, Type.Null()]);

export const ProductHealthSchema = Type.Object({
  available: Type.Boolean(),
  version: Nullable(Type.String()),
  published: Nullable(Type.String({ description: 'ISO 8601 UTC' })),
  age_seconds: Type.Union([Type.Integer(), Type.Null()]),
  time_range: Type.Union([Type.Object({ from: Type.String(), to: Type.String() }), Type.Null()]),
  covers_now: Type.Union([Type.Boolean(), Type.Null()]),
  sample: Type.Boolean(),
  model: Nullable(Type.String()),
  note: Nullable(Type.String()),
});
export type ProductHealth = Static<typeof ProductHealthSchema>;

export const HealthSchema = Type.Object({
  status: Type.Union([Type.Literal('ok'), Type.Literal('unavailable')]),
  time: Type.String(),
  reasons: Type.Array(
    Type.Object({ code: Type.Union(HEALTH_REASON_CODES.map((c) => Type.Literal(c))), message: Type.String() }),
    { description: 'why the status is unavailable; empty when ok' },
  ),
  products: Type.Record(Type.String(), ProductHealthSchema),
});
export type Health = Static<typeof HealthSchema>;

/** Health of one product from its manifest (null: not published). */
export function productHealth(m: Manifest | null, nowMs: number): ProductHealth {
  if (!m) {
    return { available: false, version: null, published: null, age_seconds: null, time_range: null, covers_now: null, sample: false, model: null, note: null };
  }
  const t = m.times;
  const first = t[0];
  const last = t[t.length - 1];
  const timeVarying = Object.values(m.variables).some((v) => !v.static) && first !== undefined && last !== undefined;
  return {
    available: true,
    version: m.version,
    published: m.published,
    age_seconds: Math.max(0, Math.round((nowMs - Date.parse(m.published)) / 1000)),
    time_range: timeVarying ? { from: first, to: last } : null,
    covers_now: timeVarying ? nowMs >= Date.parse(first) && nowMs <= Date.parse(last) : null,
    sample: m.source.sample === true,
    model: m.source.model ?? null,
    note: m.source.note ?? null,
  };
}

export default async function healthRoutes(fastify: FastifyInstance, opts: { clock?: () => number }): Promise<void> {
  const clock = opts.clock ?? Date.now;
  fastify.get<{ Reply: Health }>(
    HEALTH_PATH,
    { schema: { tags: ['service'], summary: 'Health: the published products and their coverage', response: { 200: { ...HealthSchema, description: 'status ok: weather.php can answer now' }, 503: { ...HealthSchema, description: 'status unavailable: weather.php cannot answer now; `reasons` says why' } } } },
    async function health(this: FastifyInstance, _request, reply) {
      const now = clock();
      const products: Record<string, ProductHealth> = {};
      for (const c of this.products.products()) {
        const keys = c.layout === 'periods' ? this.products.periods(c.product).map((p) => `${c.product}/${p}`) : [c.product];
        for (const key of keys) products[key] = productHealth(this.tiles.manifest(key), now);
      }
      const reasons = healthReasons(this.products, this.tiles, now, this.startWarming?.() === true);
      const ok = reasons.length === 0;
      return reply.code(ok ? 200 : 503).send({ status: ok ? 'ok' : 'unavailable', time: new Date(now).toISOString(), reasons, products });
    },
  );
}
