/**
 * The time semantics of a stack's series, from its canonical fields
 * (./map-fields.ts): which variables are a sum or mean over the interval
 * ending at each time, over how long (one length when every value covers the
 * same, else "the step"), and the time the first interval starts, which the
 * time axis must hold so that the first value's interval is on it (a daily
 * file's 1 November lies between 1 November 00 UTC and its value's time,
 * 2 November 00 UTC).
 */
import type { TimeInterval } from '../../tiles/manifest.js';
import type { CanonicalField } from './map-fields.js';

export interface SeriesIntervals {
  intervals: Map<string, TimeInterval>;
  /** The interval all instantaneous quantities were given over, when they all were given over one (../products/product.ts VariableStack). */
  stateInterval?: TimeInterval;
  /** Start of the earliest interval, ms; null without interval variables. */
  firstStartMs: number | null;
}

export function seriesIntervals(fields: readonly CanonicalField[]): SeriesIntervals {
  const byVar = new Map<string, { statistic: TimeInterval['statistic']; seconds: Set<number>; instant: boolean }>();
  let firstStartMs: number | null = null;
  const instantVars = new Set<string>();
  for (const f of fields) {
    if (f.aggregation === 'static') continue;
    if (f.aggregation === 'instant') instantVars.add(f.variable);
    if (!f.interval) continue;
    let e = byVar.get(f.variable);
    if (!e) byVar.set(f.variable, (e = { statistic: f.interval.statistic, seconds: new Set(), instant: f.aggregation === 'instant' }));
    e.seconds.add(f.interval.seconds);
    const start = f.validTime.getTime() - f.interval.seconds * 1000;
    if (firstStartMs === null || start < firstStartMs) firstStartMs = start;
  }
  const intervals = new Map<string, TimeInterval>();
  for (const [name, e] of byVar) {
    intervals.set(name, e.seconds.size === 1 ? { statistic: e.statistic, seconds: [...e.seconds][0]! } : { statistic: e.statistic });
  }
  const states = [...instantVars].map((n) => intervals.get(n));
  const first = states[0];
  const shared = first && states.every((i) => i !== undefined && i.statistic === first.statistic && i.seconds === first.seconds) ? first : undefined;
  return { intervals, ...(shared ? { stateInterval: shared } : {}), firstStartMs };
}
