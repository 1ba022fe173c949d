/**
 * /metrics reports the forecast cache and the period stores' (history) cache
 * apart, label `cache`, over a real HTTP socket. Expected figures by hand
 * from what the test loads: the forecast store (6 hourly steps) is one block
 * of 6 steps × 32 × 32 int16 = 12,288 bytes; the year is chunked along time,
 * 128 steps × 16 × 16 int16 = 65,536 bytes a block, and hours 10.5, 300.5,
 * 600.5 and 900.5 fall in four different time chunks.
 */
import type { FastifyInstance } from 'fastify';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { HOUR, analytic, hourlyTimes, input } from '../../tiles/fields.js';
import { tempRoot } from '../../tiles/temp-root.js';

const TOKEN = 'metrics-token-0123456789';
const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 20, ny: 12, x0: 7, y0: 40, dx: 0.25, dy: 0.25 };
const YEAR0 = Date.UTC(1995, 0, 1);
const FORECAST_BLOCK = 6 * 32 * 32 * 2;
const YEAR_BLOCK = 128 * 16 * 16 * 2;
const temp = (x: number, y: number, h: number) => 15 + 0.01 * h + 0.1 * (x - y);

function series(text: string, name: string, cache: string): number {
  const line = text.split('\n').find((l) => l.startsWith(`${name}{cache="${cache}"} `));
  if (!line) throw new Error(`no ${name}{cache="${cache}"} in /metrics`);
  return Number(line.split(' ').pop());
}

describe('/metrics tile caches', () => {
  const root = tempRoot('cache-metrics');
  const forecast = hourlyTimes(6);
  let app: FastifyInstance | undefined;
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', GRID, forecast, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(GRID, forecast, temp) } }));
    const year = hourlyTimes(1100, YEAR0);
    await writeProductVersion(root, { ...input('reanalysis', GRID, year, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(GRID, year, temp) } }), meta: { layout: 'periods', period: '1995' } });
  });
  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  it('gives hits, misses, bytes and budget of each cache under its own label', async () => {
    const tiles = new TileStore(root, { cacheBytes: 1 << 20, historyCacheBytes: 3 * YEAR_BLOCK });
    app = await buildApp({ dataDir: root, tiles, env: { METEOPUNTO_ADMIN_TOKEN: TOKEN, METEOPUNTO_DATA: root } });
    const base = await app.listen({ port: 0, host: '127.0.0.1' });
    const scrape = async () => (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).text();

    const empty = await scrape();
    for (const cache of ['forecast', 'history']) {
      expect(series(empty, 'meteopunto_tile_cache_bytes', cache), cache).toBe(0);
      expect(series(empty, 'meteopunto_tile_cache_misses', cache), cache).toBe(0);
    }

    const lat = 41.13;
    const lon = 8.61;
    const now = forecast[2]!.getTime() + 0.5 * HOUR;
    expect((await tiles.sample('nwp', lat, lon, now)).values.temperature_2m).toBeCloseTo(temp(lon, lat, 2.5), 2);
    expect(tiles.trySample('nwp', lat, lon, now)).toBeDefined();
    // Four time chunks of the year: four decoded, three held (the budget).
    for (const h of [10.5, 300.5, 600.5, 900.5]) await tiles.sample('reanalysis/1995', lat, lon, YEAR0 + h * HOUR);
    expect(tiles.trySample('reanalysis/1995', lat, lon, YEAR0 + 900.5 * HOUR)).toBeDefined();
    expect(tiles.trySample('reanalysis/1995', lat, lon, YEAR0 + 600.5 * HOUR)).toBeDefined();

    const full = await scrape();
    expect(series(full, 'meteopunto_tile_cache_bytes', 'forecast')).toBe(FORECAST_BLOCK);
    expect(series(full, 'meteopunto_tile_cache_bytes', 'history')).toBe(3 * YEAR_BLOCK);
    expect(series(full, 'meteopunto_tile_cache_misses', 'forecast')).toBe(1);
    expect(series(full, 'meteopunto_tile_cache_misses', 'history')).toBe(4);
    expect(series(full, 'meteopunto_tile_cache_budget_bytes', 'forecast')).toBe(1 << 20);
    expect(series(full, 'meteopunto_tile_cache_budget_bytes', 'history')).toBe(3 * YEAR_BLOCK);
    // Hits count LRU touches (a block read again from the version's front table is touched once a second at most),
    // so only their split is asserted: history traffic moves the history series alone. Hour 10.5 was evicted (the
    // budget holds three blocks): one more miss, the bytes unchanged.
    await tiles.sample('reanalysis/1995', lat, lon, YEAR0 + 10.5 * HOUR);
    const again = await scrape();
    expect(series(again, 'meteopunto_tile_cache_misses', 'history')).toBe(5);
    expect(series(again, 'meteopunto_tile_cache_bytes', 'history')).toBe(3 * YEAR_BLOCK);
    expect(series(again, 'meteopunto_tile_cache_hits', 'history')).toBeGreaterThan(0);
    for (const name of ['meteopunto_tile_cache_hits', 'meteopunto_tile_cache_misses', 'meteopunto_tile_cache_bytes']) {
      expect(series(again, name, 'forecast'), name).toBe(series(full, name, 'forecast'));
    }
    // No unlabelled total any more: a sum in Prometheus is the operator's choice.
    expect(full).not.toMatch(/^meteopunto_tile_cache_bytes \d/m);
  });
});
