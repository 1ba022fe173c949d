/**
 * Why /healthz answers 503: a short list of reasons, each a stable code and
 * one sentence, empty when the node can answer. A new cause is one code here
 * and one check in `healthReasons`.
 *
 * "Now" is answered by the product feeding the base fields over the widest
 * region with a rolling time axis (nwp): finer regional products (sm100)
 * fall back to it, and period products (reanalysis years) answer `time=` in
 * the past. When that product's time axis does not hold the current time,
 * every weather.php and widget.php request without `time=` answers 503 —
 * whether a forecast was not renewed or the demo sample was built days ago —
 * so the node is not healthy, whatever else it holds. A starting server that
 * warms its tile cache (tiles/read/warm.ts) is not ready until it is warm.
 */
import type { Manifest } from '../../tiles/manifest.js';
import type { TileStore } from '../../tiles/read/reader.js';
import type { PublishedProducts } from '../router/published.js';

/** The feed weather.php cannot answer without. */
export const ESSENTIAL_FEED = 'base';

export const HEALTH_REASON_CODES = ['no_base_product', 'now_not_covered', 'warming'] as const;
export type HealthReasonCode = (typeof HEALTH_REASON_CODES)[number];

export interface HealthReason {
  code: HealthReasonCode;
  message: string;
}

/** Area of a region's box, square degrees. */
function boxArea(m: Manifest): number {
  const [w, s, e, n] = m.region.bbox;
  return (e - w) * (n - s);
}

/** The manifest of the product answering "now" (see above), or null when no rolling product feeds the base fields. */
export function nowProduct(published: PublishedProducts, tiles: TileStore, nowMs: number): Manifest | null {
  let best: Manifest | null = null;
  for (const c of published.candidates(ESSENTIAL_FEED, nowMs)) {
    if (c.layout === 'periods') continue;
    const m = tiles.manifest(c.product);
    // Candidates come highest priority first: on equal boxes the first stays.
    if (m && m.times.length > 0 && (!best || boxArea(m) > boxArea(best))) best = m;
  }
  return best;
}

/** Whether a manifest's time axis holds `nowMs`. */
export function coversNow(m: Manifest, nowMs: number): boolean {
  return m.times.length > 0 && nowMs >= Date.parse(m.times[0]!) && nowMs <= Date.parse(m.times[m.times.length - 1]!);
}

/** The reasons the node cannot answer (empty: healthy). */
export function healthReasons(published: PublishedProducts, tiles: TileStore, nowMs: number, answersWarming = false): HealthReason[] {
  const reasons = dataReasons(published, tiles, nowMs);
  // A starting server answers, but every request waits for a decode until its cache is warm (tiles/read/warm.ts).
  if (tiles.warming() || answersWarming) reasons.push({ code: 'warming', message: 'starting: the tile cache is being warmed; answers are slow until it is' });
  return reasons;
}

function dataReasons(published: PublishedProducts, tiles: TileStore, nowMs: number): HealthReason[] {
  const base = published.candidates(ESSENTIAL_FEED, nowMs);
  const anyBase = base.some((c) => c.layout !== 'periods' || published.periods(c.product).length > 0);
  if (!anyBase) return [{ code: 'no_base_product', message: 'no product feeding the base fields is published: weather.php can answer nothing' }];
  const now = new Date(nowMs).toISOString();
  const m = nowProduct(published, tiles, nowMs);
  if (!m) {
    return [{ code: 'now_not_covered', message: `no forecast feeding the base fields is published: only time= in the reanalysis years can be answered, not now (${now})` }];
  }
  if (!coversNow(m, nowMs)) {
    const sample = m.source.sample === true ? `; it is the sample dataset made ${m.published}: \`npm start\` or \`meteopunto demo\` makes a fresh one` : '';
    return [{ code: 'now_not_covered', message: `${m.product} covers ${m.times[0]} to ${m.times[m.times.length - 1]}, not now (${now}): weather.php answers 503 without time=${sample}` }];
  }
  return [];
}
