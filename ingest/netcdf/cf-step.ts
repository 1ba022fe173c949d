/**
 * How a value relates to time, from CF `cell_methods` (CF Conventions 1.11
 * §7.3, https://cfconventions.org/cf-conventions/cf-conventions.html#cell-methods):
 * "time: sum" → accum, "time: mean" → avg, "time: maximum" → max,
 * "time: minimum" → min, anything else (or none) → instant.
 *
 * For a statistic over an interval, the interval comes from the time
 * coordinate's `bounds` variable when present (validTime = upper bound,
 * intervalStart = lower bound). Without bounds:
 * - a daily axis (counted in days, every time at 00 UTC, one day apart:
 *   ERA5-Land and ERA5 daily statistics as their users package them) labels
 *   each record with the day it describes, so the interval is [t, t + 24 h]
 *   and every variable is a statistic over that day: a daily total, or,
 *   without `cell_methods`, a daily mean (`dailyStepType`). An axis counted
 *   in hours at 00 UTC each day (CAMS's daily analyses) stays instants;
 * - otherwise the time label is the end of the interval (the ECMWF/GRIB
 *   convention) and the interval the spacing to the previous time step (the
 *   first step uses the spacing to the second); a product may know better
 *   (ERA5's hourly totals in a 3-hourly file, ERA5-Land's totals since 00 UTC:
 *   ingest/mapping/time-conventions.ts).
 */
import type { StepType } from '../field.js';

const METHOD_STEP: Record<string, StepType> = {
  sum: 'accum',
  mean: 'avg',
  maximum: 'max',
  minimum: 'min',
};

/** Step type for a variable's cell_methods, looking at entries on "time" or on `timeNames` (its time-like dimensions). */
export function stepTypeOf(cellMethods: string | undefined, timeNames: readonly (string | undefined)[] = []): StepType {
  if (!cellMethods) return 'instant';
  // Entries look like "name1: name2: method (comment) name3: method ..."
  const re = /((?:[\w-]+:\s*)+)(\w+)(?:\s*\([^)]*\))?/g;
  for (let m = re.exec(cellMethods); m; m = re.exec(cellMethods)) {
    const names = m[1]!.split(':').map((s) => s.trim()).filter(Boolean);
    if (names.some((n) => n === 'time' || timeNames.includes(n))) {
      return METHOD_STEP[m[2]!] ?? 'instant';
    }
  }
  return 'instant';
}

const DAY_MS = 86_400_000;

/** Two or more times counted in days (`units` "days since …"), all at 00 UTC and one day apart: a file of daily records. */
export function isDailyAxis(timesMs: ArrayLike<number>, units: string | undefined): boolean {
  if (timesMs.length < 2 || !/^\s*days?\s+since\b/i.test(units ?? '')) return false;
  for (let i = 0; i < timesMs.length; i++) {
    if (timesMs[i]! % DAY_MS !== 0) return false;
    if (i > 0 && timesMs[i]! - timesMs[i - 1]! !== DAY_MS) return false;
  }
  return true;
}

/** On a daily axis (`daily`: {@link isDailyAxis}) without bounds a value without a declared statistic is the day's mean (t2m, rh of a daily file). */
export function dailyStepType(stepType: StepType, daily: boolean, boundsMs?: ArrayLike<number>): StepType {
  return stepType === 'instant' && !boundsMs && daily ? 'avg' : stepType;
}

export interface TimeInterval {
  validMs: number;
  startMs?: number;
}

/**
 * Interval per time step. `boundsMs` holds [lower, upper] pairs (Unix ms)
 * when the time coordinate has bounds; `dailyAxis`: {@link isDailyAxis}.
 */
export function intervalsOf(timesMs: Float64Array, stepType: StepType, boundsMs?: Float64Array, dailyAxis = false): TimeInterval[] {
  const n = timesMs.length;
  const daily = !boundsMs && dailyAxis;
  const out: TimeInterval[] = [];
  for (let i = 0; i < n; i++) {
    if (stepType === 'instant') {
      out.push({ validMs: timesMs[i]! });
    } else if (boundsMs && boundsMs.length === 2 * n) {
      out.push({ validMs: boundsMs[2 * i + 1]!, startMs: boundsMs[2 * i]! });
    } else if (daily) {
      out.push({ validMs: timesMs[i]! + DAY_MS, startMs: timesMs[i]! });
    } else if (n >= 2) {
      const spacing = i > 0 ? timesMs[i]! - timesMs[i - 1]! : timesMs[1]! - timesMs[0]!;
      out.push({ validMs: timesMs[i]!, startMs: timesMs[i]! - spacing });
    } else {
      out.push({ validMs: timesMs[i]! });
    }
  }
  return out;
}
