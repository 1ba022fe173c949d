import { describe, expect, it } from 'vitest';
import { mapFields } from '../../../ingest/mapping/map-fields.js';
import { nwpProduct } from '../../../ingest/products/nwp/product.js';
import { demProduct } from '../../../ingest/products/dem/product.js';
import { field, hours } from '../products/fixtures.js';

const tag = (f: ReturnType<typeof field>, file = 'a.grib') => ({ field: f, file });

describe('mapFields (nwp)', () => {
  it('matches by GRIB shortName, NetCDF name, DWD name, case-insensitively, and converts by the source units', () => {
    const out = mapFields(nwpProduct, [
      tag(field({ name: '2t', units: 'K', value: 288.15 })),
      tag(field({ name: 't2m', units: 'degC', value: 15 }), 'era5land.nc'),
      tag(field({ name: 'PMSL', units: 'Pa', value: 101_300 })),
      tag(field({ name: 'CLCT', units: '%', value: 40 })),
      tag(field({ name: 'tcc', units: '(0 - 1)', value: 0.4 })),
    ]);
    expect(out.skipped).toEqual([]);
    const v = Object.fromEntries(out.fields.map((f) => [`${f.source}`, [f.variable, f.values[0]]]));
    expect(v['2t']![0]).toBe('temperature_2m');
    expect(v['2t']![1]).toBeCloseTo(15, 4);
    expect(v['t2m']).toEqual(['temperature_2m', 15]);
    expect(v['PMSL']![0]).toBe('pressure_msl');
    expect(v['PMSL']![1]).toBeCloseTo(1013, 3);
    expect(v['CLCT']).toEqual(['cloud_cover', 40]);
    expect(v['tcc']![1]).toBeCloseTo(40, 4);
  });

  it('matches by paramId and by CF standard_name when the name is unknown', () => {
    const out = mapFields(nwpProduct, [
      tag(field({ name: 'xyz', paramId: 167, units: 'K', value: 273.15 })),
      tag(field({ name: 'abc', standardName: 'air_pressure_at_mean_sea_level', units: 'hPa', value: 1000 })),
    ]);
    expect(out.fields.map((f) => f.variable).sort()).toEqual(['pressure_msl', 'temperature_2m']);
  });

  it('keeps surface geopotential as elevation (÷ g) and skips z on 1000 hPa', () => {
    const out = mapFields(nwpProduct, [
      tag(field({ name: 'z', units: 'm**2 s**-2', level: { type: 'surface', value: 0 }, value: 9806.65 })),
      tag(field({ name: 'z', units: 'm**2 s**-2', level: { type: 'isobaricInhPa', value: 1000 }, value: 980 })),
    ]);
    expect(out.fields).toHaveLength(1);
    expect(out.fields[0]!.variable).toBe('elevation');
    expect(out.fields[0]!.values[0]).toBeCloseTo(1000, 3);
    expect(out.skipped).toHaveLength(1);
    expect(out.skipped[0]!.name).toBe('z@isobaricInhPa:1000');
    expect(out.skipped[0]!.reason).toMatch(/not a surface field/);
  });

  it('checks the height: u at 10 m is wind, at 100 m it is not', () => {
    const out = mapFields(nwpProduct, [
      tag(field({ name: '10u', units: 'm s**-1', level: { type: 'heightAboveGround', value: 10 }, value: 3 })),
      tag(field({ name: '10u', units: 'm s**-1', level: { type: 'heightAboveGround', value: 100 }, value: 9 })),
    ]);
    expect(out.fields.map((f) => f.values[0])).toEqual([3]);
    expect(out.skipped[0]!.reason).toMatch(/100 m above ground, expected 10 m/);
  });

  it('reports units it cannot convert and variables it does not know', () => {
    const out = mapFields(nwpProduct, [
      tag(field({ name: '2t', units: 'furlongs', value: 1 })),
      tag(field({ name: 'swvl1', units: 'm**3 m**-3', value: 0.3 })),
    ]);
    expect(out.fields).toEqual([]);
    expect(out.skipped.map((s) => s.reason)).toEqual([
      "temperature_2m: units 'furlongs' cannot be converted to '°C'",
      'not a variable of this product',
    ]);
  });

  it('de-accumulates IFS precipitation in metres from the run start into mm per step', () => {
    const acc = (h: number, m: number) => tag(field({ name: 'tp', units: 'm', stepType: 'accum', intervalStart: hours(0), validTime: hours(h), value: m }));
    const out = mapFields(nwpProduct, [acc(0, 0), acc(1, 0.0005), acc(2, 0.0025), acc(3, 0.0025)]);
    const steps = out.fields.sort((a, b) => a.validTime.getTime() - b.validTime.getTime());
    expect(steps.map((f) => f.validTime)).toEqual([hours(1), hours(2), hours(3)]);
    expect(steps.map((f) => +f.values[0]!.toFixed(4))).toEqual([0.5, 2, 0]);
    expect(steps.every((f) => f.stepSeconds === 3600)).toBe(true);
  });

  it('ERA5 ssrd (J m-2 accumulated from the run start) → mean W/m² over each step', () => {
    const acc = (h: number, j: number) => tag(field({ name: 'ssrd', units: 'J m**-2', stepType: 'accum', validTime: hours(h), value: j }));
    // 0–1 h: 360 000 J/m² = 100 W/m²; 0–3 h: 360 000 + 2·720 000 → 1–3 h mean 200 W/m².
    const out = mapFields(nwpProduct, [acc(1, 360_000), acc(3, 1_800_000)]);
    const byT = Object.fromEntries(out.fields.map((f) => [f.validTime.toISOString(), f.values[0]]));
    expect(byT[hours(1).toISOString()]).toBeCloseTo(100, 3);
    expect(byT[hours(3).toISOString()]).toBeCloseTo(200, 3);
  });

  it('ICON ASWDIR_S (mean since the run start, W m-2) → mean over each step', () => {
    const avg = (h: number, w: number) => tag(field({ name: 'ASWDIR_S', units: 'W m-2', stepType: 'avg', intervalStart: hours(0), validTime: hours(h), value: w }));
    // mean 0–1 = 100, mean 0–2 = 150 ⇒ mean 1–2 = (150·2 − 100·1)/1 = 200
    const out = mapFields(nwpProduct, [avg(1, 100), avg(2, 150)]);
    const s = out.fields.sort((a, b) => a.validTime.getTime() - b.validTime.getTime());
    expect(s.map((f) => f.variable)).toEqual(['direct_radiation', 'direct_radiation']);
    expect(s[0]!.values[0]).toBeCloseTo(100, 3);
    expect(s[1]!.values[0]).toBeCloseTo(200, 3);
  });

  it('COSMO-2I tp 18–24 h stays the 6-hour amount valid at +24 h', () => {
    const out = mapFields(nwpProduct, [
      tag(field({ name: 'tp', units: 'kg m**-2', stepType: 'accum', intervalStart: hours(18), validTime: hours(24), value: 7.25 })),
    ]);
    expect(out.fields).toHaveLength(1);
    expect(out.fields[0]!.validTime).toEqual(hours(24));
    expect(out.fields[0]!.values[0]).toBe(7.25);
    expect(out.fields[0]!.stepSeconds).toBe(6 * 3600);
  });

  it('NetCDF rate in m day-1 over a daily series → mm per day', () => {
    const day = (d: number, v: number) => tag(field({ name: 'tp', units: 'm day-1', validTime: hours(24 * d), value: v }), 'daily.nc');
    const out = mapFields(nwpProduct, [day(0, 0.002), day(1, 0.01)]);
    expect(out.fields.map((f) => +f.values[0]!.toFixed(3))).toEqual([2, 10]);
  });

  it('clamps small negative de-accumulation noise of precipitation to 0', () => {
    const acc = (h: number, v: number) => tag(field({ name: 'tp', units: 'kg m**-2', stepType: 'accum', intervalStart: hours(0), validTime: hours(h), value: v }));
    const out = mapFields(nwpProduct, [acc(1, 1.0), acc(2, 0.999)]);
    expect(out.fields.find((f) => f.validTime.getTime() === hours(2).getTime())!.values[0]).toBe(0);
  });
});

describe('mapFields (dem)', () => {
  it('treats 9999 (ARPAE no-data) and other impossible heights as missing', () => {
    const out = mapFields(demProduct, [tag(field({ name: 'hsurf', units: 'm', value: [120, 9999, -32768, 4555, 0, -5] }))]);
    const v = [...out.fields[0]!.values];
    expect(v[0]).toBe(120);
    expect(v[1]).toBeNaN();
    expect(v[2]).toBeNaN();
    expect(v.slice(3)).toEqual([4555, 0, -5]);
  });
  it('falls back to the only, unnamed field of a file given as a DEM, with a note', () => {
    const out = mapFields(demProduct, [tag(field({ name: 'unknown', units: 'unknown', value: 300 }), 'nita1k_orog.grb')]);
    expect(out.fields.map((f) => f.variable)).toEqual(['elevation']);
    expect(out.skipped).toEqual([]);
    expect(out.notes[0]).toMatch(/nita1k_orog\.grb: its only field .* taken as elevation/);
  });
  it('does not guess among several unnamed fields', () => {
    const out = mapFields(demProduct, [tag(field({ name: 'unknown', units: 'unknown' })), tag(field({ name: 'unknown', units: 'unknown' }))]);
    expect(out.fields).toEqual([]);
    expect(out.skipped).toHaveLength(2);
  });
});

describe('mapFields: accumulations by the source model (ingest/mapping/time-conventions.ts)', () => {
  const day = Date.UTC(2023, 6, 1);
  const at = (h: number) => new Date(day + h * 3_600_000);
  // NetCDF fields carry no interval: referenceTime = validTime, as the reader gives them.
  const tp = (h: number, m: number, file: string) => tag(field({ name: 'tp', units: 'm', validTime: at(h), referenceTime: at(h), value: m }), file);

  it('ERA5-Land: a first time of the day after its first hour has no hour\'s amount: left missing with a note', () => {
    // Totals since 00 UTC of 1 mm an hour, the file starting at 05 UTC.
    const out = mapFields(nwpProduct, [5, 6, 7].map((h) => tp(h, 0.001 * h, 'era5-land-tp.nc')), { model: 'ERA5-Land' });
    expect(out.fields.map((f) => [f.validTime.toISOString(), +f.values[0]!.toFixed(3), f.interval])).toEqual([
      ['2023-07-01T06:00:00.000Z', 1, { statistic: 'sum', seconds: 3600 }],
      ['2023-07-01T07:00:00.000Z', 1, { statistic: 'sum', seconds: 3600 }],
    ]);
    expect(out.notes.join()).toMatch(/total since 00 UTC .* 2023-07-01T05:00:00.000Z/);
  });

  it('the model named wins over the file name; no model and no ERA5-Land name: the spacing', () => {
    const era5 = mapFields(nwpProduct, [0, 6].map((h) => tp(h, 0.002, 'era5land-named.nc')), { model: 'ERA5' });
    expect(era5.fields.map((f) => [+f.values[0]!.toFixed(3), f.interval!.seconds])).toEqual([[2, 3600], [2, 3600]]);
    const other = mapFields(nwpProduct, [0, 6].map((h) => tp(h, 0.002, 'other.nc')));
    expect(other.fields.map((f) => f.interval!.seconds)).toEqual([6 * 3600, 6 * 3600]);
  });
});
