/**
 * How a value relates to time, from CF `cell_methods` (CF Conventions 1.11
 * §7.3, https://cfconventions.org/cf-conventions/cf-conventions.html#cell-methods):
 * "time: sum" → accum, "time: mean" → avg, "time: maximum" → max,
 * "time: minimum" → min, anything else (or none) → instant.
 *
 * For a statistic over an interval, the interval comes from the time
 * coordinate's `bounds` variable when present (validTime = upper bound,
 * intervalStart = lower bound); otherwise the time label is taken as the end
 * of the interval (the ECMWF/GRIB convention) and the interval as the spacing
 * to the previous time step (the first step uses the spacing to the second).
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

export interface TimeInterval {
  validMs: number;
  startMs?: number;
}

/**
 * Interval per time step. `boundsMs` holds [lower, upper] pairs (Unix ms)
 * when the time coordinate has bounds.
 */
export function intervalsOf(timesMs: Float64Array, stepType: StepType, boundsMs?: Float64Array): TimeInterval[] {
  const n = timesMs.length;
  const out: TimeInterval[] = [];
  for (let i = 0; i < n; i++) {
    if (stepType === 'instant') {
      out.push({ validMs: timesMs[i]! });
    } else if (boundsMs && boundsMs.length === 2 * n) {
      out.push({ validMs: boundsMs[2 * i + 1]!, startMs: boundsMs[2 * i]! });
    } else if (n >= 2) {
      const spacing = i > 0 ? timesMs[i]! - timesMs[i - 1]! : timesMs[1]! - timesMs[0]!;
      out.push({ validMs: timesMs[i]!, startMs: timesMs[i]! - spacing });
    } else {
      out.push({ validMs: timesMs[i]! });
    }
  }
  return out;
}
