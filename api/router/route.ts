/**
 * The product router: for one feed (a response field group: 'base',
 * 'elevation', 'cams', ...) at a point and valid time, the product version
 * that answers — the highest-priority published product whose region holds
 * the point and whose time coverage holds the time (static products hold
 * every time; period products answer from the period of the time's UTC year).
 * With the catalogue's priorities: inside San Marino sm100 when published,
 * a time before the forecast the reanalysis year, else nwp.
 *
 * When nothing answers, the reasons say why per candidate, for the error
 * the caller turns them into (./route-errors.ts).
 */
import type { PinnedVersion, TileStore } from '../../tiles/reader.js';
import type { Candidate, PublishedProducts } from './published.js';
import { inRegion } from './region.js';

/** Why a candidate did not answer. */
export type Miss =
  | { product: string; why: 'outside_region'; region: string }
  | { product: string; why: 'outside_time'; from: string; to: string }
  | { product: string; why: 'period_missing'; period: string; periods: readonly string[] };

export type Route = { vs: PinnedVersion; misses: readonly Miss[] } | { vs: null; misses: readonly Miss[] };

const NO_MISSES: readonly Miss[] = [];

export function route(published: PublishedProducts, tiles: TileStore, feed: string, lat: number, lon: number, timeMs: number): Route {
  let misses: Miss[] | null = null;
  const candidates = published.candidates(feed);
  for (let k = 0; k < candidates.length; k++) {
    const c = candidates[k]!;
    const vs = tiles.pin(c.layout === 'periods' ? published.storeKey(c, timeMs) : c.product);
    if (!vs) {
      if (c.layout === 'periods') (misses ??= []).push(periodMiss(published, c, timeMs));
      continue;
    }
    const m = vs.manifest;
    if (!inRegion(m.region, lat, lon)) {
      (misses ??= []).push({ product: c.product, why: 'outside_region', region: m.region.name });
      continue;
    }
    const times = vs.timesMs;
    if (m.layout !== 'static' && times.length > 0 && !(timeMs >= times[0]! && timeMs <= times[times.length - 1]!)) {
      (misses ??= []).push({ product: c.product, why: 'outside_time', from: m.times[0]!, to: m.times[m.times.length - 1]! });
      continue;
    }
    return { vs, misses: misses ?? NO_MISSES };
  }
  return { vs: null, misses: misses ?? NO_MISSES };
}

function periodMiss(published: PublishedProducts, c: Candidate, timeMs: number): Miss {
  const key = published.storeKey(c, timeMs);
  return { product: c.product, why: 'period_missing', period: key.slice(c.product.length + 1), periods: published.periods(c.product) };
}
