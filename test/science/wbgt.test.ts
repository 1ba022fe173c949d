import { describe, expect, it } from 'vitest';
import { solarGeometry } from '../../geo/solar.js';
import {
  solarParameters,
  stabilityClass,
  usMilitaryHeatCategory,
  wbgt,
  wbgtDetail,
  wbgtLimit,
  wbgtRisk,
  wbgtRiskLabelIt,
  windSpeedAt2m,
  type WbgtInput,
} from '../../science/index.js';

const noon: WbgtInput = {
  time: new Date('2024-07-15T11:00:00Z'),
  lat: 41.9,
  lon: 12.5,
  temperature: 33,
  relativeHumidity: 45,
  pressure: 1013,
  windSpeed: 2,
  windHeight: 2,
  shortwaveRadiation: 850,
};

describe('wbgt (Liljegren et al. 2008)', () => {
  it('takes the Sun given instead of the instant, and is NaN with neither', () => {
    const { time, ...rest } = noon;
    const sun = solarGeometry(time!, noon.lat, noon.lon);
    expect(wbgt({ ...rest, sun })).toEqual(wbgt(noon));
    expect(wbgtDetail({ ...rest, sun })).toEqual(wbgtDetail(noon));
    expect(wbgt(rest)).toEqual({ sun: NaN, shade: NaN });
  });

  it('is lower in the shade than in the sun by day, and equal at night', () => {
    const day = wbgt(noon);
    expect(day.shade).toBeLessThan(day.sun - 3);
    const night = wbgt({ ...noon, time: new Date('2024-07-15T22:00:00Z'), shortwaveRadiation: 0 });
    expect(night.shade).toBe(night.sun);
  });

  it('shade is the same model with S = 0: globe ≈ air temperature minus the sky deficit', () => {
    const r = wbgtDetail(noon);
    expect(r.shade.globe).toBeLessThan(noon.temperature);
    expect(r.shade.globe).toBeGreaterThan(noon.temperature - 3);
    expect(r.shade.wbgt).toBeCloseTo(0.7 * r.shade.naturalWetBulb + 0.2 * r.shade.globe + 0.1 * noon.temperature, 12);
    // Without radiation the natural wet bulb is close to the psychrometric one.
    expect(Math.abs(r.shade.naturalWetBulb - r.shade.psychrometricWetBulb)).toBeLessThan(0.5);
  });

  it('caps the irradiance at 0.85 × top of atmosphere and limits fdir to 0.9', () => {
    const p = solarParameters(1400, 0.9, 1.0);
    expect(p.solar).toBeCloseTo(0.85 * 1367 * 0.9, 6);
    expect(p.fdir).toBeLessThanOrEqual(0.9);
    expect(solarParameters(100, 0.005, 1)).toEqual({ solar: 100, fdir: 0 });
    expect(solarParameters(0, 0.9, 1)).toEqual({ solar: 0, fdir: 0 });
  });

  it('reduces 10 m wind with the stability class (EPA-454/5-99-005)', () => {
    expect(stabilityClass(true, 1, 950, 0)).toBe(1);
    expect(stabilityClass(true, 6.5, 100, 0)).toBe(4);
    expect(stabilityClass(false, 1, 0, 0.5)).toBe(6);
    expect(stabilityClass(false, 3, 0, -0.5)).toBe(4);
    expect(windSpeedAt2m(6, 10, 3, false)).toBeCloseTo(6 * 0.2 ** 0.1, 12);
    expect(windSpeedAt2m(0, 10, 6, false)).toBe(0.13);
    expect(wbgtDetail({ ...noon, windHeight: 2, windSpeed: 3 }).windSpeed2m).toBe(3);
  });

  it('takes the power-law exponent of each class from 10 m as from any other height (EPA-454/5-99-005 table 6-6)', () => {
    // Classes A..F: urban .15 .15 .20 .25 .30 .30, rural .07 .07 .10 .15 .35 .55.
    const urban = [0.15, 0.15, 0.2, 0.25, 0.3, 0.3];
    const rural = [0.07, 0.07, 0.1, 0.15, 0.35, 0.55];
    for (let cls = 1; cls <= 6; cls++) {
      for (const [isUrban, p] of [[true, urban[cls - 1]!], [false, rural[cls - 1]!]] as const) {
        expect(windSpeedAt2m(7, 10, cls, isUrban), `class ${cls}, urban ${isUrban}`).toBeCloseTo(7 * Math.pow(0.2, p), 13);
        expect(windSpeedAt2m(7, 25, cls, isUrban), `class ${cls} from 25 m`).toBeCloseTo(7 * Math.pow(0.08, p), 13);
      }
    }
    // Outside the table: the neutral exponent 0.15 at any height.
    expect(windSpeedAt2m(7, 10, 7, false)).toBeCloseTo(7 * Math.pow(0.2, 0.15), 13);
    expect(windSpeedAt2m(0.1, 10, 1, false)).toBe(0.13);
  });

  it('returns NaN for missing inputs', () => {
    expect(wbgt({ ...noon, temperature: NaN }).sun).toBeNaN();
    expect(wbgt({ ...noon, pressure: 0 }).shade).toBeNaN();
  });
});

describe('wbgtRisk (ISO 7243 / NIOSH limits, Worklimate classes)', () => {
  it('uses RAL for 300 W by default with ratio classes ≤0.8, <1.0, <1.2, ≥1.2', () => {
    const ral = wbgtLimit(300, false);
    expect(ral).toBeCloseTo(59.9 - 14.1 * Math.log10(300), 12);
    expect(wbgtRisk(0.8 * ral)).toBe('not_significant');
    expect(wbgtRisk(0.8 * ral + 0.01)).toBe('low');
    expect(wbgtRisk(ral)).toBe('moderate');
    expect(wbgtRisk(1.2 * ral)).toBe('high');
    expect(wbgtRisk(NaN)).toBeNull();
    expect(wbgtRiskLabelIt('moderate')).toBe('moderato');
  });

  it('maps WBGT to the US military heat categories in °F', () => {
    expect(usMilitaryHeatCategory(25.5)).toBe('none');
    expect(usMilitaryHeatCategory((78 - 32) / 1.8)).toBe('cat1_white');
    expect(usMilitaryHeatCategory((90 - 32) / 1.8)).toBe('cat5_black');
  });
});
