/**
 * api/fields/step.ts: the length of the step a stored amount at time t
 * covers, on an irregular axis written out by hand (hourly to 3 h, then 3-
 * hourly, then 6-hourly: +0 +1 +2 +3 +6 +9 +12 +18 +24 h), at, between and
 * beyond its times.
 */
import { describe, expect, it } from 'vitest';
import { stepHoursAt } from '../../../api/fields/step.js';

const H = 3_600_000;
const T0 = Date.UTC(2026, 10, 26, 0);
const AXIS = Float64Array.from([0, 1, 2, 3, 6, 9, 12, 18, 24], (h) => T0 + h * H);
const at = (h: number) => stepHoursAt(AXIS, T0 + h * H);

describe('stepHoursAt', () => {
  it('is the length of the step ending at the first time at or after t', () => {
    // t = 2.5 h is read from the step ending at 3 h (2 → 3 h): 1 h; 3.5 h from 3 → 6 h: 3 h; 13 h from 12 → 18 h: 6 h.
    expect(at(2.5)).toBe(1);
    expect(at(3.5)).toBe(3);
    expect(at(13)).toBe(6);
    // On a time: the step ending there. 3 h ends 2 → 3 (1 h), 6 h ends 3 → 6 (3 h), 18 h ends 12 → 18 (6 h), 24 h ends 18 → 24 (6 h).
    expect(at(3)).toBe(1);
    expect(at(6)).toBe(3);
    expect(at(9)).toBe(3);
    expect(at(12)).toBe(3);
    expect(at(18)).toBe(6);
    expect(at(24)).toBe(6);
    expect(at(1)).toBe(1);
  });

  it('before the second time: the first gap; beyond the last: the last gap', () => {
    expect(at(0)).toBe(1);
    expect(at(-5)).toBe(1);
    expect(at(30)).toBe(6);
    const daily = Float64Array.from([0, 24, 48], (h) => T0 + h * H);
    expect(stepHoursAt(daily, T0 - H)).toBe(24);
    expect(stepHoursAt(daily, T0 + 30 * H)).toBe(24);
  });

  it('is 1 h with fewer than two times, and the amount\'s own interval when the manifest gives one', () => {
    expect(stepHoursAt(new Float64Array(0), T0)).toBe(1);
    expect(stepHoursAt(Float64Array.of(T0), T0)).toBe(1);
    // Two times are enough for a step: 3 h.
    expect(stepHoursAt(Float64Array.of(T0, T0 + 3 * H), T0 + H)).toBe(3);
    // An ERA5 1-hour total in a 3-hourly file: 3600 s, not the 3 h step.
    expect(stepHoursAt(Float64Array.from([0, 3, 6], (h) => T0 + h * H), T0 + 4 * H, 3600)).toBe(1);
    expect(stepHoursAt(AXIS, T0 + 13 * H, 10_800)).toBe(3);
  });
});
