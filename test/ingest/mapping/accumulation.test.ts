import { describe, expect, it } from 'vitest';
import { deaccumulate, inferIntervalStarts } from '../../../ingest/mapping/accumulation.js';
import { hours, RUN } from '../products/fixtures.js';

const pt = (start: number, end: number, v: number[]) => ({
  intervalStart: hours(start),
  validTime: hours(end),
  amount: Float32Array.from(v),
  meta: `${start}-${end}`,
});

describe('deaccumulate', () => {
  it('accumulations from the run start become per-step differences (IFS tp 0-1, 0-2, 0-3)', () => {
    const out = deaccumulate([pt(0, 3, [6, 0]), pt(0, 1, [1, 0]), pt(0, 2, [3, 0])]);
    expect(out.map((s) => [s.stepStart.toISOString(), s.validTime.toISOString(), [...s.amount]])).toEqual([
      [hours(0).toISOString(), hours(1).toISOString(), [1, 0]],
      [hours(1).toISOString(), hours(2).toISOString(), [2, 0]],
      [hours(2).toISOString(), hours(3).toISOString(), [3, 0]],
    ]);
  });
  it('an interval accumulation (COSMO-2I tp 18–24 h) stays the amount over its interval', () => {
    const out = deaccumulate([pt(18, 24, [5.5, 0.25])]);
    expect(out).toHaveLength(1);
    expect(out[0]!.stepStart).toEqual(hours(18));
    expect(out[0]!.validTime).toEqual(hours(24));
    expect([...out[0]!.amount]).toEqual([5.5, 0.25]);
  });
  it('consecutive per-interval amounts (ERA5 hourly) are not differenced', () => {
    const out = deaccumulate([pt(0, 1, [1]), pt(1, 2, [2]), pt(2, 3, [4])]);
    expect(out.map((s) => s.amount[0])).toEqual([1, 2, 4]);
  });
  it('mixed: 0–6 and 0–12 from the run start, then 12–18 on its own', () => {
    const out = deaccumulate([pt(0, 6, [3]), pt(0, 12, [10]), pt(12, 18, [2])]);
    expect(out.map((s) => [s.stepStart.getTime() - RUN.getTime(), s.amount[0]])).toEqual([
      [0, 3],
      [6 * 3_600_000, 7],
      [12 * 3_600_000, 2],
    ]);
  });
  it('drops zero-length intervals (step 0) and keeps NaN cells NaN', () => {
    const out = deaccumulate([pt(0, 0, [0, 0]), pt(0, 1, [NaN, 2]), pt(0, 2, [NaN, 5])]);
    expect(out).toHaveLength(2);
    expect(out[1]!.amount[0]).toBeNaN();
    expect(out[1]!.amount[1]).toBe(3);
  });
});

describe('inferIntervalStarts', () => {
  it('each point starts at the previous time; the first assumes the next spacing', () => {
    const t = [hours(2), hours(0), hours(1)].map((d) => d.getTime());
    expect(inferIntervalStarts(t)).toEqual([hours(1), hours(-1), hours(0)].map((d) => d.getTime()));
  });
  it('daily series give one-day intervals, a lone point one hour', () => {
    const day = 86_400_000;
    expect(inferIntervalStarts([0, day, 2 * day])).toEqual([-day, 0, day]);
    expect(inferIntervalStarts([5 * day])).toEqual([5 * day - 3_600_000]);
  });
});
