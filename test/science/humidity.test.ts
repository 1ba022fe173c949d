import { describe, expect, it } from 'vitest';
import {
  dewPoint,
  frostPoint,
  relativeHumidity,
  saturationVapourPressure,
  saturationVapourPressureHardy,
  saturationVapourPressureIce,
  vapourPressure,
  vapourPressureDeficit,
} from '../../science/index.js';

describe('humidity (Magnus, Alduchov & Eskridge 1996)', () => {
  it('es(0 °C) is the AERK constant 6.1094 hPa and es over ice equals es over water at 0 °C', () => {
    expect(saturationVapourPressure(0)).toBeCloseTo(6.1094, 4);
    expect(saturationVapourPressureIce(0)).toBeCloseTo(6.112, 4);
  });

  it('agrees with Hardy (1998) ITS-90 within 0.4 % over -40..50 °C (the paper’s stated accuracy)', () => {
    for (let t = -40; t <= 50; t += 5) {
      const rel = saturationVapourPressure(t) / saturationVapourPressureHardy(t) - 1;
      expect(Math.abs(rel)).toBeLessThan(0.004);
    }
  });

  it('dewPoint and relativeHumidity invert each other', () => {
    for (const t of [-20, -5, 0, 12.5, 30, 45]) {
      for (const rh of [5, 30, 60, 95, 100]) {
        expect(relativeHumidity(t, dewPoint(t, rh))).toBeCloseTo(rh, 9);
      }
    }
  });

  it('clamps: Td ≤ T, RH in 0..100', () => {
    expect(dewPoint(20, 130)).toBe(20);
    expect(relativeHumidity(5, 15)).toBe(100);
    expect(relativeHumidity(40, -80)).toBeGreaterThanOrEqual(0);
    expect(dewPoint(20, 0)).toBe(-Infinity);
    expect(vapourPressure(20, 150)).toBeCloseTo(saturationVapourPressure(20), 12);
  });

  it('frost point lies between dew point and air temperature below 0 °C and equals Td above', () => {
    for (const t of [-15, -5, -1]) {
      const td = dewPoint(t, 70);
      const tf = frostPoint(t, 70);
      expect(tf).toBeGreaterThan(td);
      expect(tf).toBeLessThanOrEqual(t);
      // At the frost point the air is saturated over ice: ei(Tf) = e.
      expect(saturationVapourPressureIce(tf)).toBeCloseTo(vapourPressure(t, 70), 3);
    }
    expect(frostPoint(15, 50)).toBeCloseTo(dewPoint(15, 50), 12);
  });

  it("reads RH over ice only below 0 °C: at 0 °C and above, 'ice' is RH over water", () => {
    // By hand: e = 6.1094 exp(17.625 T/(243.04 + T)) RH/100 (water); γ = ln(e/6.112); Tf = 272.62 γ/(22.46 − γ).
    // 5 °C, 30 %: e = 2.614679 hPa, Tf = −9.931101 °C (over ice it would be e = 2.747774, Tf = −9.370363).
    expect(frostPoint(5, 30, 'ice')).toBeCloseTo(-9.931101, 5);
    // 0 °C, 50 %: e = 3.0547 hPa, Tf = −8.166419 °C (the ice curve's 6.112 hPa would give 3.056, −8.161559).
    expect(frostPoint(0, 50, 'ice')).toBeCloseTo(-8.166419, 5);
  });

  it('gives the dew point over water for a frost point of exactly 0 °C', () => {
    // RH chosen so that e = es(1 °C)·RH/100 is 6.112 hPa to the last bit: the ice curve's value at
    // 0 °C, so Tf = 0 exactly. By hand, over water: γ = ln(6.112/6.1094) = 4.25483e-4,
    // Td = 243.04 γ/(17.625 − γ) = 0.0058673 °C (not the 0 °C of the ice branch).
    expect(frostPoint(1, 93.07204793874861)).toBeCloseTo(0.0058673, 6);
  });

  it('clamps RH to 0..100 %', () => {
    expect(vapourPressure(20, -5)).toBe(0);
    expect(dewPoint(20, -5)).toBe(-Infinity);
    expect(vapourPressure(20, 120)).toBe(vapourPressure(20, 100));
  });

  it('VPD is zero at saturation and never negative', () => {
    expect(vapourPressureDeficit(25, 25)).toBe(0);
    expect(vapourPressureDeficit(25, 30)).toBe(0);
    expect(vapourPressureDeficit(25, 10)).toBeGreaterThan(1.9);
  });

  it('propagates NaN', () => {
    expect(dewPoint(NaN, 50)).toBeNaN();
    expect(relativeHumidity(20, NaN)).toBeNaN();
  });
});
