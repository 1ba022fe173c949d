import { describe, expect, it } from 'vitest';
import {
  altitudeCorrectedTemperature,
  pressureAtElevation,
  seaLevelPressure,
  seaLevelPressureStandardLapse,
} from '../../science/index.js';

describe('pressure', () => {
  it('reduces nothing at sea level and more for higher stations', () => {
    expect(seaLevelPressure({ surfacePressureHpa: 1013, elevationM: 0, temperatureC: 15 })).toBe(1013);
    const a = seaLevelPressure({ surfacePressureHpa: 900, elevationM: 900, temperatureC: 10 });
    const b = seaLevelPressure({ surfacePressureHpa: 900, elevationM: 1000, temperatureC: 10 });
    expect(b).toBeGreaterThan(a);
  });

  it('agrees between the WMO and standard-lapse forms within 1 hPa at low altitude, dry air', () => {
    const wmo = seaLevelPressure({ surfacePressureHpa: 985, elevationM: 287, temperatureC: 12 });
    expect(Math.abs(wmo - seaLevelPressureStandardLapse(985, 287, 12))).toBeLessThan(1);
  });

  it('moves pressure up and back down consistently (hypsometric)', () => {
    const up = pressureAtElevation(1000, 0, 1500, 20);
    expect(up).toBeGreaterThan(830); // 1000·exp(−g·1500/(R·288.3 K)) = 837.1
    expect(up).toBeLessThan(845);
    expect(pressureAtElevation(up, 1500, 0, 20 - 0.0065 * 1500)).toBeCloseTo(1000, 6);
  });

  it('corrects temperature with a configurable lapse rate', () => {
    expect(altitudeCorrectedTemperature(10, 500, 1500)).toBeCloseTo(3.5, 12);
    expect(altitudeCorrectedTemperature(10, 500, 1500, 0)).toBe(10);
    expect(altitudeCorrectedTemperature(-2, 800, 300, -0.003)).toBeCloseTo(-3.5, 12);
  });
});
