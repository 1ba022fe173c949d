/**
 * The reader's cache holds blocks per cache group (manifest `block`): a
 * request decodes only the groups it reads (a Free request used to
 * decode every time-varying variable), and the default budget is sized from
 * the published stores. Expected byte counts are worked out by hand from
 * the chunk geometry (32 × 32 cells, int16 = 2 bytes).
 */
import { describe, expect, it } from 'vitest';
import { PublishedProducts } from '../../../api/router/published.js';
import { WeatherService } from '../../../api/weather/service.js';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { withCatalogue } from '../../../ingest/products/catalogue-input.js';
import { autoCacheBytes, decodedBytes, MIN_CACHE_BYTES } from '../../../tiles/read/cache-budget.js';
import { TileStore } from '../../../tiles/read/reader.js';
import type { VariableInput } from '../../../tiles/types.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { tempRoot } from '../temp-root.js';

const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 40, ny: 40, x0: 11, y0: 43, dx: 0.02, dy: 0.02 };
const CELLS = GRID.nx * GRID.ny;
const T0 = Date.UTC(2026, 10, 24, 0);
const STEPS = 6;
const times = Array.from({ length: STEPS }, (_, k) => new Date(T0 + k * 3_600_000));
const series = (v: number, units: string): VariableInput => ({ units, precision: 0.01, values: times.map(() => new Float32Array(CELLS).fill(v)) });

// nwp's 'base' group: temperature, dew point, pressure, wind (5 int16 time-varying) + elevation (static);
// 'condition': cloud cover; 'developer': shortwave, longwave, ozone.
const VARIABLES = {
  temperature_2m: series(12, '°C'), dew_point_2m: series(5, '°C'), pressure_msl: series(1012, 'hPa'),
  wind_u_10m: series(2, 'm/s'), wind_v_10m: series(1, 'm/s'),
  cloud_cover: series(40, '%'),
  shortwave_radiation: series(300, 'W/m²'), longwave_radiation: series(320, 'W/m²'), total_ozone: series(300, 'DU'),
  elevation: { units: 'm', precision: 0.1, static: true, values: [new Float32Array(CELLS).fill(200)] },
};

describe('cache groups', () => {
  it('a Free request decodes the base group only; a Business one adds the others', async () => {
    const root = tempRoot('groups');
    await writeProductVersion(root, withCatalogue({ product: 'nwp', grid: GRID, times, variables: VARIABLES, source: { files: ['t'] } }));
    const point = { lat: 43.1, lon: 11.1, altM: 200, timeMs: T0 + 4 * 3_600_000 }; // cell (5, 5): chunk (0, 0)
    const chunkCells = 32 * 32;
    const free = new TileStore(root, { cacheBytes: 64 << 20 });
    await new WeatherService(free, new PublishedProducts(free)).observe({ ...point, plan: 'free', groups: new Set() });
    // 5 time-varying int16 base variables × 6 steps + the static elevation (the weather code is absent, so the
    // condition's state is read too: cloud cover, 1 variable × 6 steps).
    expect(free.cacheStats().bytes).toBe(chunkCells * 2 * (5 * STEPS + 1 + 1 * STEPS));
    const business = new TileStore(root, { cacheBytes: 64 << 20 });
    await new WeatherService(business, new PublishedProducts(business)).observe({ ...point, plan: 'business', groups: new Set(['wbgt', 'frost', 'et0']) });
    expect(business.cacheStats().bytes).toBe(chunkCells * 2 * (5 * STEPS + 1 + 1 * STEPS + 3 * STEPS));
  });

  it('sizes the default budget from the published stores, within its bounds', async () => {
    const root = tempRoot('budget');
    expect(autoCacheBytes(root)).toBe(MIN_CACHE_BYTES);
    await writeProductVersion(root, withCatalogue({ product: 'nwp', grid: GRID, times, variables: VARIABLES, source: { files: ['t'] } }));
    const m = new TileStore(root).manifest('nwp')!;
    // 9 time-varying variables × 6 steps + 1 static, 2 bytes (all int16 here), over whole 32 × 32 chunks:
    // 40 × 40 cells take 2 × 2 chunks, 64 × 64 cells
    expect(m.chunk).toEqual({ y: 32, x: 32 });
    expect(decodedBytes(m)).toBe(64 * 64 * 2 * (9 * STEPS + 1));
    expect(autoCacheBytes(root)).toBe(MIN_CACHE_BYTES); // far below the floor
    expect(autoCacheBytes(root, 100_000)).toBe(50_000); // half of a (tiny) machine's memory caps it
  });
});
