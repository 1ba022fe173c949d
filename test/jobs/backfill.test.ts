/**
 * Backfill: a 1925 year in the NOAA PSL 20CRv3 layout (per-variable
 * NetCDF4 files written by netCDF4-python, test/api/history/fixtures/
 * write_20crv3.py) served from a loopback HTTP server is backfilled by
 * `meteopunto backfill reanalysis` through real `meteopunto worker`
 * processes on a real Redis (unique queue prefix). The first worker is
 * SIGKILLed mid-download: nothing of 1925 is published, and a second worker
 * completes the year. Then weather.php?time=1925-07-01T12:00 answers the
 * values netCDF4-python computes from the same files (bilinear, altitude
 * correction from hgt.sfc done here).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { run as backfillCli } from '../../jobs/backfill/cli.js';
import { installTestKey, keyedInject, testAccess } from '../api/tile-fixture.js';
import { describeShared } from '../support/shared-data.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { captureOutput, tempRoot, uniquePrefix } from './support/harness.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

const FIXTURES = join(import.meta.dirname, '..', 'api', 'history', 'fixtures');
const py = (script: string, req: unknown): unknown =>
  JSON.parse(execFileSync('/usr/bin/python3', [join(FIXTURES, script), JSON.stringify(req)], { encoding: 'utf8', maxBuffer: 1 << 26 }));
const VARIABLE_FILES = ['air.2m', 'prmsl', 'uwnd.10m', 'vwnd.10m', 'rhum.2m'];
/** Florence, at 300 m. */
const POINT = { lat: 43.77, lon: 11.25, alt: 300 };


describeShared('backfill reanalysis from 20CRv3 files over loopback HTTP', () => {
  const redisUrl = inject('redisUrl');
  const files = mkdtempSync(join(tmpdir(), 'mp-20cr-'));
  const root = tempRoot('backfill');
  const prefix = uniquePrefix();
  const saved = { ...process.env };
  const children: WorkerProcess[] = [];
  let server: FileServer;

  beforeAll(async () => {
    py('write_20crv3.py', { dir: files, year: 1925, first_day: '06-30', days: 3 });
    server = await startFileServer();
    for (const name of readdirSync(files)) {
      const path = name === 'hgt.sfc.nc' ? '/Datasets/20thC_ReanV3/timeInvariantSI/hgt.sfc.nc' : `/Datasets/20thC_ReanV3/1925/${name}`;
      // The temperature file trickles on its first request, so that a worker can be killed mid-year.
      server.routes.set(path, { body: readFileSync(join(files, name)), ...(name.startsWith('air.') ? { slow: { chunk: 4000, everyMs: 100, count: 1 } } : {}) });
    }
    const base = server.url('/Datasets/20thC_ReanV3');
    writeFileSync(join(root, 'jobs.json'), JSON.stringify({
      products: {},
      backfill: {
        '20crv3': {
          source: {
            kind: 'http',
            urls: [...VARIABLE_FILES.map((v) => `${base}/{yyyy}/${v}.{yyyy}.nc`), `${base}/timeInvariantSI/hgt.sfc.nc`],
            notFound: 'fail',
            timeouts: { headersSeconds: 5, idleSeconds: 5, totalSeconds: 60 },
          },
        },
      },
      retry: { attempts: 3, backoffSeconds: 0.2 },
      worker: { lockSeconds: 2, stalledCheckSeconds: 0.5 },
    }));
    Object.assign(process.env, { REDIS_URL: redisUrl, METEOPUNTO_DATA: root, METEOPUNTO_QUEUE_PREFIX: prefix });
    delete process.env.METEOPUNTO_JOBS_CONFIG;
  });
  afterAll(async () => {
    for (const c of children) {
      if (c.child.exitCode === null && c.child.signalCode === null) {
        c.child.kill('SIGKILL');
        await c.exited;
      }
    }
    await server?.close();
    process.env = { ...saved };
    rmSync(root, { recursive: true, force: true });
    rmSync(files, { recursive: true, force: true });
  });

  function worker(name: string): WorkerProcess {
    const w = spawnWorker({ REDIS_URL: redisUrl, METEOPUNTO_DATA: root, METEOPUNTO_QUEUE_PREFIX: prefix }, ['--name', name]);
    children.push(w);
    return w;
  }

  it('a killed worker publishes nothing of the year; another completes it; time=1925-07-01T12:00 answers the files’ values', async () => {
    const a = worker('A');
    await a.waitForLine((l) => l.event === 'ready');
    const run = captureOutput(() => backfillCli(['reanalysis', '--from', '1925', '--to', '1925', '--source', '20crv3']));
    await server.onProgress('/Datasets/20thC_ReanV3/1925/air.2m.1925.nc', 20_000);
    a.child.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');
    expect(existsSync(join(root, 'tiles', 'reanalysis', '1925', 'current.json'))).toBe(false);

    const b = worker('B');
    const done = await run;
    expect(done.code).toBe(0);
    expect(done.out).toMatch(/disk estimate: 1 year\(s\), [\d.]+ MB of tiles at most/);
    expect(done.out).toContain('1925: enqueued reanalysis@1925 from 20crv3 (6 files)');
    expect(done.out).toContain('backfill: 1 year(s) published');
    // Not a TTY: plain progress lines, then the year and the overall line.
    expect(done.err).toMatch(/1925: (fetch|read|derive|write) \d+%/);
    expect(done.err).toContain('1925: published');
    expect(done.err).toMatch(/overall: 1\/1 years, [\d.]+ years\/h, ETA 0 s/);
    expect(server.hits('/Datasets/20thC_ReanV3/1925/air.2m.1925.nc')).toBe(2);
    b.child.kill('SIGTERM');
    await b.exited;

    const manifest = JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', '1925', 'current.json'), 'utf8'));
    expect(manifest.source.model).toBe('20CRv3');
    expect(Object.keys(manifest.variables).sort()).toEqual(['dew_point_2m', 'elevation', 'pressure_msl', 'relative_humidity_2m', 'temperature_2m', 'wind_u_10m', 'wind_v_10m']);

    const status = await captureOutput(() => backfillCli(['status', '--json']));
    const s = JSON.parse(status.out);
    expect(s.published).toEqual([1925]);
    expect(s.failed).toEqual([]);
    expect(s.missing).toContain(1920);
    expect(s.missing).not.toContain(1925);
    const again = await captureOutput(() => backfillCli(['reanalysis', '--from', '1925', '--to', '1925']));
    expect(again.code).toBe(0);
    expect(again.out).toContain('already published, skipped (--force redoes them): 1925');

    const [airK, hgt, prmslPa] = py('era5_reference.py', {
      cmd: 'points',
      queries: [
        { kind: 'nc', file: join(files, 'air.2m.1925.nc'), var: 'air', ...POINT, times: ['1925-07-01T12:00'], weights: [1] },
        { kind: 'nc', file: join(files, 'hgt.sfc.nc'), var: 'hgt', ...POINT, times: ['1925-07-01T12:00'], weights: [1] /* time-invariant: the time is not used */ },
        { kind: 'nc', file: join(files, 'prmsl.1925.nc'), var: 'prmsl', ...POINT, times: ['1925-07-01T12:00'], weights: [1] },
      ],
    }) as number[];
    await installTestKey(root, 'business');
    const app = await buildApp({ dataDir: root, access: testAccess(root) });
    try {
      const res = await keyedInject(app, `/api/v1/weather.php?lat=${POINT.lat}&lon=${POINT.lon}&alt=${POINT.alt}&time=1925-07-01T12:00`);
      expect(res.statusCode).toBe(200);
      const body = res.json();
      expect(Math.abs(body.temperature - (airK! - 273.15 + 0.0065 * (hgt! - POINT.alt)))).toBeLessThanOrEqual(0.06);
      expect(Math.abs(body.pressure_msl - prmslPa! / 100)).toBeLessThanOrEqual(0.06);
      expect(body.temperature_source).toBe(`reanalysis 20CRv3 1° bilinear, altitude-corrected ${Math.round(hgt!)} m → 300 m (alt), lapse 6.5 K/km`);
      expect(body.wind_gust).toBeNull();
      expect(body.temperature_trend_3h).not.toBeNull();
    } finally {
      await app.close();
    }
  }, 120_000);

  it('--force redoes a published year (a new version, same job id); bad years and sources are usage errors', async () => {
    const before = JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', '1925', 'current.json'), 'utf8')).version;
    const c = worker('C');
    await c.waitForLine((l) => l.event === 'ready');
    const forced = await captureOutput(() => backfillCli(['reanalysis', '--from', '1925', '--to', '1925', '--force']));
    expect(forced.code).toBe(0);
    expect(forced.out).toContain('1925: enqueued reanalysis@1925 from 20crv3 (6 files)');
    const after = JSON.parse(readFileSync(join(root, 'tiles', 'reanalysis', '1925', 'current.json'), 'utf8')).version;
    expect(after).not.toBe(before);
    c.child.kill('SIGTERM');
    await c.exited;

    const early = await captureOutput(() => backfillCli(['reanalysis', '--from', '1919', '--to', '1925']));
    expect(early.code).toBe(2);
    expect(early.err).toContain('--from: history starts at 1920');
    const source = await captureOutput(() => backfillCli(['reanalysis', '--from', '1925', '--to', '1925', '--source', 'era6']));
    expect(source.code).toBe(2);
    expect(source.err).toContain("--source must be era5, 20crv3 or auto, got 'era6'");
    // ERA5 years need an ERA5 source in the configuration: said, nothing enqueued.
    const era5 = await captureOutput(() => backfillCli(['reanalysis', '--from', '1950', '--to', '1950']));
    expect(era5.code).toBe(1);
    expect(era5.err).toContain("no backfill source 'era5'");
  }, 180_000);
});
