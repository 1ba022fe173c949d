/**
 * /healthz tells the truth about "now": a store whose time axis ends in the
 * past — the real ECMWF IFS GRIB2 of 2021-08-01 15 UTC
 * (../shared/data/ifs-hres-t2m-italy) ingested as nwp through the real
 * pipeline — answers 503 with the reason today, as weather.php does, and
 * 200 at the file's own valid time (regression: "ok" with covers_now false).
 * A starting server (a store that warms, as `meteopunto serve` has it) is
 * not ready, reason `warming`, until its warm is done, then ready.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { defaultReadPlan } from '../../api/weather/warm-plan.js';
import { TileStore } from '../../tiles/read/reader.js';
import { healthReasons } from '../../api/routes/health-reasons.js';
import { runIngest } from '../../ingest/pipeline.js';
import { dataFile, describeShared } from '../support/shared-data.js';
import { installTestKey, keyedInject, tempDataDir, testAccess } from './tile-fixture.js';

/** The file's valid time: run 2021-08-01 12 UTC + 3 h (grib_ls: dataDate 20210801, dataTime 1200, step 3). */
const VALID = '2021-08-01T15:00:00.000Z';

describeShared('/healthz on a forecast that has run out (the real IFS file)', () => {
  const data = tempDataDir();
  const apps: FastifyInstance[] = [];
  const appAt = async (nowMs: number) => {
    const app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => nowMs });
    apps.push(app);
    return app;
  };
  beforeAll(async () => {
    await installTestKey(data.dir);
    await runIngest({ root: data.dir, product: 'nwp', files: [dataFile('ifs-hres-t2m-italy/alternate-scanning.grib')] });
  }, 120_000);
  afterAll(async () => {
    for (const app of apps) await app.close();
    data.cleanup();
  });

  it('today: 503, unavailable, the reason names the product and what it covers; weather.php agrees', async () => {
    const now = Date.UTC(2026, 2, 10, 9, 0);
    const app = await appAt(now);
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(503);
    const h = res.json();
    expect(h.status).toBe('unavailable');
    expect(h.reasons).toEqual([{
      code: 'now_not_covered',
      message: `nwp covers ${VALID} to ${VALID}, not now (2026-03-10T09:00:00.000Z): weather.php answers 503 without time=`,
    }]);
    expect(h.products.nwp).toMatchObject({ available: true, covers_now: false, sample: false });
    const weather = await keyedInject(app, '/api/v1/weather.php?lat=45&lon=10');
    expect(weather.statusCode).toBe(503);
  });

  it('at the valid time of the file: 200, ok, no reasons', async () => {
    const app = await appAt(Date.parse(VALID));
    const res = await app.inject({ url: '/healthz' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ status: 'ok', reasons: [] });
    expect((await keyedInject(app, '/api/v1/weather.php?lat=45&lon=10')).statusCode).toBe(200);
  });

  it('starting: 503 with reason warming until the tile cache is warm, then 200; weather.php answers meanwhile', async () => {
    const tiles = new TileStore(data.dir, { warm: defaultReadPlan() });
    const app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => Date.parse(VALID), tiles });
    apps.push(app);
    const warm = tiles.warmLive(['nwp']);
    // Read at once, before the warm (decode threads) can finish: /healthz's reasons, hence its 503.
    expect(healthReasons(app.products, tiles, Date.parse(VALID))).toEqual([{ code: 'warming', message: 'starting: the tile cache is being warmed; answers are slow until it is' }]);
    const during = app.inject({ url: '/healthz' });
    expect((await keyedInject(app, '/api/v1/weather.php?lat=45&lon=10')).statusCode).toBe(200);
    // Answered while warming (503, warming) or just after (200): never another reason.
    const res = await during;
    expect(res.json().reasons).toEqual(res.statusCode === 503 ? [expect.objectContaining({ code: 'warming' })] : []);
    const done = await warm;
    expect(done).toEqual([expect.objectContaining({ key: 'nwp', switched: false })]);
    expect(done[0]!.stopped).toBeUndefined();
    const after = await app.inject({ url: '/healthz' });
    expect(after.statusCode).toBe(200);
    expect(after.json()).toMatchObject({ status: 'ok', reasons: [] });
  });
});
