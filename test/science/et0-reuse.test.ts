/**
 * The hourly ET0 fills one detail object and one period-radiation object
 * reused across calls (science/et0.ts, et0-radiation.ts): a result handed
 * out must not change with the next call, and a call must not depend on the
 * previous one.
 */
import { describe, expect, it } from 'vitest';
import { et0Hourly, et0HourlyDetail, type Et0HourlyInput } from '../../science/et0.js';
import { extraterrestrialRadiationPeriod, extraterrestrialRadiationPeriodInto } from '../../science/et0-radiation.js';

const noon: Et0HourlyInput = {
  periodStart: Date.parse('2024-07-15T11:00:00Z'),
  lat: 41.9,
  lon: 12.5,
  elevationM: 50,
  temperatureC: 31,
  dewPointC: 17,
  shortwaveRadiation: 820,
  windSpeed: 3,
};
const night: Et0HourlyInput = { ...noon, periodStart: Date.parse('2024-01-10T23:00:00Z'), lat: 46.5, temperatureC: -2, dewPointC: -4, shortwaveRadiation: 0 };

describe('et0Hourly and et0HourlyDetail with their reused state', () => {
  it('hand out results that later calls leave alone', () => {
    const a = et0HourlyDetail(noon);
    const copy = { ...a };
    et0HourlyDetail(night);
    et0Hourly(night);
    expect(a).toEqual(copy);
    expect(a.et0).toBeGreaterThan(0.3);
  });

  it('give the same value whatever was computed before', () => {
    const first = et0Hourly(noon);
    expect(et0Hourly(night)).toBe(et0HourlyDetail(night).et0);
    expect(et0Hourly(noon)).toBe(first);
    expect(et0HourlyDetail(noon).et0).toBe(first);
  });

  it('extraterrestrialRadiationPeriodInto fills the object given, as extraterrestrialRadiationPeriod makes it', () => {
    const out = { raMJ: 0, sunElevationRad: 0 };
    for (const [start, hours, lat, lon] of [[noon.periodStart, 1, 41.9, 12.5], [night.periodStart, 3, 46.5, 7.1], [Date.parse('2024-03-20T06:00:00Z'), 1, 37.5, 15.1]] as const) {
      expect(extraterrestrialRadiationPeriodInto(out, start, hours, lat, lon)).toBe(out);
      expect(out).toEqual(extraterrestrialRadiationPeriod(start, hours, lat, lon));
    }
  });
});
