/**
 * Period stores (reanalysis years) have a cache of their own
 * (tiles/read/cache-budget.ts): `time=` at random hours never evicts the
 * forecast's blocks, and the period store's blocks stay within their own
 * budget. Block sizes by hand: a period store chunked along time holds
 * 128 steps × 16 × 16 cells of one int16 variable per block, 65,536 bytes;
 * the forecast's block is 6 steps × 32 × 32 cells × 2 bytes = 12,288 bytes.
 * Values against the analytic fields (linear in x, y and hours, so the reader
 * reproduces them up to the packing).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { TileStore } from '../../../tiles/read/reader.js';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { HOUR, analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 20, ny: 12, x0: 7, y0: 40, dx: 0.25, dy: 0.25 };
const YEAR0 = Date.UTC(1995, 0, 1);
const temp = (x: number, y: number, h: number) => 15 + 0.8 * (y - 40) - 0.3 * (x - 7) + 0.01 * h;
const BLOCK = 128 * 16 * 16 * 2;

describe('the history cache', () => {
  const root = tempRoot('history-cache');
  const forecast = hourlyTimes(6);
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', GRID, forecast, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(GRID, forecast, temp) } }));
    const year = hourlyTimes(1100, YEAR0);
    await writeProductVersion(root, { ...input('reanalysis', GRID, year, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(GRID, year, temp) } }), meta: { layout: 'periods', period: '1995' } });
  });

  it('holds the period store\'s blocks in its own budget and never evicts the forecast\'s', async () => {
    // Room for two history blocks; the forecast's cache far larger than its one block.
    const store = new TileStore(root, { cacheBytes: 1 << 20, historyCacheBytes: 2 * BLOCK });
    const lat = 41.13;
    const lon = 8.61;
    const now = forecast[2]!.getTime() + 0.5 * HOUR;
    expect((await store.sample('nwp', lat, lon, now)).values.temperature_2m).toBeCloseTo(temp(lon, lat, 2.5), 2);
    expect(store.cacheStats()).toMatchObject({ chunks: 1, bytes: 6 * 32 * 32 * 2, history: { chunks: 0, bytes: 0 } });
    // Hours in four time chunks of the year: four history blocks decoded, two held.
    for (const h of [10.5, 300.5, 600.5, 900.5]) {
      expect((await store.sample('reanalysis/1995', lat, lon, YEAR0 + h * HOUR)).values.temperature_2m, `hour ${h}`).toBeCloseTo(temp(lon, lat, h), 2);
    }
    const st = store.cacheStats();
    expect(st.history).toMatchObject({ chunks: 2, bytes: 2 * BLOCK, maxBytes: 2 * BLOCK, misses: 4 });
    expect(st).toMatchObject({ chunks: 3, bytes: 6 * 32 * 32 * 2 + 2 * BLOCK, maxBytes: (1 << 20) + 2 * BLOCK });
    // The forecast's block is still cached: the synchronous lookup answers.
    expect(store.trySample('nwp', lat, lon, now)?.values.temperature_2m).toBeCloseTo(temp(lon, lat, 2.5), 2);
    // The last two of the year's hours answer from the history cache; the first was evicted.
    expect(store.trySample('reanalysis/1995', lat, lon, YEAR0 + 900.5 * HOUR)).toBeDefined();
    expect(store.trySample('reanalysis/1995', lat, lon, YEAR0 + 10.5 * HOUR)).toBeUndefined();
  });
});
