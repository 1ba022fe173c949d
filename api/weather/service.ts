/**
 * `WeatherService`: one point request → the response fields of the builders
 * the key's plan and `fields=` select (api/fields/).
 *
 * 1. The builders' feeds are routed once each (api/router/route.ts) and the
 *    answering versions pinned, so everything comes from one consistent set
 *    of versions whatever is published meanwhile.
 * 2. Reads of the same version are merged into one lookup (./lookup-plan.ts; the Free and
 *    Developer fields: one lookup of nwp), plus the trend's lookup three
 *    hours back in the same version, and rarely a second lookup when a
 *    builder needs more (the condition's state where the weather code is
 *    unusable).
 * 3. The builders run in order on the interpolated values.
 *
 * `tryObserve` is the hot path: synchronous, cached chunks only, no promise;
 * it returns undefined when a chunk is not cached yet, and `observe` loads
 * what is missing and answers through the same code (./tile-sampler.ts).
 */
import { SunAtPoint } from '../../geo/solar.js';
import { TileError } from '../../tiles/errors.js';
import type { PointSample } from '../../tiles/types.js';
import type { TileStore } from '../../tiles/read/reader.js';
import { LoadingSampler, type Sampler } from './tile-sampler.js';
import { LookupPlanner, type Lookup, type LookupPlan, type Selection } from './lookup-plan.js';
import type { Plan } from '../access/contract.js';
import { planAtLeast } from '../access/plans.js';
import { builderSelected, type BuildContext, type FeedRead, type FeedView, type FieldBuilder, type PointRequest, type SharedResults } from '../fields/contract.js';
import { BUILDERS, FIELD_GROUPS, type FieldGroup } from '../fields/registry.js';
import type { PublishedProducts } from '../router/published.js';
import { newRouteInto, routeInto, type Miss, type RouteInto } from '../router/route.js';
import { noRouteError } from '../router/route-errors.js';
import { mapTileError } from '../tile-errors.js';

/** A point as callers give it (the benchmark's points). */
export interface PointQuery {
  lat: number;
  lon: number;
  altM?: number;
  timeMs?: number;
}

/**
 * One point request. Callers on a hot path create it with every property
 * present (undefined where not given: api/routes/weather.ts toObserveRequest):
 * requests of mixed shapes make the property loads below megamorphic, which
 * cost 0.3 µs per request in select() alone (measured on the bench store).
 */
export interface ObserveRequest {
  lat: number;
  lon: number;
  altM?: number | undefined;
  /** Valid time, ms; undefined → now (current conditions). */
  timeMs?: number | undefined;
  plan: Plan;
  groups: ReadonlySet<FieldGroup>;
  /** Only these builders, by name (widget.php: ['base']); default every builder the plan and groups select. */
  only?: readonly string[] | undefined;
}

export interface WeatherServiceOptions {
  /** Current time, ms since the epoch (tests freeze it). Default Date.now. */
  clock?: () => number;
  builders?: readonly FieldBuilder[];
}

interface Prepared {
  q: PointRequest;
  groups: ReadonlySet<FieldGroup>;
  selection: Selection;
  plan: LookupPlan;
  /** Per feed, products passed over although they cover the point (stale: ./router/route.ts); null when none (nearly always). */
  passedOver: Map<string, readonly Miss[]> | null;
}

const NO_MISSES: readonly Miss[] = [];

/**
 * Per lookup (plan order), its samples at the time asked (null: no value here) and the trend's time back (null:
 * none). The service's own, filled again by each request: a request's complete sampleAll is followed at once,
 * synchronously, by its build, which reads them (no object per lookup).
 */
interface Samples {
  now: (PointSample | null)[];
  past: (PointSample | null)[];
}

export class WeatherService {
  private readonly clock: () => number;
  private readonly builders: readonly FieldBuilder[];
  private readonly byPlan: Partial<Record<Plan, Selection[]>> = {};
  private readonly byOnly = new WeakMap<readonly string[], Partial<Record<Plan, Selection[]>>>();
  private nextSelectionId = 0;
  private readonly planner = new LookupPlanner();
  /** The route of the feed being routed (prepare: read at once, before the next feed's). */
  private readonly routed: RouteInto = newRouteInto();
  private readonly samples: Samples = { now: [], past: [] };

  constructor(
    private readonly tiles: TileStore,
    private readonly published: PublishedProducts,
    opts: WeatherServiceOptions = {},
  ) {
    this.clock = opts.clock ?? Date.now;
    this.builders = opts.builders ?? BUILDERS;
  }

  /** The hot path's sampler: cached chunks only. */
  private readonly cached: Sampler = (vs, lat, lon, timeMs, variables) => this.tiles.trySampleIn(vs, lat, lon, timeMs, variables);

  /** The response fields from cached chunks only; undefined when something must be loaded first. Throws ApiError. */
  tryObserve(req: ObserveRequest): Record<string, unknown> | undefined {
    const p = this.prepare(req);
    const samples = this.sampleAll(p, this.cached);
    return samples && this.build(p, samples);
  }

  /** The response fields, loading chunks as needed. Throws ApiError. */
  async observe(req: ObserveRequest): Promise<Record<string, unknown>> {
    const warm = this.tryObserve(req);
    if (warm) return warm;
    const p = this.prepare(req);
    const loading = new LoadingSampler(this.tiles);
    for (;;) {
      const samples = this.sampleAll(p, loading.sample);
      if (samples) return this.build(p, samples);
      await loading.load();
    }
  }

  /** Every lookup's samples by `get` (into the service's `samples`, for the build that follows); undefined at the first that must be loaded. */
  private sampleAll(p: Prepared, get: Sampler): Samples | undefined {
    const lookups = p.plan.lookups;
    const samples = this.samples;
    for (let k = 0; k < lookups.length; k++) if (!this.sampleLookup(p, lookups[k]!, get, k, samples)) return undefined;
    return samples;
  }

  private prepare(req: ObserveRequest): Prepared {
    // One wall-clock reading for the whole routing (the listings and live versions re-check their files by it), and
    // the request's time when it gives none and the clock is the wall clock.
    const wallMs = Date.now();
    const timeMs = req.timeMs ?? (this.clock === Date.now ? wallMs : this.clock());
    const q: PointRequest = { lat: req.lat, lon: req.lon, altM: req.altM, timeMs, timeRequested: req.timeMs !== undefined };
    const selection = this.select(req);
    const feeds = selection.feeds;
    const pins = this.planner.pins;
    const readMasks = this.planner.readMasks;
    let passedOver: Map<string, readonly Miss[]> | null = null;
    const r = this.routed;
    r.lat = q.lat;
    r.lon = q.lon;
    r.timeMs = timeMs;
    r.wallMs = wallMs;
    for (let f = 0; f < feeds.length; f++) {
      const reads = selection.readsAt[f]!;
      let mask = selection.alwaysMask[f]!;
      if (mask !== (1 << reads.length) - 1) {
        for (let k = 0; k < reads.length; k++) {
          const w = reads[k]!.when;
          if (w && w(q)) mask |= 1 << k;
        }
      }
      readMasks[f] = mask;
      pins[f] = null;
      if (mask === 0) continue;
      const vs = routeInto(r, this.published, this.tiles, feeds[f]!);
      if (!vs) {
        const required = reads.find((x, k) => (mask & (1 << k)) !== 0 && x.required)?.required;
        if (required) throw noRouteError(required.what, r.misses, q);
        continue;
      }
      pins[f] = vs;
      const misses = r.misses;
      for (let k = 0; k < misses.length; k++) {
        const m = misses[k]!;
        if (m.why === 'stale') (passedOver ??= new Map()).set(feeds[f]!, [...(passedOver.get(feeds[f]!) ?? []), m]);
      }
    }
    return { q, groups: req.groups, selection, plan: this.planner.plan(selection), passedOver };
  }

  /** The builders the request selects (cached per plan, groups and `only`). */
  private select(req: ObserveRequest): Selection {
    let mask = 0;
    if (req.groups.size > 0) for (let g = 0; g < FIELD_GROUPS.length; g++) if (req.groups.has(FIELD_GROUPS[g]!)) mask |= 1 << g;
    // An array per plan (and per `only` list, by identity: widget.php passes one constant) indexed by the
    // groups' bits: no key to build per request.
    const byMask = req.only ? ((this.byOnly.get(req.only) ?? this.byOnly.set(req.only, {}).get(req.only)!)[req.plan] ??= []) : (this.byPlan[req.plan] ??= []);
    let s = byMask[mask];
    if (!s) {
      const builders = this.builders.filter(
        (b) => planAtLeast(req.plan, b.minPlan) && builderSelected(b, req.groups) && (!req.only || req.only.includes(b.name)),
      );
      const readsOf = new Map<string, FeedRead[]>();
      for (const b of builders) for (const r of b.reads) (readsOf.get(r.feed) ?? readsOf.set(r.feed, []).get(r.feed)!).push(r);
      if (readsOf.size > 10) throw new Error('more than 10 feeds in one selection: widen the feed mask of WeatherService');
      const readsAt = [...readsOf.values()];
      const alwaysMask = readsAt.map((reads) => reads.reduce((m, r, k) => (r.when ? m : m | (1 << k)), 0));
      s = { builders, id: this.nextSelectionId++, feeds: [...readsOf.keys()], readsAt, alwaysMask, plans: [] };
      byMask[mask] = s;
    }
    return s;
  }

  /**
   * One lookup's samples: at the time asked, with the values a read's `extra`
   * asks for, and the trend's time back when a read has one. A TileError is
   * fatal for a required feed (mapped to the API's error), else "no value
   * here"; the trend outside the version's time axis is simply absent.
   */
  private sampleLookup(p: Prepared, l: Lookup, get: Sampler, k: number, out: Samples): boolean {
    const { lat, lon, timeMs } = p.q;
    let now: PointSample | undefined;
    try {
      now = get(l.vs, lat, lon, l.static ? null : timeMs, l.variables);
    } catch (err) {
      if (err instanceof TileError && !l.reads.some((r) => r.required)) {
        out.now[k] = null;
        out.past[k] = null;
        return true;
      }
      throw mapTileError(err, { timeRequested: p.q.timeRequested });
    }
    if (now === undefined) return false;
    for (const r of l.reads) {
      // `when` first: it is nearly always false, and `variables` looks its list up by manifest (a WeakMap).
      if (!r.extra || !r.extra.when(now)) continue;
      const variables = r.extra.variables(l.vs.manifest);
      if (variables.length === 0) continue;
      const more = get(l.vs, lat, lon, timeMs, variables);
      if (!more) return false;
      Object.assign(now.values, more.values);
    }
    let past: PointSample | null = null;
    if (l.history) {
      try {
        const got = get(l.vs, lat, lon, timeMs + l.history.offsetMs, l.history.variables);
        if (got === undefined) return false;
        past = got;
      } catch (err) {
        if (!(err instanceof TileError && err.code === 'TIME_OUT_OF_RANGE')) throw err;
      }
    }
    out.now[k] = now;
    out.past[k] = past;
    return true;
  }

  private build(p: Prepared, samples: Samples): Record<string, unknown> {
    const ctx = new RequestBuild(p, samples);
    const builders = p.selection.builders;
    for (let b = 0; b < builders.length; b++) builders[b]!.build(ctx);
    return ctx.out;
  }
}

/**
 * One request's build context: the feeds' views made on a builder's first ask and kept by the feed's index in the
 * selection (a class with a method, not a closure over a Map: two allocations fewer per request, one shape).
 */
class RequestBuild implements BuildContext {
  readonly q: PointRequest;
  readonly groups: ReadonlySet<FieldGroup>;
  readonly shared: SharedResults = { correction: null, temperatureC: null, dewPointC: null, humidityPct: null, demElevationM: null };
  readonly out: Record<string, unknown> = {};
  readonly sun: SunAtPoint;
  /** Per feed of the selection: its view, null (no product answers it here) or undefined (not asked yet). */
  private readonly views: (FeedView | null | undefined)[];

  constructor(
    private readonly p: Prepared,
    private readonly samples: Samples,
  ) {
    this.q = p.q;
    this.groups = p.groups;
    this.sun = new SunAtPoint(p.q.lat, p.q.lon);
    this.views = new Array<FeedView | null | undefined>(p.selection.feeds.length).fill(undefined);
  }

  feed(name: string): FeedView | null {
    const p = this.p;
    const f = p.selection.feeds.indexOf(name);
    let v = f < 0 ? undefined : this.views[f];
    if (v !== undefined) return v;
    const at = f < 0 ? -1 : p.plan.lookupAt[f]!;
    const l = at < 0 ? undefined : p.plan.lookups[at]!;
    const now = l ? this.samples.now[at] : null;
    v = l && now ? { manifest: l.vs.manifest, timesMs: l.vs.timesMs, now, past: this.samples.past[at] ?? null, passedOver: p.passedOver?.get(name) ?? NO_MISSES } : null;
    if (f >= 0) this.views[f] = v;
    return v;
  }
}
