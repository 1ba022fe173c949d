/**
 * Write → read round trips. Expected values are computed in the test from
 * the analytic fields (bilinear + linear-in-time interpolation reproduces a
 * field linear in x, y, t exactly, so the only error left is the int16
 * packing: half the precision), or by hand.
 */
import { describe, expect, it, beforeAll } from 'vitest';
import { writeProductVersion } from '../../tiles/write/writer.js';
import { TileStore } from '../../tiles/read/reader.js';
import { TileError } from '../../tiles/errors.js';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { REGULAR, ROTATED, T0, HOUR, hourlyTimes, analytic, input, ownCoords } from './fields.js';
import { tempRoot } from './temp-root.js';
import { mulberry32 } from '../../bench/prng.js';

const tempLinear = (x: number, y: number, h: number) => 0.3 * y - 0.2 * x + 0.5 * h + 10;
const pressureLinear = (x: number, y: number, h: number) => 1000 + 2.5 * y + 1.25 * x - 0.75 * h;
const elevationLinear = (x: number, y: number) => 100 * y - 50 * x;

describe.each([
  ['regular', REGULAR],
  ['rotated (COSMO-like pole −47/10)', ROTATED],
] as const)('linear fields on a %s grid', (_name, grid) => {
  const root = tempRoot('linear');
  const times = hourlyTimes(7);
  let store: TileStore;
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', grid, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(grid, times, tempLinear) },
      // precision 1e-4 over a ~100 hPa range does not fit int16: stored as float32.
      pressure_msl: { units: 'hPa', precision: 1e-4, values: analytic(grid, times, pressureLinear) },
      elevation: { units: 'm', precision: 0.1, static: true, values: analytic(grid, [], elevationLinear) },
    }));
    store = new TileStore(root);
  });

  it('packs as expected', () => {
    const v = store.manifest('nwp')!.variables;
    expect(v.temperature_2m!.dtype).toBe('int16');
    expect(v.temperature_2m!.scale_factor).toBe(0.01);
    expect(v.pressure_msl!.dtype).toBe('float32');
    expect(v.elevation).toMatchObject({ dtype: 'int16', static: true });
  });

  it('reproduces the fields at random points and times', async () => {
    const rnd = mulberry32(42);
    const xMax = grid.x0 + (grid.nx - 1) * grid.dx;
    const yMax = grid.y0 + (grid.ny - 1) * grid.dy;
    let checked = 0;
    while (checked < 300) {
      // Geographic candidates around the grid; keep those whose own coordinates fall inside it.
      const lat = grid.kind === 'regular_ll' ? grid.y0 + rnd() * (yMax - grid.y0) : 42.6 + rnd() * 0.9;
      const lon = grid.kind === 'regular_ll' ? grid.x0 + rnd() * (xMax - grid.x0) : 9.4 + rnd() * 1.2;
      const { x, y } = ownCoords(grid, lat, lon);
      if (x < grid.x0 || x > xMax || y < grid.y0 || y > yMax) continue;
      const hours = checked % 10 === 0 ? Math.floor(rnd() * 7) : rnd() * 6; // some exact steps
      const s = await store.sample('nwp', lat, lon, T0 + hours * HOUR);
      expect(s.time).toBe(new Date(T0 + hours * HOUR).toISOString());
      expect(Math.abs(s.values.temperature_2m! - tempLinear(x, y, hours))).toBeLessThanOrEqual(0.005 + 1e-9);
      expect(Math.abs(s.values.pressure_msl! - pressureLinear(x, y, hours))).toBeLessThan(2e-4);
      expect(Math.abs(s.values.elevation! - elevationLinear(x, y))).toBeLessThanOrEqual(0.05 + 1e-9);
      checked++;
    }
  });

  it('answers synchronously from a warm cache', async () => {
    const [lat, lon] = grid.kind === 'regular_ll' ? [38.05, 9.05] : [43.05, 10.05];
    const fresh = new TileStore(root);
    expect(fresh.trySample('nwp', lat, lon, T0)).toBeUndefined();
    const cold = await fresh.sample('nwp', lat, lon, T0 + 1.5 * HOUR);
    expect(fresh.trySample('nwp', lat, lon, T0 + 1.5 * HOUR)).toEqual(cold);
  });
});

describe('edges, times and errors', () => {
  const root = tempRoot('edges');
  const grid = REGULAR;
  const times = hourlyTimes(4);
  let store: TileStore;
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', grid, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(grid, times, tempLinear) },
      elevation: { units: 'm', precision: 0.1, static: true, values: analytic(grid, [], elevationLinear) },
    }));
    store = new TileStore(root);
  });

  it('clamps points within half a cell beyond the edge to the edge', async () => {
    const s = await store.sample('nwp', grid.y0 - 0.04, grid.x0 - 0.049, T0);
    expect(s.values.temperature_2m).toBeCloseTo(tempLinear(grid.x0, grid.y0, 0), 2);
    const xMax = grid.x0 + (grid.nx - 1) * grid.dx;
    const yMax = grid.y0 + (grid.ny - 1) * grid.dy;
    const n = await store.sample('nwp', yMax + 0.03, xMax + 0.02, T0 + 3 * HOUR);
    expect(n.values.temperature_2m).toBeCloseTo(tempLinear(xMax, yMax, 3), 2);
  });

  it('throws OUTSIDE_GRID beyond half a cell', async () => {
    await expect(store.sample('nwp', grid.y0 - 0.06, 8, T0)).rejects.toMatchObject({ code: 'OUTSIDE_GRID' });
    expect(() => store.trySample('nwp', 10, 10, T0)).toThrow(TileError);
  });

  it('throws TIME_OUT_OF_RANGE naming the covered range', async () => {
    const err = await store.sample('nwp', 38, 9, T0 - 1).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TileError);
    expect(err).toMatchObject({ code: 'TIME_OUT_OF_RANGE', detail: { product: 'nwp', from: times[0]!.toISOString(), to: times[3]!.toISOString() } });
    expect((err as Error).message).toContain(times[3]!.toISOString());
    await expect(store.sample('nwp', 38, 9, T0 + 3 * HOUR + 1)).rejects.toMatchObject({ code: 'TIME_OUT_OF_RANGE' });
    await expect(store.sample('nwp', 38, 9, NaN)).rejects.toMatchObject({ code: 'TIME_OUT_OF_RANGE' });
  });

  it('throws PRODUCT_NOT_PUBLISHED for unknown or malformed product names', async () => {
    await expect(store.sample('cams', 38, 9, T0)).rejects.toMatchObject({ code: 'PRODUCT_NOT_PUBLISHED' });
    await expect(store.sample('../nwp', 38, 9, T0)).rejects.toMatchObject({ code: 'PRODUCT_NOT_PUBLISHED' });
    expect(store.manifest('cams')).toBeNull();
  });

  it('reads static variables without a time, and null for variables the store lacks', async () => {
    const s = await store.sample('nwp', 38.05, 9.05, null);
    expect(Object.keys(s.values)).toEqual(['elevation']);
    expect(s.values.elevation).toBeCloseTo(elevationLinear(9.05, 38.05), 1);
    const t = await store.sample('nwp', 38.05, 9.05, T0, ['temperature_2m', 'pm10']);
    expect(Object.keys(t.values)).toEqual(['temperature_2m', 'pm10']);
    expect(t.values.pm10).toBeNull();
    // Linear in lon and lat, so bilinear interpolation is exact up to the 0.01 °C packing.
    expect(t.values.temperature_2m).toBeCloseTo(tempLinear(9.05, 38.05, 0), 2);
    await expect(store.sample('nwp', 38, 9, null, ['temperature_2m'])).rejects.toThrow(/varies in time/);
  });

  it('works with a cache smaller than one chunk', async () => {
    const tiny = new TileStore(root, { cacheBytes: 1000 });
    const s = await tiny.sample('nwp', 38.05, 9.05, T0 + HOUR);
    expect(s.values.temperature_2m).toBeCloseTo(tempLinear(9.05, 38.05, 1), 2);
    expect(tiny.cacheStats().bytes).toBeLessThanOrEqual(1000);
  });
});

describe('hand-computed bilinear case with missing cells', () => {
  // 3 × 3 grid, 1° cells from (40 N, 10 E); two hourly steps, step 1 = step 0 + 10.
  const grid: RegularLatLonGrid = { kind: 'regular_ll', nx: 3, ny: 3, x0: 10, y0: 40, dx: 1, dy: 1 };
  const base = [1, 2, 3, 4, 8, 16, 5, 6, 7]; // row-major [y][x]
  const root = tempRoot('hand');
  const times = hourlyTimes(2);
  let store: TileStore;

  beforeAll(async () => {
    const step0 = Float32Array.from(base);
    const step1 = Float32Array.from(base, (v) => v + 10);
    const holey0 = Float32Array.from(base);
    const holey1 = Float32Array.from(base, (v) => v + 10);
    holey0[1] = NaN; // cell (1, 0) missing at step 0 only
    holey1[1] = NaN;
    holey1[3] = NaN; // cell (0, 1) missing at step 1 only
    const gone = new Float32Array(9).fill(NaN);
    gone[8] = 7;
    await writeProductVersion(root, input('hand', grid, times, {
      full: { units: '1', precision: 0.001, values: [step0, step1] },
      holey: { units: '1', precision: 0.001, values: [holey0, holey1] },
      sparse: { units: '1', precision: 0.001, values: [gone, gone] },
    }));
    store = new TileStore(root);
  });

  it('interpolates bilinearly and linearly in time', async () => {
    // x = 0.25, y = 0.5 → weights 0.375, 0.125, 0.375, 0.125 on 1, 2, 4, 8:
    // 0.375 + 0.25 + 1.5 + 1 = 3.125 at step 0; +10 at step 1; a quarter of the way: 5.625.
    const s = await store.sample('hand', 40.5, 10.25, T0 + 0.25 * HOUR, ['full']);
    expect(s.values.full).toBeCloseTo(5.625, 9);
  });

  it('renormalises over the valid neighbours', async () => {
    // Step 0, cell (1,0) missing: (0.375·1 + 0.375·4 + 0.125·8) / 0.875 = 2.875 / 0.875.
    const s = await store.sample('hand', 40.5, 10.25, T0, ['holey']);
    expect(s.values.holey).toBeCloseTo(2.875 / 0.875, 9);
    // Half-way, (1,0) (missing at both steps) and (0,1) (missing at step 1) drop out; the others are
    // (0,0) = (1 + 11) / 2 = 6 and (1,1) = (8 + 18) / 2 = 13: (0.375·6 + 0.125·13) / 0.5 = 7.75.
    const m = await store.sample('hand', 40.5, 10.25, T0 + 0.5 * HOUR, ['holey']);
    expect(m.values.holey).toBeCloseTo(7.75, 9);
  });

  it('returns null when all four neighbours are missing', async () => {
    const s = await store.sample('hand', 40.3, 10.3, T0, ['sparse']);
    expect(s.values.sparse).toBeNull();
    const near = await store.sample('hand', 41.6, 11.6, T0, ['sparse']);
    expect(near.values.sparse).toBeCloseTo(7, 9);
  });
});
