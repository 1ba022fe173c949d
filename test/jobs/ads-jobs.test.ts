/**
 * ADS/CDS jobs end to end on a real Redis, against the Retrieve API emulator
 * (test/support/emulators/ads.ts): a 429 mid-poll costs no second job and
 * the zipped NetCDF reply (netcdf_zip of the real CAMS Europe files) is
 * ingested and answers netCDF4-python's values; a `meteopunto worker`
 * SIGKILLed mid-poll is followed by one that re-attaches to the same remote
 * job id; a failed remote job shows the data store's reason in `jobs
 * status`, a state the API does not define fails at once; an ERA5 year asked
 * per month (GRIB in the CDS's layout) is staged a month at a time into one
 * year store holding ecCodes' values. Submissions are counted at the
 * emulator; the key never appears in job data or worker logs.
 */
import { execFileSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Queue } from 'bullmq';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { backfillJob } from '../../jobs/backfill/plan.js';
import { run as jobsCli } from '../../jobs/cli.js';
import { parseJobsConfig, type JobsConfig } from '../../jobs/config.js';
import { configuredIngestJob } from '../../jobs/ingest-job.js';
import type { IngestJobData } from '../../jobs/job-types.js';
import { enqueueIngest } from '../../jobs/queues.js';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.js';
import { TileStore } from '../../tiles/read/reader.js';
import { startAdsEmulator, type AdsEmulator, type AdsJobPlan, type Submission } from '../support/emulators/ads.js';
import { CAMS_FILES, era5Grib } from '../support/emulators/ads-content.js';
import { describeShared } from '../support/shared-data.js';
import { captureOutput, tempRoot, uniquePrefix, waitFor, waitForState } from './support/harness.js';
import { leaksOf } from '../support/secret-leaks.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

const REPO = resolve(import.meta.dirname, '../..');
const KEY = 'f00dfeed-1234-ads-personal-key';
const JAEN = '36,44,-10,4.5';
const RUN = new Date('2024-05-10T00:00:00Z');
const silent = pino({ level: 'silent' });

/** netCDF4-python's bilinear value of a CAMS variable (the cams product test's fixture). */
function camsReference(file: string, v: string, q: { lat: number; lon: number; time: string }): number {
  const out = execFileSync('/usr/bin/python3', [join(REPO, 'test/ingest/products/fixtures/cams_bilinear.py'), JSON.stringify({ file, queries: [{ var: v, ...q }] })], { encoding: 'utf8' });
  return (JSON.parse(out) as number[])[0]!;
}

describeShared('ADS jobs on Redis against the Retrieve API emulator', () => {
  const redisUrl = inject('redisUrl');
  let ads: AdsEmulator;
  let plan: (s: Submission) => AdsJobPlan;
  let root: string;
  let prefix: string;
  let workers: RunningWorkers | undefined;
  const children: WorkerProcess[] = [];
  const queues: Queue[] = [];
  const saved = { ...process.env };

  beforeAll(async () => {
    ads = await startAdsEmulator({ token: KEY, plan: (s) => plan(s) });
  });
  afterAll(() => ads.close());
  beforeEach(() => {
    ads.requests.length = 0;
    ads.submissions.length = 0;
    root = tempRoot('ads-jobs');
    prefix = uniquePrefix();
    Object.assign(process.env, { METEOPUNTO_ADS_KEY: KEY, CDS_API_KEY: KEY, METEOPUNTO_DOMAIN: JAEN, REDIS_URL: redisUrl, METEOPUNTO_DATA: root, METEOPUNTO_QUEUE_PREFIX: prefix });
    delete process.env.METEOPUNTO_JOBS_CONFIG;
    return async () => {
      await workers?.close(0);
      workers = undefined;
      for (const c of children.splice(0)) {
        if (c.child.exitCode === null && c.child.signalCode === null) {
          c.child.kill('SIGKILL');
          await c.exited;
        }
      }
      for (const q of queues.splice(0)) await q.close();
      process.env = { ...saved };
      rmSync(root, { recursive: true, force: true });
    };
  });

  function camsConfig(): JobsConfig {
    const json = {
      products: {
        cams: {
          run: { cycleHours: 24, availableAfterMinutes: 0 },
          model: 'CAMS Europe ENSEMBLE (emulated ADS)',
          source: {
            kind: 'ads', api: ads.api, dataset: 'cams-europe-air-quality-forecasts', keyEnv: 'METEOPUNTO_ADS_KEY',
            request: { variable: ['ozone', 'olive_pollen'], model: ['ensemble'], level: ['0'], date: ['{yyyy}-{mm}-{dd}/{yyyy}-{mm}-{dd}'], type: ['forecast'], time: ['00:00'], leadtime_hour: ['0'], data_format: 'netcdf_zip' },
            fileName: 'cams-europe-{yyyymmdd}.zip', pollSeconds: 0.05, maxWaitSeconds: 60, retryInPlace: { firstDelaySeconds: 0.05, maxDelaySeconds: 0.2 },
          },
        },
      },
      retry: { attempts: 3, backoffSeconds: 0.2 },
      worker: { lockSeconds: 3, stalledCheckSeconds: 0.5, shutdownGraceSeconds: 2 },
    };
    writeFileSync(join(root, 'jobs.json'), JSON.stringify(json));
    return parseJobsConfig(json, 'jobs.json');
  }

  async function inProcess(config: JobsConfig, ingest: typeof runIngest = runIngest): Promise<RunningWorkers> {
    workers = await startWorkers({ redisUrl, prefix, root, config, runIngest: ingest, logger: silent, syncSchedules: false });
    return workers;
  }

  function ingestQueue(): Queue {
    const q = new Queue('ingest', { connection: { url: redisUrl }, prefix });
    queues.push(q);
    return q;
  }

  it('a 429 mid-poll costs no second job; the netcdf_zip reply is unpacked and ingested, answering netCDF4-python’s values', async () => {
    plan = () => ({ accepted: 1, running: 2, pollErrors: { 3: { status: 429, retryAfter: '1' } }, result: { files: CAMS_FILES(), zip: true } });
    const config = camsConfig();
    const w = await inProcess(config);
    const { id, data } = configuredIngestJob(root, 'cams', config.products.cams!, { run: RUN, now: new Date(), trigger: 'operator' });
    await enqueueIngest(w.queues.ingest, config, id, data);
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'], 90_000)).toBe('completed');

    expect(ads.submissions).toHaveLength(1);
    const jobID = ads.submissions[0]!.jobID;
    const polls = ads.polls(jobID);
    expect(polls.map((p) => p.status)).toContain(429);
    const i = polls.findIndex((p) => p.status === 429);
    expect(polls[i + 1]!.at - polls[i]!.at).toBeGreaterThanOrEqual(1000);
    const job = (await w.queues.ingest.getJob(id))!;
    expect(job.attemptsStarted).toBe(1);
    expect((job.data as IngestJobData).remote).toEqual({ request: jobID });
    expect((job.returnvalue as { files: string[] }).files).toEqual(['2024AnalisisPolem.nc', '2024AnalisisContam.nc']);
    expect(JSON.stringify([job.data, job.returnvalue, job.progress])).not.toContain(KEY);

    const store = new TileStore(root, { manifestCheckMs: 0 });
    const q = { lat: 38.12, lon: -2.8, time: '2024-05-10T13:30:00Z' };
    const got = (await store.sample('cams', q.lat, q.lon, Date.parse(q.time))).values;
    const ozone = camsReference(CAMS_FILES()[1]!, 'o3_conc', q);
    expect(Math.abs(got.ozone! - ozone)).toBeLessThanOrEqual(0.01 * ozone);
  });

  it('a failed remote job fails at once and `jobs status` shows the data store’s reason; an undefined state fails at once, named', async () => {
    const reason = 'the request you have submitted is not valid: leadtime_hour 120 is not available';
    // The run of the 10th fails on the data store; the run of the 11th reaches a state the API does not define.
    plan = (s) => (String(s.inputs.date).startsWith('2024-05-10') ? { end: { status: 'failed', reason } } : { accepted: 1, running: 0, end: { status: 'queued_for_archive' } });
    const config = camsConfig();
    const w = await inProcess(config);
    const { id, data } = configuredIngestJob(root, 'cams', config.products.cams!, { run: RUN, now: new Date(), trigger: 'operator' });
    await enqueueIngest(w.queues.ingest, config, id, data);
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'], 60_000)).toBe('failed');
    expect((await w.queues.ingest.getJob(id))!.attemptsMade).toBe(1);
    const status = await captureOutput(() => jobsCli(['status']));
    expect(status.code).toBe(0);
    expect(status.out).toContain(`ADS job ${ads.submissions[0]!.jobID} for cams-europe-air-quality-forecasts (request) failed: The job has failed: ${reason}`);
    expect(status.out).not.toContain(KEY);

    const next = configuredIngestJob(root, 'cams', config.products.cams!, { run: new Date(RUN.getTime() + 86_400_000), now: new Date(), trigger: 'operator' });
    await enqueueIngest(w.queues.ingest, config, next.id, next.data);
    expect(await waitForState(w.queues.ingest, next.id, ['completed', 'failed'], 60_000)).toBe('failed');
    const b = (await w.queues.ingest.getJob(next.id))!;
    expect(b.attemptsMade).toBe(1);
    expect(b.failedReason).toMatch(/in unknown state 'queued_for_archive'/);
    expect(ads.polls(ads.submissions[1]!.jobID)).toHaveLength(2);
  });

  it('a worker SIGKILLed mid-poll: the next worker re-attaches to the same remote job, no second submission', async () => {
    plan = () => ({ hold: true, result: { files: CAMS_FILES(), zip: true } });
    const config = camsConfig();
    const env = { REDIS_URL: redisUrl, METEOPUNTO_DATA: root, METEOPUNTO_QUEUE_PREFIX: prefix, METEOPUNTO_ADS_KEY: KEY, METEOPUNTO_DOMAIN: JAEN };
    const a = spawnWorker(env, ['--name', 'A']);
    children.push(a);
    await a.waitForLine((l) => l.event === 'ready');
    const q = ingestQueue();
    const { id, data } = configuredIngestJob(root, 'cams', config.products.cams!, { run: RUN, now: new Date(), trigger: 'operator' });
    await enqueueIngest(q as never, config, id, data);
    const jobID = await waitFor('a submission', () => ads.submissions[0]?.jobID);
    await ads.polled(jobID, 3);
    // The id is in the job's data before the first poll.
    expect(((await q.getJob(id))!.data as IngestJobData).remote).toEqual({ request: jobID });
    a.child.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');
    const before = ads.polls(jobID).length;

    const b = spawnWorker(env, ['--name', 'B']);
    children.push(b);
    await ads.polled(jobID, before + 1);
    ads.release(jobID);
    expect(await waitForState(q, id, ['completed', 'failed'], 90_000)).toBe('completed');
    expect(ads.submissions).toHaveLength(1);
    const job = (await q.getJob(id))!;
    expect(job.processedBy).toBe('B');
    expect((job.returnvalue as { files: string[] }).files).toHaveLength(2);
    b.child.kill('SIGTERM');
    await b.exited;
    for (const w of [a, b]) {
      // In no encoding a log line could carry it (as written, any case, percent-encoded, JSON escapes, base64, hex).
      expect(leaksOf(`${JSON.stringify(w.lines)}\n${w.stderr()}`, KEY)).toEqual([]);
    }
  });

  it('ERA5 asked a month per request (geopotential once): the months are staged one file at a time into one year, equal to ecCodes', async () => {
    process.env.METEOPUNTO_DOMAIN = '';
    const work = tempRoot('era5-emu');
    // The file each request was answered with, by month ('invariant' for geopotential): what the job downloads, byte for byte.
    const made = new Map<string, string>();
    plan = (s) => {
      const f = era5Grib(s.inputs, work, `r${made.size + 1}.grib`);
      made.set(String(s.inputs.variable) === 'geopotential' ? 'invariant' : String(s.inputs.month), f);
      return { accepted: 0, running: 1, result: { files: [f] } };
    };
    const months = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));
    const config = parseJobsConfig({
      products: {},
      backfill: {
        era5: {
          source: {
            kind: 'ads', api: ads.api, dataset: 'reanalysis-era5-single-levels', keyEnv: 'CDS_API_KEY', pollSeconds: 0.05,
            // 23 UTC: a 31-day month ends on an hour of the 18 UTC run whose next hours open the month after.
            request: { product_type: ['reanalysis'], variable: ['2m_temperature', 'total_precipitation', 'geopotential'], year: '{yyyy}', month: months, day: ['01', '28', '31'], time: ['00:00', '06:00', '12:00', '18:00', '23:00'], data_format: 'grib' },
            fileName: 'era5-italy-{yyyy}.grib', split: 'month', invariantVariables: ['geopotential'], parallel: 2,
          },
        },
      },
      retry: { attempts: 2, backoffSeconds: 0.2 },
    }, 'jobs.json');
    // What the ingest says while it runs (the job's progress keeps only the latest).
    const said: string[] = [];
    const watched: typeof runIngest = (req) => runIngest({ ...req, onProgress: (p) => (said.push(p.message ?? ''), req.onProgress?.(p)) });
    const w = await inProcess(config, watched);
    const { id, data } = backfillJob(root, config, 2017, 'era5');
    await enqueueIngest(w.queues.ingest, config, id, data);
    const files = ['invariant', ...months].map((m) => `era5-italy-2017-${m}.grib`);
    const ecc = (request: string, where: string) => Number(execFileSync('grib_get', ['-l', '45,10,1', '-w', where, made.get(request)!], { encoding: 'utf8' }).trim());
    let expected: { z: number; tp: number; t2m: number };
    try {
      expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'], 180_000)).toBe('completed');
      // ecCodes' values at the grid node 45 N 10 E.
      expected = {
        z: ecc('invariant', 'shortName=z'),
        // 1 February 00 UTC: the 18 UTC run of 31 January, whose 23 UTC hour is in January's file.
        tp: ecc('02', 'shortName=tp,dataDate=20170131,dataTime=1800,endStep=6'),
        t2m: ecc('11', 'shortName=2t,dataDate=20171128,dataTime=1800'),
      };
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
    // The requests are submitted concurrently: which reaches the data store first is not fixed.
    expect(ads.submissions.map((s) => [s.inputs.variable, s.inputs.month, s.inputs.day].join(' ')).sort()).toEqual([
      ...months.map((m) => `2m_temperature,total_precipitation ${m} ${['02', '04', '06', '09', '11'].includes(m) ? '01,28' : '01,28,31'}`),
      'geopotential 01 01',
    ]);
    const job = (await w.queues.ingest.getJob(id))!;
    // Each result its own file, the invariant one first, then the months in time order ...
    expect((job.returnvalue as { files: string[] }).files).toEqual(files);
    const remote = (job.data as IngestJobData).remote!;
    expect(Object.keys(remote).sort()).toEqual([...months.map((m) => `2017-${m}`), 'invariant']);
    expect(Object.values(remote).sort()).toEqual(ads.submissions.map((s) => s.jobID).sort());
    // ... staged one at a time (ingest/products/reanalysis/streamed.ts), never the whole-year path.
    expect(said.filter((m) => / staging it$/.test(m))).toEqual(files.map((f, k) => `reading ${f} (${k + 1}/13), staging it`));

    const store = new TileStore(root, { manifestCheckMs: 0 });
    const m = store.manifest('reanalysis/2017')!;
    const hours = [0, 6, 12, 18, 23];
    const days = months.flatMap((mo, k) => (['02', '04', '06', '09', '11'].includes(mo) ? [1, 28] : [1, 28, 31]).map((d) => [k, d] as const));
    expect(m.times.map((t) => Date.parse(t))).toEqual(days.flatMap(([mo, d]) => hours.map((h) => Date.UTC(2017, mo, d, h))));
    expect(m.source.files).toEqual(files);
    // The first hour's amount starts at 23 UTC on 31 December 2016: that hour opens 2016's store, which 1 January 00 UTC closes.
    expect(store.manifest('reanalysis/2016')!.times).toEqual(['2016-12-31T23:00:00.000Z', '2017-01-01T00:00:00.000Z']);
    const v = async (t: number) => (await store.sample('reanalysis/2017', 45, 10, t)).values;
    // ecCodes' values, in the store's units: K → °C, m → mm, geopotential → m (÷ g).
    expect(Math.abs((await v(Date.UTC(2017, 10, 28, 18))).temperature_2m! - (expected.t2m - 273.15))).toBeLessThanOrEqual(0.05);
    expect(Math.abs((await v(Date.UTC(2017, 1, 1, 0))).precipitation! - expected.tp * 1000)).toBeLessThanOrEqual(0.05);
    expect(Math.abs((await v(Date.UTC(2017, 1, 1, 0))).elevation! - expected.z / 9.80665)).toBeLessThanOrEqual(0.05);
  });
});
