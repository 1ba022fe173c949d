/**
 * Regression: the 3-hour trend was null for the first three hours
 * after a new forecast run, whose first step is "now". A new version of a
 * forecast product now keeps the previous version's steps from up to three
 * hours before its first one. Fields here are constants per step, so every
 * value says which run and hour it came from.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { carryOverEarlierSteps } from '../../ingest/carry-over.js';
import { withCatalogue } from '../../ingest/products/catalogue-input.js';
import { getProduct } from '../../ingest/products/registry.js';
import { TileStore } from '../../tiles/read/reader.js';
import type { ProductVersionInput } from '../../tiles/types.js';
import { writeProductVersion } from '../../tiles/write/writer.js';
import { installTestKey, keyedInject, tempDataDir, testAccess } from '../api/tile-fixture.js';

const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 8, ny: 6, x0: 11, y0: 43, dx: 0.05, dy: 0.05 };
const HOUR = 3_600_000;
const T0 = Date.UTC(2026, 10, 24, 0);

/** A run starting `startH` hours after T0, `n` hourly steps, temperature `base + hour`. */
function run(startH: number, n: number, base: number, extra = false): ProductVersionInput {
  const times = Array.from({ length: n }, (_, k) => new Date(T0 + (startH + k) * HOUR));
  const cells = GRID.nx * GRID.ny;
  const temps = times.map((t) => new Float32Array(cells).fill(base + (t.getTime() - T0) / HOUR));
  return withCatalogue({
    product: 'nwp', grid: GRID, times, source: { files: [`run+${startH}`] },
    variables: {
      temperature_2m: { units: '°C', precision: 0.01, values: temps },
      ...(extra ? { cloud_cover: { units: '%', precision: 0.1, values: times.map(() => new Float32Array(cells).fill(40)) } } : {}),
    },
  });
}

describe('a new forecast run keeps the previous run\'s last 3 hours', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeProductVersion(data.dir, run(0, 12, 10)); // 00..11 UTC, 10 + h
    const next = run(6, 12, 100, true); // 06..17 UTC, 100 + h, plus a variable the old run lacks
    const note = await carryOverEarlierSteps(data.dir, getProduct('nwp'), next);
    expect(note).toMatch(/kept 3 earlier step\(s\) \(2026-11-24T03:00:00.000Z to 2026-11-24T05:00:00.000Z\)/);
    await writeProductVersion(data.dir, next);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0 + 6.5 * HOUR });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('prepends 03–05 UTC from the previous version, and NaN for what it lacked', async () => {
    const store = new TileStore(data.dir);
    expect(store.manifest('nwp')!.times[0]).toBe('2026-11-24T03:00:00.000Z');
    const at = async (h: number) => (await store.sample('nwp', 43.1, 11.1, T0 + h * HOUR, ['temperature_2m', 'cloud_cover'])).values;
    const early = await at(4);
    expect(early.temperature_2m).toBeCloseTo(14, 6);
    expect(early.cloud_cover).toBeNull();
    const later = await at(7);
    expect(later.temperature_2m).toBeCloseTo(107, 6);
    expect(later.cloud_cover).toBeCloseTo(40, 6);
  });

  it('weather.php half an hour after the new run starts has a trend', async () => {
    const b = (await keyedInject(app, '/api/v1/weather.php?lat=43.1&lon=11.1&alt=0')).json();
    // 06:30: 106.5 (new run); 03:30: 13.5 (carried from the old one)
    expect(b.temperature_trend_3h.delta).toBe(93);
  });

  it('carries nothing onto another grid', async () => {
    const other = { ...run(12, 4, 0), grid: { ...GRID, dx: 0.1 } };
    expect(await carryOverEarlierSteps(data.dir, getProduct('nwp'), other)).toMatch(/on another grid/);
    expect(other.times).toHaveLength(4);
  });
});
