import { describe, expect, it } from 'vitest';
import { saturationVapourPressureHardy } from '../../../science/index.js';
import { saturationVapourPressureHardyFast } from '../../../ingest/indices/vapour-table.js';

describe('tabulated Hardy saturation vapour pressure', () => {
  it('equals the exact function within 1e-7 relative over −60…60 °C, and exactly outside', () => {
    let worst = 0;
    for (let k = 0; k <= 120_000; k++) {
      const t = -60 + k * 0.001 + 0.0003;
      worst = Math.max(worst, Math.abs(saturationVapourPressureHardyFast(t) / saturationVapourPressureHardy(t) - 1));
    }
    expect(worst).toBeLessThan(1e-7);
    expect(saturationVapourPressureHardyFast(75)).toBe(saturationVapourPressureHardy(75));
    expect(saturationVapourPressureHardyFast(NaN)).toBeNaN();
  });
});
