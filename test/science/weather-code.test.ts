import { describe, expect, it } from 'vitest';
import { WEATHER_CODES, weatherCodeFromState, weatherCondition } from '../../science/index.js';

describe('weatherCondition', () => {
  it('covers the 28 codes of the Open-Meteo subset with unique snake_case conditions', () => {
    const codes = Object.keys(WEATHER_CODES).map(Number);
    expect(codes).toHaveLength(28);
    const conditions = codes.map((c) => weatherCondition(c, true).condition);
    expect(new Set(conditions).size).toBe(28);
    for (const c of conditions) expect(c).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('has day and night icons where the sky shows', () => {
    expect(weatherCondition(0, true)).toEqual({ condition: 'clear', icon: 'clear-day' });
    expect(weatherCondition(0, false)).toEqual({ condition: 'clear', icon: 'clear-night' });
    expect(weatherCondition(2, false).icon).toBe('partly-cloudy-night');
    expect(weatherCondition(3, false).icon).toBe('overcast');
    expect(weatherCondition(63.2, true).condition).toBe('rain');
    expect(weatherCondition(4, true)).toEqual({ condition: 'unknown', icon: 'unknown' });
    expect(weatherCondition(NaN, true).condition).toBe('unknown');
  });
});

describe('weatherCodeFromState', () => {
  it('follows the documented thresholds', () => {
    expect(weatherCodeFromState({ cloudCoverPct: 19.9, precipitationMm: 0 })).toBe(0);
    expect(weatherCodeFromState({ cloudCoverPct: 80, precipitationMm: 0 })).toBe(3);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.05 })).toBe(3);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.1 })).toBe(51);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 7.6 })).toBe(65);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, stepHours: 3 })).toBe(55); // 1.0 mm/h
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 2, freezingRain: true })).toBe(66);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, convectivePrecipitationMm: 1 })).toBe(81);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, capeJPerKg: 2500 })).toBe(95);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 12, capeJPerKg: 2500, liftedIndexK: -4 })).toBe(96);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, capeJPerKg: 2500, liftedIndexK: 0 })).toBe(81);
  });

  it('derives snowfall from the snow fraction (0.7 cm per mm)', () => {
    // 2 mm all snow → 1.4 cm/h → heavy snow; 0.2 mm → 0.14 cm/h → slight.
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 2, snowfallFraction: 1 })).toBe(75);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.2, snowfallFraction: 1 })).toBe(71);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.5, snowfallFraction: 1 })).toBe(73);
    expect(weatherCodeFromState({ cloudCoverPct: NaN, precipitationMm: 0 })).toBeNaN();
  });
});
