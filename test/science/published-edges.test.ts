/**
 * Edges of three published rules, with the expected values worked out here
 * from the publications, not from the code's tables:
 * - EEA European Air Quality Index before its 2024 revision (bands in µg/m³,
 *   PM as 24 h means; EEA "European Air Quality Index", 2017–2023).
 * - US military heat categories by WBGT in °F (TB MED 507): 78, 82, 85, 88, 90 °F.
 * - WMO-No. 8 (CIMO Guide) Part I ch. 3 reduction to sea level for stations
 *   below 50 m: p0 = ps + ps·z / (29.27·Tv), Tv = T / (1 − 0.379 e/ps); at and
 *   above 50 m p0 = ps·exp((g z / R) / (Ts + a z/2 + e·Ch)), a = 0.0065 K/m,
 *   Ch = 0.12 K/hPa; e from Magnus (Alduchov & Eskridge 1996).
 */
import { describe, expect, it } from 'vitest';
import { EAQI_BANDS_PRE2024, EAQI_LEVELS, europeanAqi, seaLevelPressure, usMilitaryHeatCategory, type AqiPollutant } from '../../science/index.js';

const EEA_PRE2024: Record<AqiPollutant, number[]> = {
  pm2_5: [0, 10, 20, 25, 50, 75],
  pm10: [0, 20, 40, 50, 100, 150],
  nitrogen_dioxide: [0, 40, 90, 120, 230, 340],
  ozone: [0, 50, 100, 130, 240, 380],
  sulphur_dioxide: [0, 100, 200, 350, 500, 750],
};

describe('EAQI before 2024', () => {
  for (const [p, edges] of Object.entries(EEA_PRE2024) as [AqiPollutant, number[]][]) {
    it(`${p}: the middle of each published band gets its level, at the band's middle index`, () => {
      edges.slice(0, -1).forEach((lo, k) => {
        const aqi = europeanAqi({ [p]: (lo + edges[k + 1]!) / 2 }, EAQI_BANDS_PRE2024);
        expect(aqi.label, `${p} band ${k}`).toBe(EAQI_LEVELS[k]!.id);
        expect(aqi.value).toBeCloseTo(20 * k + 10, 10);
      });
    });
  }
});

describe('US military heat categories at their °F edges', () => {
  const c = (f: number) => ((f - 32) * 5) / 9;
  it('each edge opens its category; just below it, the one before', () => {
    const cats = ['none', 'cat1_white', 'cat2_green', 'cat3_yellow', 'cat4_red', 'cat5_black'];
    [78, 82, 85, 88, 90].forEach((f, k) => {
      expect(usMilitaryHeatCategory(c(f)), `${f} °F`).toBe(cats[k + 1]);
      expect(usMilitaryHeatCategory(c(f - 0.1)), `${f - 0.1} °F`).toBe(cats[k]);
    });
  });
});

describe('sea-level pressure below and at 50 m (WMO-No. 8)', () => {
  const eHpa = (t: number, rh: number) => (6.1094 * Math.exp((17.625 * t) / (t + 243.04)) * rh) / 100;
  it('takes the virtual temperature form below 50 m', () => {
    const [ps, z, t, rh] = [1000, 30, 20, 80];
    const tv = (t + 273.15) / (1 - (0.379 * eHpa(t, rh)) / ps);
    expect(seaLevelPressure({ surfacePressureHpa: ps, elevationM: z, temperatureC: t, relativeHumidityPct: rh })).toBeCloseTo(ps + (ps * z) / (29.27 * tv), 6);
  });
  it('takes the exponential form from 50 m', () => {
    const [ps, z, t, rh] = [1000, 50, 20, 80];
    const want = ps * Math.exp((9.80665 * z) / 287.05 / (t + 273.15 + (0.0065 * z) / 2 + eHpa(t, rh) * 0.12));
    expect(seaLevelPressure({ surfacePressureHpa: ps, elevationM: z, temperatureC: t, relativeHumidityPct: rh })).toBeCloseTo(want, 6);
  });
});
