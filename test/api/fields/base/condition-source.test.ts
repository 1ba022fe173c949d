import { describe, expect, it } from 'vitest';
import { assembleFreeInto } from '../../../../api/fields/base/fields.js';
import { currentCondition, isDaytime } from '../../../../api/fields/base/condition.js';
import { temperatureSource } from '../../../../api/fields/base/source.js';
import { altitudeCorrection } from '../../../../api/fields/base/altitude.js';
import { solarPosition, SunAtPoint } from '../../../../geo/solar.js';

// Rome (41.9028 N, 12.4964 E), 2024-06-21: sunrise 05:34, sunset 20:48 CEST
// (timeanddate.com / NOAA Solar Calculator) = 03:34 and 18:48 UTC.
const ROME = { lat: 41.9028, lon: 12.4964 };

describe('day or night from the Sun', () => {
  it.each([
    ['2024-06-21T12:00:00Z', true],
    ['2024-06-21T00:00:00Z', false],
    ['2024-06-21T03:25:00Z', false], // 9 min before sunrise
    ['2024-06-21T03:45:00Z', true], // 11 min after sunrise
    ['2024-06-21T18:40:00Z', true],
    ['2024-06-21T18:58:00Z', false],
  ])('Rome at %s → day %s', (iso, day) => {
    expect(isDaytime(solarPosition(new Date(iso), ROME.lat, ROME.lon))).toBe(day);
  });
});

describe('condition and icon', () => {
  const none = { weatherCode: null, cloudCoverPct: null, precipitationMm: null, snowfallFraction: null, temperatureC: null };

  it('uses the product weather code, with day and night icons', () => {
    expect(currentCondition({ ...none, weatherCode: 0 }, true)).toMatchObject({ condition: 'clear', icon: 'clear-day', codeSource: 'product' });
    expect(currentCondition({ ...none, weatherCode: 0 }, false)).toMatchObject({ condition: 'clear', icon: 'clear-night' });
    expect(currentCondition({ ...none, weatherCode: 63, cloudCoverPct: 0, precipitationMm: 0 }, true)).toMatchObject({ condition: 'rain', icon: 'rain', code: 63 });
  });

  it('derives a code from cloud cover, precipitation and snow fraction without one', () => {
    // thresholds (WMO 4677 as Open-Meteo derives them): cloud < 20 % → 0, < 50 → 1, < 80 → 2, else 3
    expect(currentCondition({ ...none, cloudCoverPct: 10, precipitationMm: 0 }, false)).toMatchObject({ code: 0, icon: 'clear-night', codeSource: 'derived' });
    expect(currentCondition({ ...none, cloudCoverPct: 60, precipitationMm: 0 }, true)).toMatchObject({ code: 2, condition: 'partly_cloudy', icon: 'partly-cloudy-day' });
    expect(currentCondition({ ...none, cloudCoverPct: 95, precipitationMm: 0 }, true)).toMatchObject({ code: 3, condition: 'overcast' });
    // 3 mm/h of rain → 63; the same as snow (fraction 1): 3 × 0.7 = 2.1 cm/h → 75
    expect(currentCondition({ ...none, cloudCoverPct: 100, precipitationMm: 3 }, true)).toMatchObject({ code: 63 });
    expect(currentCondition({ ...none, cloudCoverPct: 100, precipitationMm: 3, snowfallFraction: 1 }, true)).toMatchObject({ code: 75, condition: 'heavy_snow' });
  });

  it('derives freezing rain from the temperature it reports (WMO 4677 66: rain, freezing, slight)', () => {
    // 2 mm/h, all liquid, at −1.5 °C: freezes on impact; at +1.5 °C it is plain rain (61); as snow at −1.5 °C: snow.
    const rain = { ...none, cloudCoverPct: 100, precipitationMm: 2, snowfallFraction: 0 };
    expect(currentCondition({ ...rain, temperatureC: -1.5 }, true)).toMatchObject({ code: 66, condition: 'light_freezing_rain', icon: 'freezing-rain' });
    expect(currentCondition({ ...rain, temperatureC: 1.5 }, true)).toMatchObject({ code: 61, condition: 'light_rain' });
    expect(currentCondition({ ...rain, snowfallFraction: 1, temperatureC: -1.5 }, true)).toMatchObject({ code: 75 });
    // 0.3 mm/h at 0 °C: freezing drizzle, slight (56).
    expect(currentCondition({ ...rain, precipitationMm: 0.3, temperatureC: 0 }, true)).toMatchObject({ code: 56, condition: 'light_freezing_drizzle' });
  });

  it('is null when nothing is known', () => {
    expect(currentCondition(none, true)).toEqual({ condition: null, icon: null, code: null, codeSource: null });
    expect(currentCondition({ ...none, cloudCoverPct: 50 }, true).condition).toBeNull();
  });
});

describe('temperature_source', () => {
  it('names product, resolution and what was done', () => {
    expect(temperatureSource({ product: 'nwp', resolution: '2.2 km', correction: altitudeCorrection(412.4, 380, null), sample: false })).toBe(
      'nwp 2.2 km bilinear, altitude-corrected 412 m → 380 m (alt), lapse 6.5 K/km',
    );
    expect(temperatureSource({ product: 'nwp', resolution: '2.2 km', correction: altitudeCorrection(412, undefined, 1201.6), sample: true })).toBe(
      'nwp 2.2 km bilinear, altitude-corrected 412 m → 1202 m (dem), lapse 6.5 K/km, sample data',
    );
    expect(temperatureSource({ product: 'nwp', resolution: '2.2 km', correction: altitudeCorrection(null, 5, null), sample: false })).toBe(
      'nwp 2.2 km bilinear, not altitude-corrected (no grid elevation)',
    );
    expect(temperatureSource({ product: 'nwp', resolution: '2.2 km', correction: altitudeCorrection(7, undefined, null), sample: false })).toBe(
      'nwp 2.2 km bilinear, not altitude-corrected (no point elevation)',
    );
  });
});

describe('interpolated weather codes', () => {
  const base = { weatherCode: null, cloudCoverPct: null, precipitationMm: null, snowfallFraction: null, temperatureC: null };
  it('treats a fractional code (neighbours disagree) as no code and derives one', () => {
    // 32 = a bilinear mix of 3 and 61: meaningless as WMO 4677
    expect(currentCondition({ ...base, weatherCode: 32, cloudCoverPct: 90, precipitationMm: 0 }, true)).toMatchObject({ code: 32, codeSource: 'product' });
    expect(currentCondition({ ...base, weatherCode: 31.7, cloudCoverPct: 90, precipitationMm: 0 }, true)).toMatchObject({ code: 3, codeSource: 'derived' });
    expect(currentCondition({ ...base, weatherCode: 2.99999, cloudCoverPct: 10, precipitationMm: 0 }, true)).toMatchObject({ code: 3, codeSource: 'product' });
    expect(currentCondition({ ...base, weatherCode: 1.5 }, true)).toMatchObject({ code: 2, codeSource: 'product' });
  });
});

describe('the derived condition uses the temperature the response reports', () => {
  it('a grid at +1 °C and 0 m read for a point at 400 m (−1.6 °C by the 6.5 K/km lapse rate) gives freezing rain', () => {
    const values = { temperature_2m: 1, elevation: 0, cloud_cover: 100, precipitation: 2, snowfall_fraction: 0, weather_code: null };
    const at = (altM: number) => {
      const fields: Record<string, unknown> = {};
      assembleFreeInto({
        lat: 45, lon: 9, altM, product: 'nwp', resolution: '2.2 km', sample: false,
        now: { time: '2026-01-10T12:00:00Z', values }, validTimeMs: Date.parse('2026-01-10T12:00:00Z'), sun: new SunAtPoint(45, 9), stepHours: 1, pastTempC: null, demElevationM: null,
      }, fields, { correction: null, temperatureC: null, dewPointC: null, humidityPct: null });
      return fields;
    };
    // 1 − 0.0065 × 400 = −1.6 °C: rain that freezes on impact, WMO 4677 66.
    expect(at(400)).toMatchObject({ temperature: -1.6, condition: 'light_freezing_rain' });
    expect(at(0)).toMatchObject({ temperature: 1, condition: 'light_rain' });
  });
});
