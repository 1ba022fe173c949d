import { describe, expect, it } from 'vitest';
import { assembleStack, toWriterInput } from '../../../ingest/assemble.js';
import type { CanonicalField } from '../../../ingest/mapping/map-fields.js';
import { completeNwp, SURFACE_EMISSIVITY } from '../../../ingest/products/nwp/complete.js';
import { nwpProduct } from '../../../ingest/products/nwp/product.js';
import { demProduct } from '../../../ingest/products/dem/product.js';
import type { VariableStack } from '../../../ingest/products/product.js';
import { IngestError } from '../../../ingest/ingest-types.js';
import { hours, RUN, SMALL_GRID } from './fixtures.js';

const N = SMALL_GRID.nx * SMALL_GRID.ny;
const arr = (v: number) => new Float32Array(N).fill(v);
const stackOf = (series: Record<string, number[]>): VariableStack => ({
  grid: SMALL_GRID,
  times: series[Object.keys(series)[0]!]!.map((_, k) => hours(k)),
  series: new Map(Object.entries(series).map(([k, vs]) => [k, vs.map(arr)])),
  statics: new Map(),
});

describe('completeNwp', () => {
  it('derives dew point from temperature and RH (Magnus/Alduchov–Eskridge; hand value)', () => {
    const s = stackOf({ temperature_2m: [20], relative_humidity_2m: [50] });
    const notes = completeNwp(s);
    // γ = ln(0.5) + 17.625·20/(243.04+20) = −0.693147 + 1.340100 = 0.646953; Td = 243.04·γ/(17.625 − γ) = 9.261 °C
    expect(s.series.get('dew_point_2m')![0]![0]).toBeCloseTo(9.261, 2);
    expect(notes[0]).toMatch(/dew_point_2m derived/);
  });
  it('derives RH from temperature and dew point, and leaves both when both are given', () => {
    const s = stackOf({ temperature_2m: [20], dew_point_2m: [9.261] });
    completeNwp(s);
    expect(s.series.get('relative_humidity_2m')![0]![0]).toBeCloseTo(50, 1);
    const both = stackOf({ temperature_2m: [20], dew_point_2m: [5], relative_humidity_2m: [77] });
    expect(completeNwp(both)).toEqual([]);
    expect(both.series.get('relative_humidity_2m')![0]![0]).toBe(77);
  });
  it('shortwave = direct + diffuse (ICON), snowfall fraction = snow / precipitation', () => {
    const s = stackOf({ direct_radiation: [300, 0], diffuse_radiation: [120, 0], precipitation: [4, 0], snowfall_amount: [1, 0] });
    completeNwp(s);
    expect([...s.series.get('shortwave_radiation')!.map((a) => a[0])]).toEqual([420, 0]);
    expect(s.series.get('snowfall_fraction')![0]![0]).toBeCloseTo(0.25, 6);
    expect(s.series.get('snowfall_fraction')![1]![0]).toBe(0); // no precipitation: nothing falls as snow
  });
  it('downward longwave from net longwave and skin temperature', () => {
    const s = stackOf({ net_longwave_radiation: [-80], skin_temperature: [15] });
    completeNwp(s);
    const expected = -80 / SURFACE_EMISSIVITY + 5.670374419e-8 * 288.15 ** 4; // 308.9 W/m²
    expect(s.series.get('longwave_radiation')![0]![0]).toBeCloseTo(expected, 2);
    expect(expected).toBeGreaterThan(300);
  });
});

describe('assembleStack', () => {
  const f = (variable: string, h: number, run: number, value: number, file = 'f'): CanonicalField => ({
    variable, aggregation: variable === 'elevation' ? 'static' : 'instant', validTime: hours(h), referenceTime: hours(run),
    grid: SMALL_GRID, values: arr(value), file, source: variable,
  });
  it('sorts and dedupes the time axis; the newest run wins a shared time step', () => {
    const s = assembleStack(nwpProduct, SMALL_GRID, [
      f('temperature_2m', 6, 0, 10, 'run00'), f('temperature_2m', 3, 0, 7, 'run00'),
      f('temperature_2m', 6, 3, 11, 'run03'), f('temperature_2m', 9, 3, 13, 'run03'),
      f('precipitation', 9, 0, 1),
      f('elevation', 0, 0, 100), f('elevation', 0, 3, 105),
    ]);
    expect(s.times).toEqual([hours(3), hours(6), hours(9)]);
    expect(s.series.get('temperature_2m')!.map((a) => a[0])).toEqual([7, 11, 13]);
    // precipitation only at +9: NaN elsewhere
    const p = s.series.get('precipitation')!.map((a) => a[0]);
    expect(p[0]).toBeNaN();
    expect(p[2]).toBe(1);
    expect(s.statics.get('elevation')![0]).toBe(105);
  });
  it('toWriterInput keeps stored variables with their metadata and leaves auxiliary ones out', () => {
    const s = assembleStack(nwpProduct, SMALL_GRID, [f('temperature_2m', 0, 0, 1), f('snowfall_amount', 0, 0, 2), f('elevation', 0, 0, 3)]);
    const input = toWriterInput(nwpProduct, s, { files: ['x'] });
    expect(Object.keys(input.variables).sort()).toEqual(['elevation', 'temperature_2m']);
    expect(input.variables['temperature_2m']).toMatchObject({ units: '°C', precision: 0.01 });
    expect(input.variables['elevation']!.static).toBe(true);
    expect(input.times).toEqual([RUN]);
  });
  it('nwp refuses a stack with only the orography; dem accepts it', () => {
    const s = assembleStack(nwpProduct, SMALL_GRID, [f('elevation', 0, 0, 3)]);
    expect(() => nwpProduct.validate(s, ['orog.grib'])).toThrowError(IngestError);
    expect(() => nwpProduct.validate(s, ['orog.grib'])).toThrow(/orog\.grib: .*found only elevation.*product 'dem'/);
    const d = assembleStack(demProduct, SMALL_GRID, [f('elevation', 0, 0, 3)]);
    expect(() => demProduct.validate(d, ['orog.grib'])).not.toThrow();
    expect(toWriterInput(demProduct, d, { files: [] }).times).toEqual([]);
  });
});
