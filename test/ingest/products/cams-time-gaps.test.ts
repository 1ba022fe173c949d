import { describe, expect, it } from 'vitest';
import { bridgeTimeGaps } from '../../../ingest/products/cams/time-gaps.js';
import type { VariableStack } from '../../../ingest/products/product.js';

const H = 3600_000;
const grid = { kind: 'regular_ll' as const, nx: 1, ny: 1, x0: 0, y0: 0, dx: 1, dy: 1 };
const stackOf = (hours: number[], values: number[]): VariableStack => ({
  grid,
  times: hours.map((h) => new Date(h * H)),
  series: new Map([['grass_pollen', values.map((v) => Float32Array.of(v))]]),
  statics: new Map(),
});
const valuesOf = (s: VariableStack) => s.series.get('grass_pollen')!.map((a) => a[0]);

describe('cams: a variable missing at other files\' steps', () => {
  it('is filled linearly in time between its own steps, as the reader would interpolate', () => {
    const s = stackOf([0, 12, 15, 24], [10, NaN, NaN, 34]);
    expect(bridgeTimeGaps(s)).toHaveLength(1);
    expect(valuesOf(s)).toEqual([10, 22, 25, 34]);
  });

  it('is never extrapolated past its first or last step, nor bridged over more than 24 h', () => {
    const s = stackOf([0, 6, 12, 40, 48, 60], [NaN, 4, NaN, NaN, 8, NaN]);
    expect(bridgeTimeGaps(s)).toEqual([]);
    expect(valuesOf(s)).toEqual([NaN, 4, NaN, NaN, 8, NaN]);
  });
});
