import { describe, expect, it } from 'vitest';
import { moistureAtPoint } from '../../../../api/fields/base/humidity.js';

// Reference values from the WMO-No. 8 (Annex 4.B) water curve, computed by
// hand: ew(t) = 6.112·exp(17.62 t / (243.12 + t)) hPa.
const ew = (t: number) => 6.112 * Math.exp((17.62 * t) / (243.12 + t));

describe('humidity consistent with the corrected temperature', () => {
  it('derives RH from temperature and dew point: T 20 °C, Td 10 °C → 52.5 %', () => {
    const m = moistureAtPoint({ gridTempC: 20, gridDewPointC: 10, gridRhPct: null }, 20);
    expect(m.humidityPct!).toBeCloseTo((100 * ew(10)) / ew(20), 0); // 52.5 %
    expect(m.dewPointC!).toBeCloseTo(10, 6); // no correction: the dew point comes back unchanged
  });

  it('derives the dew point from RH: T 25 °C, RH 50 % → 13.9 °C', () => {
    const m = moistureAtPoint({ gridTempC: 25, gridDewPointC: null, gridRhPct: 50 }, 25);
    expect(m.humidityPct).toBe(50);
    // e = 0.5·ew(25) = 15.84 hPa; ew(13.86) = 15.84 hPa (inverse of the WMO curve by hand)
    expect(ew(m.dewPointC!)).toBeCloseTo(0.5 * ew(25), 1);
    expect(m.dewPointC!).toBeCloseTo(13.9, 1);
  });

  it('keeps RH and moves the dew point with the altitude-corrected temperature', () => {
    const grid = { gridTempC: 20, gridDewPointC: 10, gridRhPct: null };
    const m = moistureAtPoint(grid, 14); // point ~920 m above the grid
    expect(m.humidityPct!).toBeCloseTo((100 * ew(10)) / ew(20), 0);
    // Same RH at 14 °C: e = RH·ew(14); Td where ew(Td) = e
    const e = (m.humidityPct! / 100) * ew(14);
    expect(ew(m.dewPointC!)).toBeCloseTo(e, 1);
    expect(m.dewPointC!).toBeLessThan(14);
    expect(m.dewPointC!).toBeCloseTo(4.5, 0);
  });

  it('clamps RH above 100 % and never puts the dew point above the temperature', () => {
    const m = moistureAtPoint({ gridTempC: 5, gridDewPointC: null, gridRhPct: 103 }, 5);
    expect(m.humidityPct).toBe(100);
    expect(m.dewPointC!).toBeLessThanOrEqual(5);
  });

  it('reports null when the product has no moisture variable, or RH 0', () => {
    expect(moistureAtPoint({ gridTempC: 20, gridDewPointC: null, gridRhPct: null }, 20)).toEqual({ dewPointC: null, humidityPct: null });
    expect(moistureAtPoint({ gridTempC: 20, gridDewPointC: null, gridRhPct: 0 }, 20)).toEqual({ dewPointC: null, humidityPct: 0 });
  });

  it('without temperature reports the grid values uncorrected', () => {
    expect(moistureAtPoint({ gridTempC: null, gridDewPointC: 3, gridRhPct: 70 }, null)).toEqual({ dewPointC: 3, humidityPct: 70 });
  });
});
