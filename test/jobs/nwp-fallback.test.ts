/**
 * nwp from ICON-2I with ICON-EU as the fallback, end to end on Redis with an
 * in-process worker, the committed jobs/examples/italy.jobs.json pointed at
 * the MeteoHub and DWD open-data emulators (its two roots swapped, ICON-EU
 * cut to steps 0–3 and retries made fast): a schedule tick at 08 UTC finds
 * no complete ICON-2I run of the last 18 h (the 00 UTC run lacks ASWDIR_S,
 * the 12 UTC one is 20 h old), enqueues ICON-EU's 00 UTC run instead, which
 * is published with the model named in the manifest and in weather.php's
 * temperature_source, and `jobs status` says a fallback happened. ICON-EU's
 * step 0 VMAX_10M and TOT_PREC (DWD encodes them over a zero-length window,
 * filled with zeros) are stored as missing, never 0. When the ICON-2I run is
 * complete, the next tick ingests it and temperature_source says ICON-2I.
 * Values are checked against ecCodes' grib_get on the files served.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { runIngest } from '../../ingest/pipeline.js';
import { collectStatus, formatStatus } from '../../jobs/commands/status.js';
import { parseJobsConfig, type JobsConfig } from '../../jobs/config.js';
import { createTickProcessor } from '../../jobs/processors/tick.js';
import { enqueueIngest } from '../../jobs/queues.js';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.js';
import { TileStore } from '../../tiles/read/reader.js';
import { installTestKey, keyedInject, testAccess } from '../api/tile-fixture.js';
import { iconEuPath, startDwdEmulator, type DwdEmulator } from '../support/emulators/dwd-opendata.js';
import { iconEuFiles, meteohubRun, type IconValues } from '../support/emulators/icon-content.js';
import { startMeteohubEmulator, type MeteohubEmulator, type MeteohubRun } from '../support/emulators/meteohub.js';
import { orographyHeights } from '../support/icon-grib.js';
import { describeShared } from '../support/shared-data.js';
import { tempRoot, uniquePrefix, waitForState } from './support/harness.js';

const H = 3_600_000;
const ICON2I_OLD = new Date(Date.UTC(2026, 10, 25, 12));
const RUN = new Date(Date.UTC(2026, 10, 26, 0));
/** A node of the test grid in the Po plain (grib_get -l … ,1 picks this very cell). */
const NODE = { lat: 45.1, lon: 9.5 };

const grib = (args: string[]) => execFileSync('grib_get', args, { encoding: 'utf8' }).trim();

describeShared('nwp: ICON-2I late → ICON-EU fallback, then ICON-2I (italy.jobs.json on the emulators, Redis)', () => {
  const redisUrl = inject('redisUrl');
  const dir = tempRoot('fallback');
  const root = join(dir, 'data');
  let hub: MeteohubEmulator;
  let dwd: DwdEmulator;
  let workers: RunningWorkers;
  let config: JobsConfig;
  let completeRun: MeteohubRun;
  let euFiles: Record<string, string>;

  const icon2i: IconValues = {
    T_2M: (z, h) => 288.15 - 0.0065 * z + 0.5 * h, TD_2M: (z, h) => 283.15 - 0.0065 * z + 0.5 * h, U_10M: () => 3, V_10M: () => -4,
    VMAX_10M: (_z, h) => (h === 0 ? 0 : 10 + h), TOT_PREC: (_z, h) => 0.5 * h, CLCT: () => 40, PMSL: () => 101_500,
    ASWDIR_S: (_z, h) => 50 * (h + 1), ASWDIFD_S: () => 50, WW: () => 61, HSURF: (z) => z, ATHB_S: () => -60, T_G: (z) => 289.15 - 0.0065 * z,
  };
  const iconEu: IconValues = {
    ...icon2i, T_2M: (z, h) => 280.15 - 0.0065 * z + h, TD_2M: (z, h) => 275.15 - 0.0065 * z + h, VMAX_10M: (_z, h) => (h === 0 ? 0 : 20 + h), TOT_PREC: (_z, h) => 0.8 * h,
  };

  beforeAll(async () => {
    const z = orographyHeights();
    const old = meteohubRun(dir, ICON2I_OLD, [0, 1], icon2i, z);
    completeRun = meteohubRun(dir, RUN, [0, 1], icon2i, z);
    const incomplete: MeteohubRun = { run: RUN, variables: { ...completeRun.variables } };
    delete incomplete.variables.ASWDIR_S;
    hub = await startMeteohubEmulator({ runs: [old, incomplete] });
    euFiles = iconEuFiles(dir, RUN, [0, 1], iconEu, z);
    dwd = await startDwdEmulator({ files: euFiles });

    const file = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../jobs/examples/italy.jobs.json'), 'utf8'));
    const nwp = file.products.nwp;
    const fast = { maxWaitSeconds: 20, retryInPlace: { firstDelaySeconds: 0.05, maxDelaySeconds: 0.2 } };
    nwp.source = { ...nwp.source, root: hub.origin, ...fast };
    nwp.fallback.source = { ...nwp.fallback.source, root: dwd.origin, steps: '0-1', ...fast };
    config = parseJobsConfig({ products: { nwp }, retry: { attempts: 2, backoffSeconds: 0.1 }, worker: { lockSeconds: 30, stalledCheckSeconds: 5 } }, 'italy.jobs.json (emulator roots)');
    workers = await startWorkers({ redisUrl, prefix: uniquePrefix(), root, config, runIngest, logger: pino({ level: 'silent' }), syncSchedules: false });
    await installTestKey(root, 'business');
  }, 240_000);
  afterAll(async () => {
    await workers?.close(0);
    await hub?.close();
    await dwd?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const tick = (at: Date) =>
    createTickProcessor({ root, config, enqueue: (id, data) => enqueueIngest(workers.queues.ingest, config, id, data) })({ data: { product: 'nwp' }, timestamp: at.getTime(), opts: { prevMillis: at.getTime() } });

  async function weather(timeIso: string) {
    const app = await buildApp({ dataDir: root, access: testAccess(root) });
    try {
      const res = await keyedInject(app, `/api/v1/weather.php?lat=${NODE.lat}&lon=${NODE.lon}&time=${timeIso}`);
      expect(res.statusCode, res.body).toBe(200);
      return res.json() as { temperature_source: string; wind_gust: number | null };
    } finally {
      await app.close();
    }
  }

  it('a late ICON-2I run falls back to ICON-EU: published, named in temperature_source and jobs status; step 0 gust and precipitation are null', async () => {
    const t = await tick(new Date(RUN.getTime() + 8 * H));
    expect(t.jobId).toBe('nwp@2026-11-26T00Z-fallback');
    expect(t.fallback).toBe('ICON-2I late: no complete run of the last 18 h: 2026-11-26T00Z lacks ASWDIR_S');
    expect(await waitForState(workers.queues.ingest, t.jobId!, ['completed', 'failed'], 120_000)).toBe('completed');
    expect(dwd.hits(iconEuPath(RUN, 1, 'T_2M'))).toBe(1);

    const store = new TileStore(root, { manifestCheckMs: 0 });
    expect(store.manifest('nwp')?.source).toMatchObject({ model: 'DWD ICON-EU', run: RUN.toISOString() });
    const step0 = (await store.sample('nwp', NODE.lat, NODE.lon, RUN.getTime())).values;
    expect(step0.wind_gust_10m).toBeNull();
    expect(step0.precipitation).toBeNull();
    const local = (p: string) => euFiles[p]!.replace(/\.bz2$/, '');
    // An instant field has its step 0: stored as grib_get reads it.
    expect(step0.temperature_2m!).toBeCloseTo(Number(grib(['-l', `${NODE.lat},${NODE.lon},1`, local(iconEuPath(RUN, 0, 'T_2M'))])) - 273.15, 2);
    const step1 = (await store.sample('nwp', NODE.lat, NODE.lon, RUN.getTime() + H)).values;
    expect(step1.temperature_2m!).toBeCloseTo(Number(grib(['-l', `${NODE.lat},${NODE.lon},1`, local(iconEuPath(RUN, 1, 'T_2M'))])) - 273.15, 2);
    expect(step1.wind_gust_10m!).toBeCloseTo(Number(grib(['-l', `${NODE.lat},${NODE.lon},1`, local(iconEuPath(RUN, 1, 'VMAX_10M'))])), 2);
    expect(Number(grib(['-p', 'stepRange', local(iconEuPath(RUN, 0, 'VMAX_10M'))]))).toBe(0);

    expect((await weather('2026-11-26T01:00Z')).temperature_source).toMatch(/^nwp DWD ICON-EU 2\.2 km bilinear, /);
    const status = formatStatus(await collectStatus({ redisUrl, prefix: '', root, config, queues: workers.queues, close: async () => {} }, RUN.getTime() + 9 * H));
    expect(status).toContain('FALLBACK      DWD ICON-EU used: ICON-2I late: no complete run of the last 18 h: 2026-11-26T00Z lacks ASWDIR_S');
  }, 180_000);

  it('once the ICON-2I run is complete, the next tick ingests it and temperature_source names ICON-2I', async () => {
    hub.publish(completeRun);
    const t = await tick(new Date(RUN.getTime() + 9 * H));
    expect(t.jobId).toBe('nwp@2026-11-26T00Z');
    expect(t.fallback).toBeUndefined();
    expect(await waitForState(workers.queues.ingest, t.jobId!, ['completed', 'failed'], 120_000)).toBe('completed');
    const store = new TileStore(root, { manifestCheckMs: 0 });
    expect(store.manifest('nwp')?.source.model).toBe('ICON-2I');
    const t2m = completeRun.variables.T_2M![0]!.path;
    const step1 = (await store.sample('nwp', NODE.lat, NODE.lon, RUN.getTime() + H)).values;
    expect(step1.temperature_2m!).toBeCloseTo(Number(grib(['-w', 'step=1', '-l', `${NODE.lat},${NODE.lon},1`, t2m])) - 273.15, 2);
    expect((await weather('2026-11-26T01:00Z')).temperature_source).toMatch(/^nwp ICON-2I 2\.2 km bilinear, /);
    const status = formatStatus(await collectStatus({ redisUrl, prefix: '', root, config, queues: workers.queues, close: async () => {} }, RUN.getTime() + 10 * H));
    expect(status).not.toContain('FALLBACK');
  }, 180_000);
});
