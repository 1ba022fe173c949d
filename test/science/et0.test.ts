import { describe, expect, it } from 'vitest';
import {
  daylightHours,
  et0Daily,
  et0Hourly,
  et0HourlyDetail,
  extraterrestrialRadiationDaily,
  extraterrestrialRadiationPeriod,
  pressureFromElevationKpa,
  windSpeed2mFao,
} from '../../science/index.js';

describe('FAO-56 building blocks', () => {
  it('reproduces FAO-56 Example 8 (Ra at 20°S on 3 September = 32.2 MJ/m²/day) and Example 9 (N = 11.7 h)', () => {
    expect(extraterrestrialRadiationDaily(-20, 246)).toBeCloseTo(32.2, 1);
    expect(daylightHours(-20, 246)).toBeCloseTo(11.7, 1);
  });

  it('reproduces FAO-56 Example 2 (P at 1800 m = 81.8 kPa) and Example 14 (u2 from 3.2 m/s at 10 m = 2.4)', () => {
    expect(pressureFromElevationKpa(1800)).toBeCloseTo(81.8, 1);
    expect(windSpeed2mFao(3.2, 10)).toBeCloseTo(2.4, 1);
    // Eq. 47 at 10 m (ln 672.58) and at other heights alike.
    expect(windSpeed2mFao(3.2, 10)).toBeCloseTo((3.2 * 4.87) / Math.log(672.58), 12);
    expect(windSpeed2mFao(5, 2)).toBeCloseTo((5 * 4.87) / Math.log(130.18), 12);
    expect(windSpeed2mFao(5, 25)).toBeCloseTo((5 * 4.87) / Math.log(1689.58), 12);
  });

  it('sums hourly Ra over a day to the daily Ra', () => {
    let sum = 0;
    for (let h = 0; h < 24; h++) sum += extraterrestrialRadiationPeriod(new Date(Date.UTC(2023, 5, 21, h)), 1, 45, 0).raMJ;
    expect(sum).toBeCloseTo(extraterrestrialRadiationDaily(45, 172), 1);
  });
});

describe('et0', () => {
  const day = {
    lat: 41.9,
    elevationM: 20,
    dayOfYear: 197,
    tMinC: 20,
    tMaxC: 32,
    dewPointC: 16,
    shortwaveRadiationMJ: 27,
    windSpeed: 2.5,
  };

  it('rises with radiation, wind and dryness', () => {
    const base = et0Daily(day);
    expect(et0Daily({ ...day, shortwaveRadiationMJ: 30 })).toBeGreaterThan(base);
    expect(et0Daily({ ...day, windSpeed: 4 })).toBeGreaterThan(base);
    expect(et0Daily({ ...day, dewPointC: 8 })).toBeGreaterThan(base);
  });

  it('is NaN without humidity, never negative', () => {
    expect(et0Daily({ ...day, dewPointC: undefined })).toBeNaN();
    const night = et0Hourly({
      periodStart: new Date('2023-01-15T02:00:00Z'),
      lat: 45.5,
      lon: 9.2,
      elevationM: 120,
      temperatureC: -2,
      dewPointC: -2,
      shortwaveRadiation: 0,
      windSpeed: 0.5,
    });
    expect(night).toBeGreaterThanOrEqual(0);
  });

  it('takes the period start as a Date or as ms since the epoch alike', () => {
    for (const iso of ['2023-07-15T09:00:00Z', '2023-07-15T09:20:30.500Z', '2023-12-31T23:30:00Z']) {
      const ms = Date.parse(iso);
      const input = { periodHours: 1, lat: 41.9, lon: 12.5, elevationM: 20, temperatureC: 27, dewPointC: 16, shortwaveRadiation: 600, windSpeed: 2.5 };
      expect(et0HourlyDetail({ ...input, periodStart: ms })).toEqual(et0HourlyDetail({ ...input, periodStart: new Date(ms) }));
      expect(extraterrestrialRadiationPeriod(ms, 3, 45, 9)).toEqual(extraterrestrialRadiationPeriod(new Date(ms), 3, 45, 9));
    }
    // 09:00-10:00 UTC in mid-July at 41.9 N: well above zero (the Sun is high).
    expect(extraterrestrialRadiationPeriod(Date.parse('2023-07-15T09:00:00Z'), 1, 41.9, 12.5).raMJ).toBeGreaterThan(3);
  });

  it('hourly sums over a clear day approach the daily value', () => {
    // Same day in hourly steps: a sinusoidal temperature and clear-sky radiation; FAO-56 notes the
    // hourly sum and the daily value agree within ~10 % in such conditions.
    let sum = 0;
    for (let h = 0; h < 24; h++) {
      const start = new Date(Date.UTC(2023, 0, 197, h));
      const { raMJ } = extraterrestrialRadiationPeriod(start, 1, 41.9, 12.5);
      const t = 26 + 6 * Math.sin(((h - 8) / 24) * 2 * Math.PI);
      sum += et0Hourly({
        periodStart: start,
        lat: 41.9,
        lon: 12.5,
        elevationM: 20,
        temperatureC: t,
        dewPointC: 16,
        shortwaveRadiation: (0.66 * raMJ) / 0.0036,
        windSpeed: 2.5,
        windHeightM: 2,
      });
    }
    const daily = et0Daily(day);
    expect(Math.abs(sum / daily - 1)).toBeLessThan(0.15);
  });
});
