/**
 * The product router: for one feed (a response field group: 'base',
 * 'elevation', 'cams', ...) at a point and valid time, the product version
 * that answers — the highest-priority published product whose region holds
 * the point and whose time coverage holds the time (static products hold
 * every time; period products answer from the period of the time's UTC year).
 * With the catalogue's priorities: inside San Marino sm100 when published,
 * a time before the forecast the reanalysis year, else nwp.
 *
 * A product derived from another one's version (manifest `derived_from`:
 * sm100 from nwp) answers only while that version is the live one: after a
 * new nwp run is published and before its sm100 is, San Marino is answered
 * by nwp, never by a mix of two runs.
 *
 * When nothing answers, the reasons say why per candidate, for the error
 * the caller turns them into (./route-errors.ts); the builders see the
 * reasons of products passed over where they cover the point (stale).
 */
import type { Manifest } from '../../tiles/manifest.js';
import type { PinnedVersion, TileStore } from '../../tiles/read/reader.js';
import type { Candidate, PublishedProducts } from './published.js';
import { inRegion } from '../../geo/in-region.js';

/** Why a candidate did not answer. */
export type Miss =
  | { product: string; why: 'outside_region'; region: string; bbox: readonly [number, number, number, number] }
  | { product: string; why: 'outside_time'; from: string; to: string }
  | { product: string; why: 'period_missing'; period: string; periods: readonly string[] }
  | { product: string; why: 'stale'; derivedFrom: { product: string; version: string }; live: string | null };

export type Route = { vs: PinnedVersion; misses: readonly Miss[] } | { vs: null; misses: readonly Miss[] };

const NO_MISSES: readonly Miss[] = [];
/** Per manifest, the one-element list of its outside-region miss: the common case costs no allocation. */
const outsideOnly = new WeakMap<Manifest, readonly Miss[]>();

/** @param wallMs the current wall-clock time, read once per request by the caller (default: now) */
export function route(published: PublishedProducts, tiles: TileStore, feed: string, lat: number, lon: number, timeMs: number, wallMs = Date.now()): Route {
  const out = newRouteInto();
  out.lat = lat;
  out.lon = lon;
  out.timeMs = timeMs;
  out.wallMs = wallMs;
  routeInto(out, published, tiles, feed);
  return out.vs ? { vs: out.vs, misses: out.misses } : { vs: null, misses: out.misses };
}

/**
 * A request's point and times as {@link routeInto} reads them, and where it writes the route: the caller's,
 * reused from request to request (the numbers stored in place: passed as arguments, each call boxed them anew).
 */
export interface RouteInto {
  lat: number;
  lon: number;
  timeMs: number;
  /** The current wall-clock time, read once per request by the caller. */
  wallMs: number;
  vs: PinnedVersion | null;
  misses: readonly Miss[];
}

/** A RouteInto with its numbers' fields made as numbers (one shape). */
export function newRouteInto(): RouteInto {
  return { lat: NaN, lon: NaN, timeMs: NaN, wallMs: NaN, vs: null, misses: NO_MISSES };
}

/**
 * {@link route} at `out`'s point and times, into `out`, returning the version (null: none answers): the service
 * routes seven feeds per every-product answer, and a result object each was 0.3 KB of its garbage.
 */
export function routeInto(out: RouteInto, published: PublishedProducts, tiles: TileStore, feed: string): PinnedVersion | null {
  const lat = out.lat;
  const lon = out.lon;
  const timeMs = out.timeMs;
  const wallMs = out.wallMs;
  // Copied on write: the list of one outside-region miss is shared (./route.ts outsideOnly).
  let misses: readonly Miss[] | null = null;
  const candidates = published.candidates(feed, wallMs);
  for (let k = 0; k < candidates.length; k++) {
    const c = candidates[k]!;
    const vs = tiles.pin(c.layout === 'periods' ? published.storeKey(c, timeMs) : c.product, wallMs);
    if (!vs) {
      if (c.layout === 'periods') misses = [...(misses ?? []), periodMiss(published, c, timeMs)];
      continue;
    }
    const m = vs.manifest;
    if (!inRegion(m.region, lat, lon)) {
      let only = outsideOnly.get(m);
      if (!only) outsideOnly.set(m, (only = [{ product: c.product, why: 'outside_region', region: m.region.name, bbox: m.region.bbox }]));
      misses = misses ? [...misses, only[0]!] : only;
      continue;
    }
    const d = m.derived_from;
    if (d) {
      const live = tiles.pin(d.product, wallMs)?.manifest.version ?? null;
      if (live !== d.version) {
        misses = [...(misses ?? []), { product: c.product, why: 'stale', derivedFrom: d, live }];
        continue;
      }
    }
    const times = vs.timesMs;
    if (m.layout !== 'static' && times.length > 0 && !(timeMs >= times[0]! && timeMs <= times[times.length - 1]!)) {
      misses = [...(misses ?? []), { product: c.product, why: 'outside_time', from: m.times[0]!, to: m.times[m.times.length - 1]! }];
      continue;
    }
    out.vs = vs;
    out.misses = misses ?? NO_MISSES;
    return vs;
  }
  out.vs = null;
  out.misses = misses ?? NO_MISSES;
  return null;
}

function periodMiss(published: PublishedProducts, c: Candidate, timeMs: number): Miss {
  const key = published.storeKey(c, timeMs);
  return { product: c.product, why: 'period_missing', period: key.slice(c.product.length + 1), periods: published.periods(c.product) };
}
