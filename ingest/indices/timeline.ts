/**
 * The time axis as the indices see it. Radiation in the nwp store is the
 * mean over the step ending at the valid time (products/spec.ts, aggregation
 * 'mean'), so the mean radiant temperature, which combines radiation with
 * the Sun's position, takes the Sun at the middle of that step, as
 * Liljegren's wbgt.c does for averaged input (its `avg` argument).
 */
import { sunInstant, type SunInstant } from './sun.js';

const HOUR_MS = 3_600_000;

/** One step of the time axis with its radiation window. */
export interface StepTiming {
  /** Valid time, ms since the epoch. */
  validMs: number;
  /** Length of the step ending at the valid time, hours (the radiation window). */
  periodHours: number;
  /** The Sun at the middle of the window, validMs − periodHours/2. */
  atMid: SunInstant;
}

/**
 * Window length of step k: the gap to the previous valid time; for the first
 * step the gap to the next one (one hour when the axis has a single time).
 *
 * @param timesMs valid times, ms, ascending
 */
export function periodHoursAt(timesMs: readonly number[], k: number): number {
  if (k > 0) return (timesMs[k]! - timesMs[k - 1]!) / HOUR_MS;
  if (timesMs.length > 1) return (timesMs[1]! - timesMs[0]!) / HOUR_MS;
  return 1;
}

/** Middle of the radiation window ending at `validMs`, ms. */
export function windowMidMs(validMs: number, periodHours: number): number {
  return validMs - (periodHours * HOUR_MS) / 2;
}

/** `previousMs`: the valid time before `times[0]`, when the axis continues an earlier part (its window ends there). */
export function stepTimings(times: readonly Date[], previousMs?: number): StepTiming[] {
  const ms = times.map((t) => t.getTime());
  const lead = previousMs === undefined ? 0 : 1;
  const axis = previousMs === undefined ? ms : [previousMs, ...ms];
  return ms.map((validMs, k) => {
    const periodHours = periodHoursAt(axis, k + lead);
    return {
      validMs,
      periodHours,
      atMid: sunInstant(new Date(windowMidMs(validMs, periodHours))),
    };
  });
}
