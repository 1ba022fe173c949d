/** Pure interpretation of ecCodes grid and time keys, with hand-written key sets. */
import { describe, expect, it } from 'vitest';
import { sameGrid } from '../../../geo/grid.js';
import { gribGrid } from '../../../ingest/grib/grid-def.js';
import { gribReferenceTime, gribTimes } from '../../../ingest/grib/time-keys.js';
import { COSMO_GRIB2_GRID, meta } from './meta-fixture.js';

describe('gribGrid', () => {
  it('COSMO-2I rotated grid: first longitude 356.2 becomes x0 = -3.8', () => {
    const { grid, scanning } = gribGrid(meta(COSMO_GRIB2_GRID));
    expect(grid).toEqual({
      kind: 'rotated_ll',
      nx: 576,
      ny: 701,
      x0: -3.8,
      y0: -8.5,
      dx: 0.02,
      dy: 0.02,
      southPoleLat: -47,
      southPoleLon: 10,
      angle: 0,
    });
    expect(scanning.jScansPositively).toBe(true);
  });

  it('the same grid written with -3.8 (GRIB1) is the same GridDef', () => {
    const g1 = gribGrid(meta({ ...COSMO_GRIB2_GRID, edition: 1, longitudeOfFirstGridPointInDegrees: -3.8, angleOfRotation: null, angleOfRotationInDegrees: 0 }));
    expect(sameGrid(g1.grid, gribGrid(meta(COSMO_GRIB2_GRID)).grid, 1e-9)).toBe(true);
  });

  it('north→south rows: y0 is the southern latitude', () => {
    const { grid } = gribGrid(
      meta({ edition: 1, gridType: 'regular_ll', Ni: 201, Nj: 121, scanningMode: 0, latitudeOfFirstGridPointInDegrees: 60, latitudeOfLastGridPointInDegrees: 30, longitudeOfFirstGridPointInDegrees: -10, longitudeOfLastGridPointInDegrees: 40, iDirectionIncrementInDegrees: 0.25, jDirectionIncrementInDegrees: 0.25 }),
    );
    expect(grid).toMatchObject({ kind: 'regular_ll', x0: -10, y0: 30, dx: 0.25, dy: 0.25 });
  });

  it('east→west points: x0 is the last (western) longitude', () => {
    const { grid, scanning } = gribGrid(
      meta({ edition: 2, gridType: 'regular_ll', Ni: 9, Nj: 2, scanningMode: 0xc0, latitudeOfFirstGridPointInDegrees: 40, latitudeOfLastGridPointInDegrees: 41, longitudeOfFirstGridPointInDegrees: 20, longitudeOfLastGridPointInDegrees: 12 }),
    );
    expect(scanning.iScansNegatively).toBe(true);
    expect(grid).toMatchObject({ x0: 12, dx: 1, y0: 40, dy: 1 });
  });

  it('global 0..359.75 grid keeps x0 = 0 and dx = 0.25', () => {
    const { grid } = gribGrid(
      meta({ edition: 2, gridType: 'regular_ll', Ni: 1440, Nj: 721, scanningMode: 0, latitudeOfFirstGridPointInDegrees: 90, latitudeOfLastGridPointInDegrees: -90, longitudeOfFirstGridPointInDegrees: 0, longitudeOfLastGridPointInDegrees: 359.75, iDirectionIncrementInDegrees: 0.25 }),
    );
    expect(grid).toMatchObject({ x0: 0, dx: 0.25, y0: -90, dy: 0.25 });
  });

  it('1/12° GRIB1 grid: spacing from first/last points, not the rounded 0.083 increment', () => {
    const { grid } = gribGrid(
      meta({ edition: 1, gridType: 'regular_ll', Ni: 97, Nj: 73, scanningMode: 0x40, latitudeOfFirstGridPointInDegrees: 40, latitudeOfLastGridPointInDegrees: 46, longitudeOfFirstGridPointInDegrees: 12, longitudeOfLastGridPointInDegrees: 20, iDirectionIncrementInDegrees: 0.083, jDirectionIncrementInDegrees: 0.083 }),
    );
    expect(grid.dx).toBeCloseTo(1 / 12, 9);
    expect(grid.x0 + 96 * grid.dx).toBeCloseTo(20, 7);
  });

  it.each([
    ['lambert', { gridType: 'lambert' }, /unsupported grid type 'lambert'/],
    ['reduced Gaussian', { gridType: 'reduced_gg' }, /unsupported grid type 'reduced_gg'/],
    ['staggered scanning bits', { scanningMode: 0x48 }, /staggered/],
    ['wrong point count', { numberOfDataPoints: 10 }, /numberOfDataPoints 10/],
    ['rows order contradicting latitudes', { jScansPositively: 0, scanningMode: 0 }, /contradicts first\/last latitudes/],
    ['increment contradicting first/last', { iDirectionIncrementInDegrees: 0.05 }, /disagrees with first\/last/],
    ['missing corner', { latitudeOfLastGridPointInDegrees: null }, /latitudeOfLastGridPointInDegrees is missing/],
  ])('rejects %s', (_label, over, message) => {
    expect(() => gribGrid(meta({ ...COSMO_GRIB2_GRID, ...over }))).toThrow(message);
  });
});

describe('gribTimes', () => {
  it('COSMO-2I tp 18-24 h from 2019-11-14 00Z: accumulation 18Z..24Z', () => {
    const t = gribTimes(meta({ dataDate: 20191114, dataTime: 0, stepType: 'accum', stepUnits: 1, startStep: 18, endStep: 24 }));
    expect(t.referenceTime.toISOString()).toBe('2019-11-14T00:00:00.000Z');
    expect(t.intervalStart?.toISOString()).toBe('2019-11-14T18:00:00.000Z');
    expect(t.validTime.toISOString()).toBe('2019-11-15T00:00:00.000Z');
    expect(t.stepType).toBe('accum');
  });

  it('instant field at +3 h, HHMM reference time 1230', () => {
    const t = gribTimes(meta({ dataDate: 20210801, dataTime: 1230, stepType: 'instant', stepUnits: 1, startStep: 3, endStep: 3 }));
    expect(t.validTime.toISOString()).toBe('2021-08-01T15:30:00.000Z');
    expect(t.intervalStart).toBeUndefined();
  });

  it('steps in minutes and in 15-minute units', () => {
    expect(gribTimes(meta({ dataDate: 20240101, dataTime: 0, stepType: 'max', stepUnits: 0, startStep: 0, endStep: 90 })).validTime.toISOString()).toBe('2024-01-01T01:30:00.000Z');
    expect(gribTimes(meta({ dataDate: 20240101, dataTime: 0, stepType: 'instant', stepUnits: 14, endStep: 3 })).validTime.toISOString()).toBe('2024-01-01T00:45:00.000Z');
  });

  it('rejects step types and units it cannot express', () => {
    expect(() => gribTimes(meta({ dataDate: 20240101, dataTime: 0, stepType: 'diff', stepUnits: 1, endStep: 6 }))).toThrow(/unsupported step type 'diff'/);
    expect(() => gribTimes(meta({ dataDate: 20240101, dataTime: 0, stepType: 'avg', stepUnits: 3, endStep: 1 }))).toThrow(/step unit code 3/);
    expect(() => gribTimes(meta({ dataDate: null, dataTime: 0 }))).toThrow(/dataDate/);
  });

  it('rejects an impossible date', () => {
    expect(() => gribReferenceTime(20191314, 0)).toThrow(/invalid reference time/);
  });
});
