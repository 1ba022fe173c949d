/** Pure CF pieces with hand-computed expectations. */
import { describe, expect, it } from 'vitest';
import { parseTimeUnits, timeValueToMs, decodeTimes, TimeUnitsError } from '../../../ingest/netcdf/cf-time.js';
import { parseCalendar } from '../../../ingest/netcdf/cf-calendar.js';
import { dailyStepType, intervalsOf, isDailyAxis, stepTypeOf } from '../../../ingest/netcdf/cf-step.js';
import { cleanFloat32, xAxis, yAxis, GridAxisError } from '../../../ingest/netcdf/cf-grid.js';
import { rotatedFromNorthPole } from '../../../ingest/netcdf/cf-grid-mapping.js';
import { coordRole } from '../../../ingest/netcdf/cf-coords.js';
import { packingOf } from '../../../ingest/netcdf/cf-packing.js';
import type { AttrValue, NcType, NcVariable } from '../../../ingest/netcdf/model.js';

const ms = (units: string, value: number, calendar?: string) => new Date(timeValueToMs(value, parseTimeUnits(units, calendar))).toISOString();

describe('time units', () => {
  it('parses the spellings producers write', () => {
    // ERA5 grib_to_netcdf: 978096 h after 1900-01-01 = (Date.UTC(2011,7,1) - Date.UTC(1900,0,1)) / 3.6e6
    expect((Date.UTC(2011, 7, 1) - Date.UTC(1900, 0, 1)) / 3.6e6).toBe(978096);
    expect(ms('hours since 1900-01-01 00:00:0.0', 978096, 'gregorian')).toBe('2011-08-01T00:00:00.000Z');
    expect(ms('seconds since 1970-01-01T00:00:00Z', 86400.5)).toBe('1970-01-02T00:00:00.500Z');
    expect(ms('days since 2000-1-1', 31)).toBe('2000-02-01T00:00:00.000Z');
    expect(ms('minutes since 2020-01-01 00:00:00 UTC', 90)).toBe('2020-01-01T01:30:00.000Z');
    expect(ms('hours since 2020-01-01 06:00 -03:30', 0)).toBe('2020-01-01T09:30:00.000Z');
    expect(ms('Hours Since 2020-01-01T12:00:00.000000000', 1.5)).toBe('2020-01-01T13:30:00.000Z');
    expect(ms('hours since 2020-01-01', -6)).toBe('2019-12-31T18:00:00.000Z');
  });

  it('refuses what it cannot decode', () => {
    expect(() => parseTimeUnits('furlongs since 2000-01-01', undefined)).toThrow(TimeUnitsError);
    expect(() => parseTimeUnits('hours after 2000-01-01', undefined)).toThrow(/not "<unit> since <date>"/);
    expect(() => parseTimeUnits('years since 2000-01-01', undefined)).toThrow(/ambiguous/);
    expect(() => parseTimeUnits('days since 2000-13-01', undefined)).toThrow(/invalid/);
    expect(() => decodeTimes([0, NaN], 'days since 2000-01-01', undefined)).toThrow(/not finite/);
  });
});

describe('calendars (hand-derived)', () => {
  it('knows the CF names and aliases', () => {
    expect(parseCalendar(undefined)).toBe('standard');
    expect(parseCalendar('Gregorian')).toBe('standard');
    expect(parseCalendar('365_day')).toBe('noleap');
    expect(parseCalendar('366_day')).toBe('all_leap');
    expect(parseCalendar('none')).toBeNull();
  });

  it('standard jumps from 1582-10-04 to 1582-10-15 (the Gregorian reform)', () => {
    const d = new Date(0);
    d.setUTCFullYear(1582, 9, 15);
    expect(timeValueToMs(1, parseTimeUnits('days since 1582-10-04', 'standard'))).toBe(d.getTime());
    // proleptic_gregorian has no jump
    d.setUTCFullYear(1582, 9, 5);
    expect(timeValueToMs(1, parseTimeUnits('days since 1582-10-04', 'proleptic_gregorian'))).toBe(d.getTime());
  });

  it('julian 2000-01-01 is Gregorian 2000-01-14 (13 days apart since 1900)', () => {
    expect(ms('days since 2000-01-01', 0, 'julian')).toBe('2000-01-14T00:00:00.000Z');
    // 1900 is a Julian leap year: 1900-02-28 + 1 day = 1900-02-29 (Julian) = 1900-03-13 (Gregorian)
    expect(ms('days since 1900-02-28', 1, 'julian')).toBe('1900-03-13T00:00:00.000Z');
  });

  it('noleap, all_leap and 360_day count their own years', () => {
    expect(ms('days since 2004-02-28', 1, 'noleap')).toBe('2004-03-01T00:00:00.000Z');
    expect(ms('days since 2001-01-01', 365, '365_day')).toBe('2002-01-01T00:00:00.000Z');
    expect(ms('days since 2004-01-01', 366, 'all_leap')).toBe('2005-01-01T00:00:00.000Z');
    expect(ms('days since 2000-01-01', 30, '360_day')).toBe('2000-02-01T00:00:00.000Z');
    expect(ms('hours since 2000-12-30 12:00', 12, '360_day')).toBe('2001-01-01T00:00:00.000Z');
    expect(() => ms('days since 2000-02-29', 0, '360_day')).not.toThrow();
    expect(() => ms('days since 2001-02-28', 1, 'all_leap')).toThrow(/2001-02-29 has no real-calendar equivalent/);
  });
});

describe('cell_methods and intervals', () => {
  it('maps the time method to a step type', () => {
    expect(stepTypeOf('time: sum')).toBe('accum');
    expect(stepTypeOf('time: mean')).toBe('avg');
    expect(stepTypeOf('area: mean time: maximum (interval: 1 hr)')).toBe('max');
    expect(stepTypeOf('lat: lon: mean time: minimum')).toBe('min');
    expect(stepTypeOf('time: point')).toBe('instant');
    expect(stepTypeOf('area: sum')).toBe('instant');
    expect(stepTypeOf('valid_time: sum', ['valid_time'])).toBe('accum');
    expect(stepTypeOf(undefined)).toBe('instant');
  });

  it('derives intervals from bounds, else from the spacing', () => {
    const day = 86_400_000;
    expect(intervalsOf(Float64Array.of(day, 2 * day), 'accum')).toEqual([{ validMs: day, startMs: 0 }, { validMs: 2 * day, startMs: day }]);
    expect(intervalsOf(Float64Array.of(5), 'avg', Float64Array.of(1, 9))).toEqual([{ validMs: 9, startMs: 1 }]);
    expect(intervalsOf(Float64Array.of(5), 'accum')).toEqual([{ validMs: 5 }]);
    expect(intervalsOf(Float64Array.of(5, 6), 'instant')).toEqual([{ validMs: 5 }, { validMs: 6 }]);
  });

  it('a daily axis counted in days labels the day each record is over; counted in hours it stays instants', () => {
    const day = 86_400_000;
    const days = Float64Array.of(19662 * day, 19663 * day); // 2023-11-01, 2023-11-02
    expect(isDailyAxis(days, 'days since 1970-01-01')).toBe(true);
    expect(isDailyAxis(days, 'hours since 1970-01-01')).toBe(false); // CAMS's 00 UTC analyses
    expect(isDailyAxis(Float64Array.of(19662 * day, 19663 * day + 3_600_000), 'days since 1970-01-01')).toBe(false);
    expect(dailyStepType('instant', true)).toBe('avg');
    expect(dailyStepType('instant', true, Float64Array.of(0, day, day, 2 * day))).toBe('instant');
    expect(intervalsOf(days, 'avg', undefined, true)).toEqual([
      { validMs: 19663 * day, startMs: 19662 * day },
      { validMs: 19664 * day, startMs: 19663 * day },
    ]);
  });
});

describe('grid axes', () => {
  const range = (from: number, n: number, step: number) => Float64Array.from({ length: n }, (_, i) => from + i * step);

  it('cleans float32 coordinates to their shortest decimal', () => {
    expect(cleanFloat32(Math.fround(36.2))).toBe(36.2);
    expect(cleanFloat32(Math.fround(0.1))).toBe(0.1);
  });

  it('rolls a global 0..359.75 axis to start at -180', () => {
    const a = xAxis(range(0, 1440, 0.25), 'lon', false);
    expect([a.start, a.step, a.srcIndex.length, a.srcIndex[0], a.srcIndex[719], a.srcIndex[720], a.srcIndex[1439]]).toEqual([-180, 0.25, 1440, 720, 1439, 0, 719]);
  });

  it('drops the repeated 360° column of a 0..360 axis', () => {
    const a = xAxis(range(0, 361, 1), 'lon', false);
    expect([a.start, a.srcIndex.length, a.srcIndex[0], a.srcIndex[359]]).toEqual([-180, 360, 180, 179]);
  });

  it('keeps -180..179 and regional axes, wraps x0, unwraps a seam', () => {
    expect(xAxis(range(-180, 360, 1), 'lon', false).srcIndex[0]).toBe(0);
    const pacific = xAxis(range(170, 21, 1), 'lon', false);
    expect([pacific.start, pacific.srcIndex.length]).toEqual([170, 21]);
    const seam = xAxis(Float64Array.of(356, 358, 0, 2), 'lon', false);
    expect([seam.start, seam.step, ...seam.srcIndex]).toEqual([-4, 2, 0, 1, 2, 3]);
    const desc = xAxis(Float64Array.of(12, 11, 10), 'lon', false);
    expect([desc.start, desc.step, ...desc.srcIndex]).toEqual([10, 1, 2, 1, 0]);
  });

  it('flips descending latitudes and refuses irregular or single-point axes', () => {
    const y = yAxis(Float32Array.of(48, 47.8, 47.6), 'lat', true);
    expect([y.start, y.step, ...y.srcIndex]).toEqual([47.6, 0.2, 2, 1, 0]);
    expect(() => yAxis(Float64Array.of(1, 2, 4), 'lat', false)).toThrow(GridAxisError);
    expect(() => yAxis(Float64Array.of(1), 'lat', false)).toThrow(/spacing is unknown/);
  });
});

describe('CF attributes', () => {
  const v = (name: string, attrs: Record<string, AttrValue>, type: NcType = 'f4'): NcVariable => ({
    name, dims: [name], shape: [1], type, attrs: new Map(Object.entries(attrs)), read: () => new Float32Array(1),
  });

  it('rotated pole: CF north pole → GRIB south pole', () => {
    expect(rotatedFromNorthPole(47, -170)).toEqual({ southPoleLat: -47, southPoleLon: 10, angle: 0 });
    // EURO-CORDEX EUR-11: grid_north_pole (39.25, -162) → south pole (-39.25, 18)
    expect(rotatedFromNorthPole(39.25, -162)).toEqual({ southPoleLat: -39.25, southPoleLon: 18, angle: 0 });
  });

  it('recognises coordinates by attributes before names', () => {
    expect(coordRole(v('y', { units: 'degrees_north' }))).toBe('lat');
    expect(coordRole(v('foo', { standard_name: 'longitude' }))).toBe('lon');
    expect(coordRole(v('rlat', { standard_name: 'grid_latitude', units: 'degrees' }))).toBe('rlat');
    expect(coordRole(v('valid_time', { units: 'seconds since 1970-01-01' }))).toBe('time');
    expect(coordRole(v('frt', { standard_name: 'forecast_reference_time', units: 'hours since 2000-01-01' }))).toBe('reftime');
    expect(coordRole(v('isobaricInhPa', { units: 'hPa' }))).toBe('vertical');
    expect(coordRole(v('x', { axis: 'X', units: 'm' }))).toBe('projx');
    expect(coordRole(v('number', {}))).toBeNull();
  });

  it('packing defaults: netCDF default fill for shorts, none for bytes, valid_min/max', () => {
    expect(packingOf(v('a', {}, 'i2')).missing).toEqual([-32767]);
    expect(packingOf(v('b', {}, 'i1')).missing).toEqual([]);
    const p = packingOf(v('c', { _FillValue: [-1], _Unsigned: 'true', valid_max: [200], scale_factor: [0.5] }, 'i1'));
    expect(p).toMatchObject({ missing: [255], validMax: 200, scale: 0.5, offset: 0, unsigned: true });
  });
});
