/**
 * The base builder writes the Free fields straight into the response (api/fields/base/fields.ts assembleFreeInto):
 * every Free property the response schema declares, in its order, after what the response already holds, and the
 * basis the Developer fields read.
 */
import { describe, expect, it } from 'vitest';
import { SunAtPoint } from '../../../../geo/solar.js';
import { assembleFreeInto, type FreeBasisOut } from '../../../../api/fields/base/fields.js';
import { FreeFieldsSchema } from '../../../../api/fields/base/schema.js';

describe('assembleFreeInto', () => {
  it('adds every Free field in the schema order and records the corrected temperature and moisture', () => {
    const values = {
      temperature_2m: 20, elevation: 100, dew_point_2m: 10, relative_humidity_2m: 52.5, pressure_msl: 1013.2, wind_u_10m: 3, wind_v_10m: -4,
      wind_gust_10m: 9, cloud_cover: 10, precipitation: 0, snowfall_fraction: 0, weather_code: 1,
    };
    const out: Record<string, unknown> = { before: 1 };
    const basis: FreeBasisOut = { correction: null, temperatureC: null, dewPointC: null, humidityPct: null };
    assembleFreeInto({
      lat: 45, lon: 9, altM: 600, product: 'nwp', resolution: '2.2 km', sample: false,
      now: { time: '2026-07-10T12:00:00.000Z', values }, validTimeMs: Date.parse('2026-07-10T12:00:00Z'), sun: new SunAtPoint(45, 9), stepHours: 1,
      pastTempC: 18, demElevationM: null,
    }, out, basis);
    expect(Object.keys(out)).toEqual(['before', ...Object.keys(FreeFieldsSchema.properties)]);
    // 20 °C at 100 m moved to 600 m by the 6.5 K/km lapse rate: 16.75 °C; the wind (3, −4) m/s is 5 m/s = 18 km/h from 323.1°.
    expect(basis.temperatureC).toBeCloseTo(16.75, 10);
    expect(basis.correction).toMatchObject({ applied: true, gridElevationM: 100, pointElevationM: 600 });
    expect(out).toMatchObject({ before: 1, temperature: 16.8, wind_speed: 18, wind_direction: 323, wind_gust: 32.4, pressure_msl: 1013.2, valid_time: '2026-07-10T12:00:00.000Z' });
    expect(out.dew_point).toBe(Math.round(basis.dewPointC! * 10) / 10);
    expect(out.humidity).toBe(Math.round(basis.humidityPct!));
  });
});
