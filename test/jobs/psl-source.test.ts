/**
 * NOAA PSL 20CRv3 files through the PSL emulator
 * (test/support/emulators/noaa-psl.ts): the committed backfill example's
 * 20CRv3 URLs, with only the host swapped for the emulator's, fetch a year
 * written in PSL's layout by netCDF4-python (write_20crv3.py) through a 503
 * with Retry-After retried in place, and the year answers netCDF4-python's
 * value at a grid node; a year PSL does not have fails at once with PSL's
 * own 404 page title.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { backfillJob } from '../../jobs/backfill/plan.js';
import { parseJobsConfig } from '../../jobs/config.js';
import type { IngestJobData } from '../../jobs/job-types.js';
import { createIngestProcessor } from '../../jobs/processors/ingest.js';
import { TileStore } from '../../tiles/read/reader.js';
import { PSL_ROOT, pslFiles, startPslEmulator, type PslEmulator } from '../support/emulators/noaa-psl.js';
import { describeShared } from '../support/shared-data.js';
import { tempRoot } from './support/harness.js';

const REPO = resolve(import.meta.dirname, '../..');
const FIXTURES = join(REPO, 'test/api/history/fixtures');

describeShared('NOAA PSL 20CRv3 files (emulated download server)', () => {
  const files = mkdtempSync(join(tmpdir(), 'mp-psl-files-'));
  const root = tempRoot('psl');
  let psl: PslEmulator;

  beforeAll(async () => {
    execFileSync('/usr/bin/python3', [join(FIXTURES, 'write_20crv3.py'), JSON.stringify({ dir: files, year: 1925, first_day: '06-30', days: 2 })]);
    psl = await startPslEmulator({ files: pslFiles(files, readdirSync(files)) });
  });
  afterAll(async () => {
    await psl.close();
    rmSync(files, { recursive: true, force: true });
    rmSync(root, { recursive: true, force: true });
  });

  /** The committed example, its PSL host replaced by the emulator's, fast retries in place. */
  function example() {
    const raw = JSON.parse(readFileSync(join(REPO, 'jobs/examples/reanalysis-backfill.jobs.json'), 'utf8'));
    const src = raw.backfill['20crv3'].source;
    src.urls = src.urls.map((u: string) => u.replace('https://downloads.psl.noaa.gov', psl.origin));
    src.retryInPlace = { firstDelaySeconds: 0.05 };
    src.maxWaitSeconds = 60;
    return parseJobsConfig(raw, 'reanalysis-backfill.jobs.json');
  }

  const fakeJob = (id: string, data: IngestJobData) => ({ id, data, attemptsMade: 0, opts: { attempts: 3 }, updateProgress: async () => {} });

  it('the example’s PSL paths fetch the year through a 503 with Retry-After; the year answers netCDF4-python', async () => {
    const air = `${PSL_ROOT}/2mSI/air.2m.1925.nc`;
    psl.failNext(air, 1, 503, '1');
    const { id, data } = backfillJob(root, example(), 1925, '20crv3');
    const result = await createIngestProcessor({ root, runIngest })(fakeJob(id, data));
    expect(result).toMatchObject({ product: 'reanalysis', files: ['air.2m.1925.nc', 'rhum.2m.1925.nc', 'prmsl.1925.nc', 'uwnd.10m.1925.nc', 'vwnd.10m.1925.nc', 'hgt.sfc.nc'] });
    const tries = psl.requests.filter((r) => r.path === air);
    expect(tries.map((r) => r.status)).toEqual([503, 200]);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000);
    // PSL's index page lists what it holds.
    const index = await (await fetch(psl.url(`${PSL_ROOT}/2mSI/`))).text();
    expect(index).toContain('<a href="air.2m.1925.nc">air.2m.1925.nc</a>');

    // At the grid node 44° N 11° E (lat index 90 − 44 = 46, lon index 11) on 1925-07-01 12 UTC (step 12 of 3-hourly from 06-30 00 UTC).
    const k = Number(execFileSync('/usr/bin/python3', ['-c', 'import sys, netCDF4; d = netCDF4.Dataset(sys.argv[1]); print(float(d["air"][12, 46, 11]))', join(files, 'air.2m.1925.nc')], { encoding: 'utf8' }));
    const got = (await new TileStore(root, { manifestCheckMs: 0 }).sample('reanalysis/1925', 44, 11, Date.UTC(1925, 6, 1, 12), ['temperature_2m'])).values.temperature_2m!;
    expect(Math.abs(got - (k - 273.15))).toBeLessThanOrEqual(0.05);
  });

  it('a year PSL does not have fails at once (notFound: fail) with the title of PSL’s 404 page', async () => {
    const { id, data } = backfillJob(root, example(), 1926, '20crv3');
    const err = await createIngestProcessor({ root, runIngest })(fakeJob(id, data)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    // The year's files are fetched concurrently: whichever 404 comes back first names the failure.
    expect((err as Error).message).toMatch(/\/20thC_ReanV3\/[\w/.]+\.1926\.nc: HTTP 404 \(404 Not Found\)/);
    // notFound: fail means no retry: no file of the year was asked for twice.
    const paths = psl.requests.filter((r) => r.path.includes('.1926.nc')).map((r) => r.path);
    expect(paths.length).toBeGreaterThan(0);
    expect(new Set(paths).size).toBe(paths.length);
  });
});
