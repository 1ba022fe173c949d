/**
 * A starting server's answer warm-up: before /healthz says ready, answer a
 * few thousand synthetic weather.php lookups (points across the base
 * product's region, every plan's default fields) through the code a request
 * runs after its key and quota: the service, the point reads, the fields and
 * the JSON writer. Without it V8 compiles that code while the first clients
 * wait: in the first seconds after a start every answer cost about three
 * times its warm CPU, and ~290 functions were optimised then
 * (docs/benchmarks-journal.md, "The start window"). Nothing is counted in
 * any quota and nothing is sent: the answers are dropped.
 */
import type { FastifyInstance } from 'fastify';
import { PLANS, type Plan } from '../access/contract.js';
import { resolveFields } from '../access/gating.js';
import { weatherJson, type WeatherResponse } from '../fields/response-schema.js';
import type { FieldGroup } from '../fields/registry.js';
import { coversNow, nowProduct } from '../routes/health-reasons.js';
import type { ObserveRequest, WeatherService } from './service.js';
import { DECIMALS, roundTo } from './precision.js';

export interface AnswerWarmOptions {
  /** Lookups to answer (default {@link WARM_LOOKUPS}). */
  lookups?: number;
  /** Stop after this much wall time even if fewer were answered, ms (a loaded machine must not stay unready for long). */
  maxMs?: number;
  /** Lookups answered per turn of the event loop (between turns /healthz and compiled code get their turn). */
  perTurn?: number;
}

export interface AnswerWarmReport {
  lookups: number;
  /** Lookups that threw (a point the store does not cover answers an error, as a request would). */
  errors: number;
  ms: number;
}

/** Enough for V8 to optimise the request path's functions (measured: docs/benchmarks-journal.md). */
export const WARM_LOOKUPS = 4000;
const DEFAULT_MAX_MS = 20_000;
const DEFAULT_PER_TURN = 100;

/**
 * The synthetic requests: a Weyl sequence over the region's box (deterministic, evenly spread, a new point each
 * time as random clients ask), with and without `alt=`, the plans in turn with their default fields.
 */
export function warmRequests(bbox: readonly [number, number, number, number], n: number): ObserveRequest[] {
  const [w, s, e, north] = bbox;
  const groups: Record<Plan, ReadonlySet<FieldGroup>> = Object.fromEntries(PLANS.map((p) => [p, resolveFields(p, undefined).groups])) as Record<Plan, ReadonlySet<FieldGroup>>;
  const out: ObserveRequest[] = [];
  for (let i = 0; i < n; i++) {
    // Fractional parts of multiples of the plastic number's inverses: a low-discrepancy 2-D sequence.
    const u = (0.5 + i * 0.7548776662466927) % 1;
    const v = (0.5 + i * 0.5698402909980532) % 1;
    const plan = PLANS[i % PLANS.length]!;
    out.push({ lat: s + v * (north - s), lon: w + u * (e - w), altM: i % 2 ? (i * 37) % 1500 : undefined, timeMs: undefined, plan, groups: groups[plan], only: undefined });
  }
  return out;
}

const turn = () => new Promise<void>((r) => setImmediate(r));

/** Answer the warm-up's lookups through `weather`, a slice per turn of the event loop. */
export async function warmAnswers(weather: WeatherService, requests: readonly ObserveRequest[], opts: AnswerWarmOptions = {}): Promise<AnswerWarmReport> {
  const maxMs = opts.maxMs ?? DEFAULT_MAX_MS;
  const perTurn = opts.perTurn ?? DEFAULT_PER_TURN;
  const t0 = performance.now();
  let errors = 0;
  let done = 0;
  while (done < requests.length && performance.now() - t0 < maxMs) {
    const end = Math.min(requests.length, done + perTurn);
    for (; done < end; done++) {
      const req = requests[done]!;
      try {
        const body = weather.tryObserve(req) ?? (await weather.observe(req));
        // As the route does (api/routes/weather.ts): the same object shapes reach the writer.
        body.elapsed_ms = roundTo(performance.now() - t0, DECIMALS.elapsed_ms);
        if (weatherJson(body as WeatherResponse) === undefined) JSON.stringify(body);
      } catch {
        errors++;
      }
    }
    await turn();
  }
  return { lookups: done, errors, ms: performance.now() - t0 };
}

/** The warm-up of `app`'s weather.php answers over the region of the product answering now; none when nothing covers now. */
export function warmAppAnswers(app: FastifyInstance, opts: AnswerWarmOptions & { nowMs?: number } = {}): Promise<AnswerWarmReport> {
  const nowMs = opts.nowMs ?? Date.now();
  const m = nowProduct(app.products, app.tiles, nowMs);
  if (!m || !coversNow(m, nowMs)) return Promise.resolve({ lookups: 0, errors: 0, ms: 0 });
  return warmAnswers(app.weather, warmRequests(m.region.bbox, opts.lookups ?? WARM_LOOKUPS), opts);
}
