/**
 * The derived WMO 4677 code on both sides of every threshold of its rules,
 * transcribed from their source (Open-Meteo WeatherCode.swift, after the
 * COSMO scheme; intervals [lower, upper)): thunderstorm CAPE 2000 J/kg and
 * lifted index −3 K; freezing 0.1 / 0.5 / 1.3 / 2.5 mm/h; showers with CAPE
 * 800 J/kg, snow 0.01 / 0.8 cm/h, rain 1.3 / 2.5 mm/h; snowfall 0.01 / 0.2 /
 * 0.8 cm/h; precipitation 0.1 / 0.5 / 1.0 / 1.3 / 2.5 / 7.6 mm/h; fog at
 * visibility ≤ 1000 m; cloud 20 / 50 / 80 %.
 */
import { describe, expect, it } from 'vitest';
import { weatherCodeFromState, type WeatherState } from '../../science/weather-code.js';

const code = (s: Partial<WeatherState>) => weatherCodeFromState({ cloudCoverPct: 90, precipitationMm: 0, ...s });

describe('weatherCodeFromState at its thresholds', () => {
  it('thunderstorm', () => {
    expect(code({ capeJPerKg: 2000 })).toBe(95);
    expect(code({ capeJPerKg: 1999 })).toBe(3);
    expect(code({ capeJPerKg: 2500, liftedIndexK: -3 })).toBe(95);
    expect(code({ capeJPerKg: 2500, liftedIndexK: -2.9 })).toBe(3);
  });

  it('freezing precipitation (2 m at 0 °C, all liquid)', () => {
    const f = (p: number) => code({ temperature2mC: 0, snowfallFraction: 0, precipitationMm: p });
    for (const [p, c] of [[2.5, 67], [2.49, 66], [1.3, 66], [1.29, 57], [0.5, 57], [0.49, 56], [0.1, 56], [0.09, 3]] as const) expect(f(p), `${p} mm/h`).toBe(c);
  });

  it('showers, by convective rain or by CAPE ≥ 800 J/kg', () => {
    const sh = (s: Partial<WeatherState>) => code({ convectivePrecipitationMm: 0.5, ...s });
    for (const [cm, c] of [[0.8, 86], [0.79, 85], [0.01, 85]] as const) expect(sh({ precipitationMm: 1, snowfallCm: cm }), `${cm} cm/h`).toBe(c);
    for (const [p, c] of [[2.5, 81], [2.49, 80], [1.3, 80], [1.29, 55]] as const) expect(sh({ precipitationMm: p, snowfallCm: 0 }), `${p} mm/h`).toBe(c);
    expect(code({ capeJPerKg: 800, precipitationMm: 1.3 })).toBe(80);
    expect(code({ capeJPerKg: 799, precipitationMm: 1.3 })).toBe(61);
  });

  it('snowfall', () => {
    for (const [cm, c] of [[0.8, 75], [0.79, 73], [0.2, 73], [0.19, 71], [0.01, 71], [0.009, 3]] as const) expect(code({ snowfallCm: cm }), `${cm} cm/h`).toBe(c);
  });

  it('rain and drizzle', () => {
    for (const [p, c] of [[7.6, 65], [7.59, 63], [2.5, 63], [2.49, 61], [1.3, 61], [1.29, 55], [1.0, 55], [0.99, 53], [0.5, 53], [0.49, 51], [0.1, 51], [0.09, 3]] as const) {
      expect(code({ precipitationMm: p }), `${p} mm/h`).toBe(c);
    }
  });

  it('fog and cloud', () => {
    expect(code({ visibilityM: 1000 })).toBe(45);
    expect(code({ visibilityM: 1001 })).toBe(3);
    for (const [cc, c] of [[19.9, 0], [20, 1], [49.9, 1], [50, 2], [79.9, 2], [80, 3]] as const) expect(code({ cloudCoverPct: cc }), `${cc} %`).toBe(c);
  });

  it('divides amounts by the step: 7.5 mm in 3 h is 2.5 mm/h, 0.9 cm of snow in 3 h is 0.3 cm/h', () => {
    expect(code({ precipitationMm: 7.5, stepHours: 3 })).toBe(63);
    expect(code({ snowfallCm: 0.9, stepHours: 3 })).toBe(73);
  });

  it('takes a step that is not positive as one hour', () => {
    expect(code({ precipitationMm: 3, stepHours: -3 })).toBe(63); // 3 mm/h
    expect(code({ precipitationMm: 3, stepHours: 0 })).toBe(63);
  });

  it('freezing precipitation needs at least half the water liquid: exactly half as snow still counts', () => {
    // 1 mm/h with 0.35 cm of snow = 0.5 mm of water (0.7 cm/mm) at −1 °C: freezing, 0.5–1.3 mm/h → 57.
    expect(code({ precipitationMm: 1, snowfallCm: 0.35, temperature2mC: -1 })).toBe(57);
    // 0.36 cm is more than half: snowfall 0.2–0.8 cm/h → 73.
    expect(code({ precipitationMm: 1, snowfallCm: 0.36, temperature2mC: -1 })).toBe(73);
  });

  it('a snowfall that is not a number falls back to the snow fraction; an unknown phase diagnoses no freezing', () => {
    expect(code({ precipitationMm: 1, snowfallCm: NaN, snowfallFraction: 1 })).toBe(73); // 1 mm × 0.7 cm/mm
    expect(code({ precipitationMm: 1, temperature2mC: -1, snowfallFraction: NaN })).toBe(55);
    expect(code({ precipitationMm: 1, temperature2mC: -1 })).toBe(55);
  });
});
