import { describe, expect, it } from 'vitest';
import { windFromComponents } from '../../../../api/fields/base/wind.js';
import { temperatureTrend, trendLabel } from '../../../../api/fields/base/trend.js';
import { roundTo } from '../../../../api/weather/precision.js';

describe('wind from u/v', () => {
  it.each([
    // u, v (m/s), from-direction (°), speed km/h — by hand
    [0, -5, 0, 18], // blowing southward = from the north
    [-5, 0, 90, 18], // blowing westward = from the east
    [0, 5, 180, 18],
    [5, 0, 270, 18],
    [3, 4, 216.8699, 18], // atan2(-3,-4) = -143.13° → 216.87°
    [-1, -1, 45, 5.0912], // √2 × 3.6
  ])('u=%d v=%d → from %d°', (u, v, dir, speed) => {
    const w = windFromComponents(u, v);
    expect(w.directionDeg!).toBeCloseTo(dir, 3);
    expect(w.speedKmh).toBeCloseTo(speed, 3);
  });

  it('calm has no direction', () => {
    expect(windFromComponents(0, 0)).toEqual({ speedKmh: 0, directionDeg: null });
    expect(windFromComponents(0.001, 0).directionDeg).toBeNull();
  });
});

describe('3-hour trend', () => {
  it('labels rises, falls and small changes in Italian with sign and decimal comma', () => {
    expect(temperatureTrend(15.44, 14.0)).toEqual({ delta: 1.4, label: 'in aumento, +1,4 °C in 3 ore' });
    expect(temperatureTrend(10, 12)).toEqual({ delta: -2, label: 'in calo, \u22122,0 °C in 3 ore' });
    expect(temperatureTrend(10.3, 10)).toEqual({ delta: 0.3, label: 'stabile, +0,3 °C in 3 ore' });
    expect(temperatureTrend(10, 10.44)).toEqual({ delta: -0.4, label: 'stabile, \u22120,4 °C in 3 ore' });
    expect(temperatureTrend(7, 7)).toEqual({ delta: 0, label: 'stabile, 0,0 °C in 3 ore' });
  });

  it('decides "stable" on the rounded delta, so label and number agree', () => {
    expect(trendLabel(0.5)).toBe('in aumento, +0,5 °C in 3 ore');
    expect(trendLabel(-0.5)).toBe('in calo, \u22120,5 °C in 3 ore');
    expect(temperatureTrend(10.46, 10)).toEqual({ delta: 0.5, label: 'in aumento, +0,5 °C in 3 ore' });
    expect(temperatureTrend(10.04, 10.08)).toEqual({ delta: 0, label: 'stabile, 0,0 °C in 3 ore' });
  });

  it('gives the same label when remembered, and formats a delta it cannot remember (unrounded, huge) the same way', () => {
    // Twice each: the second call is answered from the labels made so far.
    for (let r = 0; r < 2; r++) {
      expect(trendLabel(-2.9)).toBe('in calo, \u22122,9 °C in 3 ore');
      expect(trendLabel(0.3)).toBe('stabile, +0,3 °C in 3 ore');
      expect(trendLabel(0)).toBe('stabile, 0,0 °C in 3 ore');
    }
    // 1.44 shares its tenth with 1.4 but is not 1.4: formatted, not 1.4's label (the same text here by toFixed).
    expect(trendLabel(1.44)).toBe('in aumento, +1,4 °C in 3 ore');
    expect(trendLabel(0.45)).toBe('stabile, +0,5 °C in 3 ore');
    expect(trendLabel(75.3)).toBe('in aumento, +75,3 °C in 3 ore');
  });

  it('has no trend when either temperature is missing', () => {
    expect(temperatureTrend(null, 3)).toBeNull();
    expect(temperatureTrend(3, null)).toBeNull();
  });

  it('rounds half away from zero and never returns −0', () => {
    expect(roundTo(-0.04, 1)).toBe(0);
    expect(Object.is(roundTo(-0.04, 1), -0)).toBe(false);
    expect(roundTo(-2.25, 1)).toBe(-2.3);
    expect(roundTo(2.25, 1)).toBe(2.3);
  });

  it('rounds to any number of decimals, in the table of scales and beyond it', () => {
    expect(roundTo(1013.46, 0)).toBe(1013);
    expect(roundTo(-0.125, 2)).toBe(-0.13);
    expect(roundTo(0.0125, 3)).toBe(0.013);
    expect(roundTo(1.23456789, 6)).toBe(1.234568);
    expect(roundTo(1.234567891, 8)).toBe(1.23456789);
    expect(roundTo(1250, -2)).toBe(1300);
    expect(roundTo(-1250, -2)).toBe(-1300);
  });
});
