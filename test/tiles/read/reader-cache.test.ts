/**
 * The point reader's in-memory machinery (tiles/read/block.ts, tiles/read/point-memo.ts,
 * tiles/read/variable-list.ts): interleaved blocks of every variable kind, the
 * front table over an evicting LRU, the per-product point/time memos and
 * the per-version variable lists. Expected values come from the analytic
 * fields (bilinear + linear in time reproduce a field linear in x, y, t; the
 * only error left is the packing), never from another reader.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { interleaveInto } from '../../../tiles/read/block.js';
import { shuffle } from '../../../tiles/codecs/shuffle.js';
import { REGULAR, T0, HOUR, hourlyTimes, analytic, input, constantInput } from '../fields.js';
import { tempRoot } from '../temp-root.js';
import { mulberry32 } from '../../../bench/prng.js';

// One linear field per block kind, plus extra int16 variables so blocks hold several members.
const FIELDS = {
  temperature_2m: (x: number, y: number, h: number) => 0.3 * y - 0.2 * x + 0.5 * h + 10,
  wind_u_10m: (x: number, y: number, h: number) => -0.4 * y + 0.1 * x - 0.25 * h + 3,
  cloud_cover: (x: number, y: number, h: number) => 2 * y + 3 * x + h,
  pressure_msl: (x: number, y: number, h: number) => 1000 + 2.5 * y + 1.25 * x - 0.75 * h,
  elevation: (x: number, y: number) => 100 * y - 50 * x,
  roughness: (x: number, y: number) => 0.5 * y + 0.25 * x,
} as const;
/** Half the packing step (int16) or float32 rounding, per variable. */
const TOLERANCE: Record<keyof typeof FIELDS, number> = {
  temperature_2m: 0.005 + 1e-9,
  wind_u_10m: 0.005 + 1e-9,
  cloud_cover: 0.05 + 1e-9,
  pressure_msl: 2e-4,
  elevation: 0.05 + 1e-9,
  roughness: 1e-5,
};
const NAMES = Object.keys(FIELDS) as (keyof typeof FIELDS)[];

describe('interleaveInto', () => {
  // Two members, 2 steps × 3 cells: member m, step t, cell c holds 100m + 10t + c (−1 − that for member 1's second
  // step, so that the high bytes are not all zero).
  const a = Int16Array.from([0, 1, 2, 10, 11, 12]);
  const b = Int16Array.from([100, 101, 102, -111, -112, -113]);
  const expected = [0, 100, 10, -111, 1, 101, 11, -112, 2, 102, 12, -113];
  const bytes = (x: Int16Array) => new Uint8Array(x.buffer.slice(0));

  it.each([
    ['as stored without a filter', 0, bytes],
    ['byte-shuffled', 2, (x: Int16Array) => shuffle(bytes(x), 2)],
  ])('lays out [time][cell] chunks %s as [cell][time][member]', (_what, filter, stored) => {
    const out = new Int16Array(12);
    const view = new Uint16Array(out.buffer);
    interleaveInto(stored(a), filter, 2, 0, 2, 3, view, 2, 0, 2, 0);
    interleaveInto(stored(b), filter, 2, 0, 2, 3, view, 2, 1, 2, 0);
    expect(Array.from(out)).toEqual(expected);
  });

  it('puts a bridge together: the last step of one chunk, then the first of the next', () => {
    const out = new Int16Array(6);
    const view = new Uint16Array(out.buffer);
    interleaveInto(shuffle(bytes(a), 2), 2, 2, 1, 1, 3, view, 1, 0, 2, 0);
    interleaveInto(shuffle(bytes(b), 2), 2, 2, 0, 1, 3, view, 1, 0, 2, 1);
    expect(Array.from(out)).toEqual([10, 100, 11, 101, 12, 102]);
  });
});

describe('a store with every block kind', () => {
  const root = tempRoot('blocks');
  const grid = REGULAR;
  const times = hourlyTimes(6);
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', grid, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(grid, times, FIELDS.temperature_2m) },
      wind_u_10m: { units: 'm/s', precision: 0.01, values: analytic(grid, times, FIELDS.wind_u_10m) },
      cloud_cover: { units: '%', precision: 0.1, values: analytic(grid, times, FIELDS.cloud_cover) },
      // precision 1e-4 over ~30 hPa does not fit int16: float32.
      pressure_msl: { units: 'hPa', precision: 1e-4, values: analytic(grid, times, FIELDS.pressure_msl) },
      elevation: { units: 'm', precision: 0.1, static: true, values: analytic(grid, [], FIELDS.elevation) },
      roughness: { units: 'm', precision: 1e-6, static: true, values: analytic(grid, [], FIELDS.roughness) },
    }));
  });

  it('packs one variable of each kind (int16/float32, time-varying/static)', () => {
    const v = new TileStore(root).manifest('nwp')!.variables;
    expect([v.temperature_2m!.dtype, v.pressure_msl!.dtype, v.elevation!.dtype, v.roughness!.dtype]).toEqual(['int16', 'float32', 'int16', 'float32']);
  });

  it.each([
    ['a cache holding everything', 64 * 1024 * 1024],
    ['a cache far smaller than the points visited (constant eviction)', 60_000],
  ])('reproduces every field at random points and times with %s', async (_what, cacheBytes) => {
    const store = new TileStore(root, { cacheBytes });
    const rnd = mulberry32(7);
    const xMax = grid.x0 + (grid.nx - 1) * grid.dx;
    const yMax = grid.y0 + (grid.ny - 1) * grid.dy;
    for (let k = 0; k < 400; k++) {
      const lat = grid.y0 + rnd() * (yMax - grid.y0);
      const lon = grid.x0 + rnd() * (xMax - grid.x0);
      const hours = k % 7 === 0 ? Math.floor(rnd() * 6) : rnd() * 5;
      const s = await store.sample('nwp', lat, lon, T0 + hours * HOUR);
      // Warm right after the load, the synchronous path answers the same (unless the load was evicted at once).
      const warm = store.trySample('nwp', lat, lon, T0 + hours * HOUR);
      if (warm) expect(warm).toEqual(s);
      for (const name of NAMES) {
        expect(Math.abs(s.values[name]! - FIELDS[name](lon, lat, hours)), `${name} at ${lat}, ${lon}, +${hours} h`).toBeLessThanOrEqual(TOLERANCE[name]);
      }
    }
    expect(store.cacheStats().bytes).toBeLessThanOrEqual(cacheBytes);
  });

  it('alternates times and points without mixing their interpolation state', async () => {
    const store = new TileStore(root);
    const pts = [[38.05, 9.05], [40.22, 12.91], [37.5, 7.6]] as const;
    for (const [lat, lon] of pts) await store.sample('nwp', lat, lon, T0);
    // now / three hours back / now again, at three points, as the API asks them.
    for (let round = 0; round < 3; round++) {
      for (const [lat, lon] of pts) {
        for (const hours of [4.25, 1.25, 4.25, 0, 5]) {
          const s = store.trySample('nwp', lat, lon, T0 + hours * HOUR, ['temperature_2m', 'pressure_msl'])!;
          expect(s.values.temperature_2m!).toBeCloseTo(FIELDS.temperature_2m(lon, lat, hours), 2);
          expect(Math.abs(s.values.pressure_msl! - FIELDS.pressure_msl(lon, lat, hours))).toBeLessThan(2e-4);
          expect(s.time).toBe(new Date(T0 + hours * HOUR).toISOString());
        }
        const e = store.trySample('nwp', lat, lon, null, ['roughness', 'elevation'])!;
        expect(Object.keys(e.values)).toEqual(['roughness', 'elevation']);
        expect(e.values.elevation!).toBeCloseTo(FIELDS.elevation(lon, lat), 1);
      }
    }
  });

  it('re-resolves a variable list changed in place', async () => {
    const store = new TileStore(root);
    const list = ['temperature_2m', 'pm10'];
    const a = await store.sample('nwp', 38.05, 9.05, T0, list);
    expect(Object.keys(a.values)).toEqual(['temperature_2m', 'pm10']);
    list[0] = 'wind_u_10m';
    list.push('cloud_cover');
    const b = await store.sample('nwp', 38.05, 9.05, T0, list);
    expect(Object.keys(b.values)).toEqual(['wind_u_10m', 'pm10', 'cloud_cover']);
    expect(b.values.wind_u_10m!).toBeCloseTo(FIELDS.wind_u_10m(9.05, 38.05, 0), 2);
    expect(b.values.pm10).toBeNull();
  });
});

describe('a new version', () => {
  it('is read at a point and time the store has just answered for the previous one', async () => {
    const root = tempRoot('memo-version');
    await writeProductVersion(root, constantInput('nwp', 1));
    const store = new TileStore(root, { manifestCheckMs: 0 });
    const first = await store.sample('nwp', 38.05, 9.05, T0 + HOUR);
    expect(first.values).toEqual({ temperature_2m: 1, elevation: -1 });
    await writeProductVersion(root, constantInput('nwp', 2));
    const next = await store.sample('nwp', 38.05, 9.05, T0 + HOUR);
    expect(next.values).toEqual({ temperature_2m: 2, elevation: -2 });
  });
});
