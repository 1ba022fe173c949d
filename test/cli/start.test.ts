/**
 * `npm start` on a sample made four days ago (regression: a dead demo while
 * /healthz said ok): /healthz answers 503 naming the sample; start's
 * preparation (cli/start.ts prepareData) makes a fresh sample on the same
 * grids through the real ingest path, after which weather.php answers now;
 * real tiles are never replaced. The samples are built on coarse grids
 * (the refresh keeps them) and 6 hours long so that the test stays quick;
 * the `meteopunto start` process over a sample is tested in
 * ingest-cli.test.ts (a full 48-hour refresh there would take minutes).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RegularLatLonGrid } from '../../geo/grid.js';
import { buildApp } from '../../api/app.js';
import { prepareData } from '../../cli/start.js';
import { buildSampleDataset } from '../../ingest/sample/build.js';
import { runIngest } from '../../ingest/pipeline.js';
import { TileStore } from '../../tiles/read/reader.js';
import { installTestKey, keyedInject, testAccess } from '../api/tile-fixture.js';
import { dataFile, describeShared } from '../support/shared-data.js';

const DAY = 86_400_000;
const NWP: RegularLatLonGrid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 };
const DEM: RegularLatLonGrid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 };
const NOW = new Date('2026-07-15T13:20:00Z');

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mp-start-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('start on a four-day-old sample', () => {
  let root: string;
  const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
  beforeAll(async () => {
    root = join(dir, 'old-sample');
    await buildSampleDataset({ root, now: new Date(NOW.getTime() - 4 * DAY), hoursAhead: 6, nwpGrid: NWP, demGrid: DEM });
    await installTestKey(root);
  }, 300_000);
  afterAll(() => log.mockRestore());

  it('/healthz: 503, the reason names the sample and when it was made', async () => {
    const app = await buildApp({ dataDir: root, access: testAccess(root), clock: () => NOW.getTime() });
    try {
      const res = await app.inject({ url: '/healthz' });
      expect(res.statusCode).toBe(503);
      const [reason] = res.json().reasons as { code: string; message: string }[];
      expect(reason!.code).toBe('now_not_covered');
      expect(reason!.message).toMatch(/^nwp covers 2026-07-11T\d\d:00:00\.000Z to 2026-07-11T19:00:00\.000Z, not now \(2026-07-15T13:20:00\.000Z\).*sample dataset made/);
      expect((await keyedInject(app, '/api/v1/weather.php?lat=41.9&lon=12.5')).statusCode).toBe(503);
    } finally {
      await app.close();
    }
  });

  it('prepareData makes a fresh sample on the same grids, in one line, and weather.php answers now', async () => {
    const before = new TileStore(root).manifest('nwp')!;
    log.mockClear();
    expect(await prepareData(root, { now: NOW, sample: { hoursAhead: 6 } })).toBe('refreshed');
    const said = log.mock.calls.map((c) => String(c[0]));
    expect(said.filter((l) => /SAMPLE dataset covers 2026-07-11T.* not now: building a fresh one \(it lasts 6 hours\)/.test(l))).toHaveLength(1);
    const after = new TileStore(root).manifest('nwp')!;
    expect(after.version).not.toBe(before.version);
    expect(after.grid).toEqual(before.grid);
    expect(after.source.sample).toBe(true);
    // Made at NOW: from the last 3-hourly run at least 3 h old (09 UTC) to 6 h after the current hour.
    expect(after.coverage).toEqual({ from: '2026-07-15T09:00:00.000Z', to: '2026-07-15T19:00:00.000Z' });
    const app = await buildApp({ dataDir: root, access: testAccess(root), clock: () => NOW.getTime() });
    try {
      expect((await app.inject({ url: '/healthz' })).json()).toMatchObject({ status: 'ok', reasons: [] });
      const res = await keyedInject(app, '/api/v1/weather.php?lat=41.9&lon=12.5');
      expect(res.statusCode).toBe(200);
      expect(res.json().temperature_source).toMatch(/sample data/);
    } finally {
      await app.close();
    }
    // Fresh now: kept as it is.
    expect(await prepareData(root, { now: NOW })).toBe('kept');
    expect(new TileStore(root).manifest('nwp')!.version).toBe(after.version);
  }, 300_000);
});

describeShared('start on real tiles that have run out', () => {
  it('keeps them and says why /healthz will answer 503', async () => {
    const root = join(dir, 'real');
    await runIngest({ root, product: 'nwp', files: [dataFile('ifs-hres-t2m-italy/alternate-scanning.grib')] });
    const version = new TileStore(root).manifest('nwp')!.version;
    const log = vi.spyOn(console, 'log').mockImplementation(() => undefined);
    try {
      expect(await prepareData(root, { now: NOW })).toBe('kept');
      expect(log.mock.calls.map((c) => String(c[0]))).toEqual([expect.stringMatching(/^meteopunto start: nwp covers 2021-08-01T15:00:00\.000Z .* not now/)]);
    } finally {
      log.mockRestore();
    }
    expect(new TileStore(root).manifest('nwp')!.version).toBe(version);
  }, 120_000);
});
