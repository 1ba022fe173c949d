/**
 * CAMS European regional NetCDF (../shared/data/cams-europe-pollen-jaen) as
 * the Atmosphere Data Store delivered it, with its traps: time units "hours"
 * and the date only in long_name, 0..360 longitudes, descending latitude, a
 * level axis of size 1, the non-ASCII unit "µg/m3". Every value of every
 * variable at every step is compared with netCDF4-python (fixtures/cams_dump.py).
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { effectiveTimeUnits } from '../../../ingest/netcdf/cf-time-reference.js';
import { readNetcdf } from '../../../ingest/netcdf/netcdf-reader.js';
import type { SourceField } from '../../../ingest/field.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const POLLEN = dataFile('cams-europe-pollen-jaen/2024AnalisisPolem.nc');
const CONTAM = dataFile('cams-europe-pollen-jaen/2024AnalisisContam.nc');
const EAC4 = dataFile('cams-eac4-milan/cams_global_reanalysis_concentrations_2020.nc');

interface Dump {
  lat: number[];
  lon: number[];
  times: number[];
  vars: Record<string, { units: string; values: (number | null)[][][] }>;
}

function dump(file: string): Dump {
  const out = execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'fixtures', 'cams_dump.py'), file], { encoding: 'utf8', maxBuffer: 1 << 28 });
  return JSON.parse(out) as Dump;
}

/** Compare the reader's fields with the dump at every (time, lat, lon), locating cells by coordinates, not by index. */
function expectSameAsPython(fields: SourceField[], ref: Dump) {
  for (const [name, v] of Object.entries(ref.vars)) {
    const series = fields.filter((f) => f.name === name);
    expect(series.length, name).toBe(ref.times.length);
    expect(series.map((f) => f.validTime.getTime())).toEqual(ref.times);
    expect(series[0]!.units).toBe(v.units);
    for (let t = 0; t < ref.times.length; t++) {
      const f = series[t]!;
      const g = f.grid;
      for (let a = 0; a < ref.lat.length; a++) {
        for (let o = 0; o < ref.lon.length; o++) {
          // The reader's grid: south-first rows, longitudes in -180..180.
          const lon = ((ref.lon[o]! + 540) % 360) - 180;
          const i = Math.round((lon - g.x0) / g.dx);
          const j = Math.round((ref.lat[a]! - g.y0) / g.dy);
          expect(Math.abs(g.x0 + i * g.dx - lon)).toBeLessThan(1e-4);
          expect(Math.abs(g.y0 + j * g.dy - ref.lat[a]!)).toBeLessThan(1e-4);
          const got = f.values[j * g.nx + i]!;
          const want = v.values[t]![a]![o];
          if (want === null || want === undefined) expect(Number.isNaN(got), `${name} t=${t}`).toBe(true);
          else expect(got, `${name} t=${t} lat=${ref.lat[a]} lon=${ref.lon[o]}`).toBe(Math.fround(want));
        }
      }
    }
  }
}

describeShared('NetCDF reader: CAMS Europe ENSEMBLE files (Jaén 2024)', () => {
  let pollen: SourceField[];
  let contam: SourceField[];
  beforeAll(async () => {
    [pollen, contam] = await Promise.all([readNetcdf(POLLEN), readNetcdf(CONTAM)]);
  });

  it('takes the reference date from long_name ("FORECAST time from 20240101", units "hours")', () => {
    const grass = pollen.filter((f) => f.name === 'gpg_conc');
    expect(grass.length).toBe(366);
    expect(grass[0]!.validTime.toISOString()).toBe('2024-01-01T00:00:00.000Z');
    expect(grass[365]!.validTime.toISOString()).toBe('2024-12-31T00:00:00.000Z');
    const o3 = contam.filter((f) => f.name === 'o3_conc');
    expect(o3.slice(0, 3).map((f) => f.validTime.toISOString())).toEqual(['2024-01-01T12:00:00.000Z', '2024-01-01T15:00:00.000Z', '2024-01-02T12:00:00.000Z']);
  });

  it('normalises 0..360 longitudes and descending latitudes; the size-1 level is kept as the level', () => {
    const g = pollen[0]!.grid;
    expect(g.kind).toBe('regular_ll');
    expect([g.nx, g.ny]).toEqual([4, 3]);
    expect(g.x0).toBeCloseTo(-2.95, 4);
    expect(g.y0).toBeCloseTo(38.05, 4);
    expect(g.dx).toBeCloseTo(0.1, 5);
    expect(g.dy).toBeCloseTo(0.1, 5);
    expect(pollen[0]!.level).toEqual({ type: 'level', value: 0 });
  });

  it('decodes the UTF-8 unit string "µg/m3" (NetCDF3 NC_CHAR bytes C2 B5)', () => {
    expect(contam.find((f) => f.name === 'pm10_conc')!.units).toBe('µg/m3');
  });

  it('pollen file: every value of gpg_conc and opg_conc equals netCDF4-python', () => {
    expectSameAsPython(pollen, dump(POLLEN));
  });

  it('analysis file: every value of co, o3, pm10, pm2p5, so2 equals netCDF4-python', () => {
    expectSameAsPython(contam, dump(CONTAM));
  });
});

describeShared('NetCDF reader: CAMS EAC4 Milan 2020 against netCDF4-python, every cell', () => {
  it('all eight species at all 2928 steps', async () => {
    expectSameAsPython(await readNetcdf(EAC4), dump(EAC4));
  });
});

describe('effectiveTimeUnits: the CAMS long_name reference date, nothing guessed', () => {
  const coord = (attrs: Record<string, string>) => ({ name: 'time', attrs: new Map(Object.entries(attrs)) });
  it('builds "<unit> since <date>" from "... time from YYYYMMDD"', () => {
    expect(effectiveTimeUnits(coord({ units: 'hours', long_name: 'FORECAST time from 20240101' }))).toBe('hours since 2024-01-01 00:00:00 UTC');
    expect(effectiveTimeUnits(coord({ units: 'hours', long_name: 'ANALYSIS time from 20231231' }))).toBe('hours since 2023-12-31 00:00:00 UTC');
  });
  it('keeps CF units and refuses a bare unit without a date', () => {
    expect(effectiveTimeUnits(coord({ units: 'hours since 2020-01-01' }))).toBe('hours since 2020-01-01');
    expect(effectiveTimeUnits(coord({ units: 'hours', long_name: 'time' }))).toBeUndefined();
    expect(effectiveTimeUnits(coord({ units: 'furlongs', long_name: 'FORECAST time from 20240101' }))).toBeUndefined();
  });
});
