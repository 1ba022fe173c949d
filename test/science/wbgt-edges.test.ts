/**
 * The rules of the WBGT model at their edges, against the tables and
 * constants of Liljegren's wbgt.c v1.1 (stab_srdt's lsrdt table and its
 * wind-class and radiation-class limits, est_wind_speed's power-law
 * exponents, calc_solar_parameters' CZA_MIN and NORMSOLAR_MAX), transcribed
 * here; the expected numbers are computed by hand in the comments.
 */
import { describe, expect, it } from 'vitest';
import { solarParameters, stabilityClass, wbgt, wbgtDetail, windSpeedAt2m, type WbgtInput } from '../../science/index.js';
import { atmosphericEmissivity, globeTemperature, thermalConductivityAir, wetBulbTemperature } from '../../science/wbgt-physics.js';

// wbgt.c stab_srdt: rows by wind class, columns day radiation classes 0..3, (unused), night dT < 0, night dT ≥ 0.
// Classes 1..6 are Pasquill–Gifford A..F.
const LSRDT = [
  [1, 1, 2, 4, 0, 5, 6],
  [1, 2, 3, 4, 0, 5, 6],
  [2, 2, 3, 4, 0, 4, 4],
  [3, 3, 4, 4, 0, 0, 0],
  [3, 4, 4, 4, 0, 0, 0],
];
// Day: radiation class by solar ≥ 925, ≥ 675, ≥ 175 W/m²; wind class by speed ≥ 6, ≥ 5, ≥ 3, ≥ 2 m/s. Night: ≥ 2.5, ≥ 2.
const DAY_SOLAR: [number, number][] = [[1000, 0], [925, 0], [924.9, 1], [675, 1], [674.9, 2], [175, 2], [174.9, 3], [0, 3]];
const DAY_WIND: [number, number][] = [[7, 4], [6, 4], [5.99, 3], [5, 3], [4.99, 2], [3, 2], [2.99, 1], [2, 1], [1.99, 0], [0, 0]];
const NIGHT_WIND: [number, number][] = [[4, 2], [2.5, 2], [2.49, 1], [2, 1], [1.99, 0], [0, 0]];

// wbgt.c est_wind_speed: exponents by class A..F.
const URBAN_EXP = [0.15, 0.15, 0.2, 0.25, 0.3, 0.3];
const RURAL_EXP = [0.07, 0.07, 0.1, 0.15, 0.35, 0.55];

describe('stability class (wbgt.c stab_srdt, EPA-454/5-99-005 §6.2.5)', () => {
  it('by day: every radiation and wind class, on both sides of every limit', () => {
    for (const [solar, j] of DAY_SOLAR) {
      for (const [speed, i] of DAY_WIND) expect(stabilityClass(true, speed, solar, 0), `day, ${speed} m/s, ${solar} W/m²`).toBe(LSRDT[i]![j]);
    }
  });

  it('by night: the sign of ΔT and the three wind classes, on both sides of every limit', () => {
    for (const [dT, j] of [[0, 6], [0.5, 6], [-0.01, 5], [-2, 5]] as const) {
      for (const [speed, i] of NIGHT_WIND) expect(stabilityClass(false, speed, 0, dT), `night, ${speed} m/s, ΔT ${dT}`).toBe(LSRDT[i]![j]);
    }
  });
});

describe('wind at 2 m (wbgt.c est_wind_speed)', () => {
  it('u2 = u_z (2/z)^p with the urban and rural exponent of each class, floored at 0.13 m/s', () => {
    for (let cls = 1; cls <= 6; cls++) {
      // 8 m/s at 10 m: for class F rural, 8 × 0.2^0.55 = 8 × 0.4125 = 3.30 m/s.
      expect(windSpeedAt2m(8, 10, cls, false), `rural ${cls}`).toBeCloseTo(8 * 0.2 ** RURAL_EXP[cls - 1]!, 12);
      expect(windSpeedAt2m(8, 10, cls, true), `urban ${cls}`).toBeCloseTo(8 * 0.2 ** URBAN_EXP[cls - 1]!, 12);
    }
    // 0.2 m/s at 30 m, class F rural: 0.2 × (1/15)^0.55 = 0.045, below the floor.
    expect(windSpeedAt2m(0.2, 30, 6, false)).toBe(0.13);
    // Just above the floor: 0.14 at 2 m stays 0.14.
    expect(windSpeedAt2m(0.14, 2, 4, false)).toBeCloseTo(0.14, 12);
  });

  it('a 10 m wind is reduced with the class of the moment: urban and rural differ, 2 m wind is used as given', () => {
    const input: WbgtInput = {
      time: new Date('2024-07-15T11:00:00Z'), lat: 41.9, lon: 12.5, temperature: 30, relativeHumidity: 40,
      pressure: 1013, windSpeed: 4, windHeight: 10, shortwaveRadiation: 500,
    };
    // Day, 4 m/s (wind class 2), 500 W/m² (radiation class 2): class 3 (C), rural p = 0.10, urban 0.20.
    expect(wbgtDetail(input).windSpeed2m).toBeCloseTo(4 * 0.2 ** 0.1, 6);
    expect(wbgtDetail({ ...input, urban: true }).windSpeed2m).toBeCloseTo(4 * 0.2 ** 0.2, 6);
    // Night (22 UTC), ΔT ≥ 0 by default, 4 m/s: class 4 (D); with ΔT < 0 also D at this speed; at 1 m/s F and E.
    const night = { ...input, time: new Date('2024-07-15T22:00:00Z'), shortwaveRadiation: 0 };
    expect(wbgtDetail(night).windSpeed2m).toBeCloseTo(4 * 0.2 ** 0.15, 6);
    expect(wbgtDetail({ ...night, windSpeed: 1 }).windSpeed2m).toBeCloseTo(Math.max(0.13, 1 * 0.2 ** 0.55), 6);
    expect(wbgtDetail({ ...night, windSpeed: 1, verticalTempDiffK: -1 }).windSpeed2m).toBeCloseTo(1 * 0.2 ** 0.35, 6);
    // A negative speed is no wind (then the floor).
    expect(wbgtDetail({ ...input, windHeight: 2, windSpeed: -3 }).windSpeed2m).toBe(0);
  });
});

describe('solar parameters (wbgt.c calc_solar_parameters)', () => {
  it('the Sun counts from cos z = 0.00873 (0.5° elevation)', () => {
    // Below: S unchanged, fdir 0.
    expect(solarParameters(5, 0.0087, 1)).toEqual({ solar: 5, fdir: 0 });
    // At the limit: S_toa = 1367 × 0.00873 = 11.93 W/m²; 5 W/m² gives s = 0.419, fdir = exp(3 − 0.562 − 3.938) = exp(−1.50) = 0.223.
    const p = solarParameters(5, 0.00873, 1);
    expect(p.solar).toBeCloseTo(5, 9);
    expect(p.fdir).toBeCloseTo(Math.exp(3 - 1.34 * (5 / 11.93391) - 1.65 / (5 / 11.93391)), 3);
  });

  it('s = S/S_toa is capped at 0.85, and fdir at 0.9 (exp(3 − 1.34·0.85 − 1.65/0.85) = 0.923)', () => {
    // cos z 0.5 at 1 AU: S_toa = 683.5 W/m²; 700 W/m² is s = 1.02, cut to 0.85: S = 580.975 W/m².
    const p = solarParameters(700, 0.5, 1);
    expect(p.solar).toBeCloseTo(0.85 * 683.5, 6);
    expect(p.fdir).toBe(0.9);
    // At 1.0167 AU (early July) S_toa = 683.5 / 1.0167² = 661.2 W/m²; 400 W/m²: s = 0.605, fdir = exp(3 − 0.811 − 2.727) = 0.584.
    const q = solarParameters(400, 0.5, 1.0167);
    const s = 400 / (683.5 / 1.0167 ** 2);
    expect(q.solar).toBeCloseTo(400, 9);
    expect(q.fdir).toBeCloseTo(Math.exp(3 - 1.34 * s - 1.65 / s), 9);
    // Nothing measured: fdir 0; a negative reading is not light.
    expect(solarParameters(0, 0.5, 1)).toEqual({ solar: 0, fdir: 0 });
  });
});

describe('wbgt inputs', () => {
  const base: WbgtInput = {
    time: new Date('2024-07-15T11:00:00Z'), lat: 41.9, lon: 12.5, temperature: 30, relativeHumidity: 50,
    pressure: 1013, windSpeed: 2, windHeight: 2, shortwaveRadiation: 800,
  };

  it('refuses a wind height or pressure of 0 or below, and any input that is not finite (NaN, not a value)', () => {
    for (const bad of [{ windHeight: 0 }, { windHeight: -2 }, { pressure: 0 }, { pressure: -1 }, { temperature: Infinity }, { relativeHumidity: Infinity }, { pressure: NaN }, { shortwaveRadiation: NaN }, { windSpeed: NaN }, { windHeight: NaN }]) {
      const r = wbgtDetail({ ...base, ...bad });
      expect(r.sun.wbgt, JSON.stringify(bad)).toBeNaN();
      expect(r.shade.wbgt, JSON.stringify(bad)).toBeNaN();
      expect(r.windSpeed2m, JSON.stringify(bad)).toBeNaN();
    }
  });

  it('clamps relative humidity to 0–100 % and negative irradiance to 0', () => {
    expect(wbgt({ ...base, relativeHumidity: 130 })).toEqual(wbgt({ ...base, relativeHumidity: 100 }));
    // Bone-dry air has no dew point, the wick's usual first estimate: it still has a wet bulb, below that of 10 %.
    expect(wbgt({ ...base, relativeHumidity: -20 })).toEqual(wbgt({ ...base, relativeHumidity: 0 }));
    const dry = wbgt({ ...base, relativeHumidity: 0 }).sun;
    expect(Number.isFinite(dry)).toBe(true);
    expect(dry).toBeLessThan(wbgt({ ...base, relativeHumidity: 10 }).sun);
    const night = { ...base, time: new Date('2024-07-15T22:00:00Z') };
    expect(wbgt({ ...night, shortwaveRadiation: -5 })).toEqual(wbgt({ ...night, shortwaveRadiation: 0 }));
  });

  it('in the shade the globe and wick get no sunlight: the shade equals the sun with no irradiance', () => {
    const r = wbgtDetail(base);
    const dark = wbgtDetail({ ...base, shortwaveRadiation: 0 });
    expect(r.shade.globe).toBeCloseTo(dark.sun.globe, 9);
    expect(r.shade.naturalWetBulb).toBeCloseTo(dark.sun.naturalWetBulb, 9);
    // WBGT = 0.7 Tnwb + 0.2 Tg + 0.1 Ta (ISO 7243 outdoors).
    expect(r.sun.wbgt).toBeCloseTo(0.7 * r.sun.naturalWetBulb + 0.2 * r.sun.globe + 0.1 * base.temperature, 12);
    expect(wbgt(base).sun).toBe(r.sun.wbgt);
    // wbgt() skips the psychrometric wet bulb; wbgtDetail() gives it (below the natural one in the sun).
    expect(r.sun.psychrometricWetBulb).toBeLessThan(r.sun.naturalWetBulb);
  });
});

describe('air properties and first estimates', () => {
  it('atmospheric emissivity 0.575 e^0.143 (Oke 1987) and the Eucken conductivity of air', () => {
    // 20 °C, 50 %: e = 0.5 × 1.004 × 6.1121 exp(17.502 × 20 / 260.97) = 0.5 × 6.1365 × 3.8240 = 11.733 hPa; ε = 0.575 × 11.733^0.143 = 0.8178.
    expect(atmosphericEmissivity(293.15, 0.5)).toBeCloseTo(0.8178, 3);
    // 300 K: Ω = 1.048 − 0.034 (300/97 − 2.9)/0.4 = 1.0316, μ = 2.6693e-6 √(28.97 × 300) / (3.617² × 1.0316) = 1.8438e-5 kg/(m s);
    // k = (cp + 1.25 R) μ = (1003.5 + 1.25 × 287.00) × 1.8438e-5 = 0.02512 W/(m K) (tables give 0.0263: within 5 %).
    expect(thermalConductivityAir(300)).toBeCloseTo(0.02512, 4);
  });

  it('a first estimate changes the path, not the root; one of 0 K or below is ignored', () => {
    const env = { tK: 303.15, rh: 0.5, pressureHpa: 1013, speedMs: 2, solarWm2: 800, fdir: 0.7, cza: 0.9 };
    const g = globeTemperature(env);
    const w = wetBulbTemperature(env, true);
    for (const start of [280, 300, 325]) {
      expect(Math.abs(globeTemperature(env, start) - g), `globe from ${start} K`).toBeLessThan(0.005);
      expect(Math.abs(wetBulbTemperature(env, true, start) - w), `wick from ${start} K`).toBeLessThan(0.005);
    }
    expect(globeTemperature(env, 0)).toBe(g);
    expect(globeTemperature(env, -10)).toBe(g);
    expect(wetBulbTemperature(env, true, 0)).toBe(w);
    expect(wetBulbTemperature(env, true, -10)).toBe(w);
  });
});
