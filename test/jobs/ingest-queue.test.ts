/**
 * Ingest jobs through a real Redis and in-process BullMQ workers, fetching
 * real GRIB files from a real HTTP server on 127.0.0.1: publish, dedupe by
 * run, retries of transient failures, fast failure of a corrupt file, and the
 * live tiles untouched by every failure.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { parseJobsConfig, type JobsConfig } from '../../jobs/config.js';
import { configuredIngestJob } from '../../jobs/ingest-job.js';
import { enqueueIngest } from '../../jobs/queues.js';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.js';
import { TileStore } from '../../tiles/read/reader.js';
import { describeShared } from '../support/shared-data.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import {
  ERA5_FILE, IFS_FILE, IFS_PATH, IFS_RUN, IFS_VALID_MS, gribValueK, httpConfig, liveVersion, tempRoot, uniquePrefix, versionDirs, waitFor, waitForState,
} from './support/harness.js';

const silent = pino({ level: 'silent' });

describeShared('ingest queue (Redis + loopback HTTP)', () => {
  const redisUrl = inject('redisUrl');
  let server: FileServer;
  let root: string;
  let workers: RunningWorkers | undefined;
  const ifsBytes = readFileSync(IFS_FILE());

  beforeAll(async () => {
    server = await startFileServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.reset();
    root = tempRoot('queue');
    return async () => {
      await workers?.close(0);
      workers = undefined;
      rmSync(root, { recursive: true, force: true });
    };
  });

  async function start(config: JobsConfig): Promise<RunningWorkers> {
    workers = await startWorkers({ redisUrl, prefix: uniquePrefix(), root, config, runIngest, logger: silent, syncSchedules: false });
    return workers;
  }

  /** Publish the ERA5 file first: the "previous version" failures must leave live. */
  async function publishPrevious(): Promise<string> {
    const r = await runIngest({ root, product: 'nwp', files: [ERA5_FILE()] });
    return r.version;
  }

  async function enqueueRun(w: RunningWorkers, config: JobsConfig) {
    const { id, data } = configuredIngestJob(root, 'nwp', config.products.nwp!, { run: IFS_RUN, now: new Date(), trigger: 'operator' });
    return enqueueIngest(w.queues.ingest, config, id, data);
  }

  it('an enqueued run is fetched over HTTP and published; TileStore and the API serve the new version', async () => {
    const previous = await publishPrevious();
    server.routes.set(IFS_PATH, { body: ifsBytes });
    const config = httpConfig(server.url(''));
    const w = await start(config);
    const { id, duplicate } = await enqueueRun(w, config);
    expect(id).toBe('nwp@2021-08-01T12Z');
    expect(duplicate).toBe(false);
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'])).toBe('completed');

    const job = (await w.queues.ingest.getJob(id))!;
    const result = job.returnvalue as { version: string; files: string[]; fetchedBytes: number };
    expect(result.files).toEqual(['ifs_003.grib']);
    expect(result.fetchedBytes).toBe(ifsBytes.length);
    expect(job.progress).toMatchObject({ stage: 'done', fraction: 1 });
    expect(liveVersion(root)).toBe(result.version);
    expect(result.version).not.toBe(previous);
    expect(existsSync(join(root, 'downloads', 'nwp', id))).toBe(false);

    const store = new TileStore(root, { manifestCheckMs: 0 });
    expect(store.manifest('nwp')?.source).toMatchObject({ model: 'IFS-HRES (test)', run: '2021-08-01T12:00:00.000Z' });
    // Grid nodes on rows scanned west→east (even rows counted from 51N): the file uses alternative
    // row scanning, which the `grib_get -l` geo-iterator of this ecCodes ignores on odd rows.
    for (const [lat, lon] of [[45, 10], [45.2, 10.7], [41.8, 12.5]] as const) {
      const t = (await store.sample('nwp', lat, lon, IFS_VALID_MS)).values.temperature_2m!;
      expect(t, `${lat},${lon}`).toBeCloseTo(gribValueK(IFS_FILE(), lat, lon) - 273.15, 2);
    }

    const { buildApp } = await import('../../api/app.js');
    const app = await buildApp({ dataDir: root });
    try {
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.json().products.nwp).toMatchObject({ available: true, version: result.version, model: 'IFS-HRES (test)' });
    } finally {
      await app.close();
    }
  });

  it('the same run enqueued twice (also concurrently, also after completion) is ingested once', async () => {
    server.routes.set(IFS_PATH, { body: ifsBytes });
    const config = httpConfig(server.url(''));
    const w = await start(config);
    const [a, b] = await Promise.all([enqueueRun(w, config), enqueueRun(w, config)]);
    expect(a.id).toBe(b.id);
    await waitForState(w.queues.ingest, a.id, ['completed']);
    const again = await enqueueRun(w, config);
    expect(again).toMatchObject({ duplicate: true, state: 'completed' });
    // A schedule tick for the same run adds nothing either.
    const ticks = await Promise.all([1, 2].map(() => enqueueIngest(w.queues.ingest, config, a.id, configuredIngestJob(root, 'nwp', config.products.nwp!, { run: IFS_RUN, now: new Date(), trigger: 'schedule' }).data)));
    expect(ticks.every((t) => t.duplicate)).toBe(true);
    expect(await w.queues.ingest.getJobCounts('completed', 'waiting', 'active', 'delayed')).toEqual({ completed: 1, waiting: 0, active: 0, delayed: 0 });
    expect(server.hits(IFS_PATH)).toBe(1);
    expect(versionDirs(root)).toHaveLength(1);
  });

  it('a server answering 503 twice, then 200, is retried in place: one job attempt completes', async () => {
    server.routes.set(IFS_PATH, { body: ifsBytes, failFirst: { count: 2, status: 503 } });
    const config = httpConfig(server.url(''));
    const w = await start(config);
    const { id } = await enqueueRun(w, config);
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'])).toBe('completed');
    const job = (await w.queues.ingest.getJob(id))!;
    expect(job.attemptsStarted).toBe(1);
    expect(server.hits(IFS_PATH)).toBe(3);
    expect(liveVersion(root)).toBe((job.returnvalue as { version: string }).version);
  });

  it('a stalled server hits the idle timeout, and the retry in place completes', async () => {
    server.routes.set(IFS_PATH, { body: ifsBytes, stallFirst: 1 });
    const config = httpConfig(server.url(''));
    const w = await start(config);
    const { id } = await enqueueRun(w, config);
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'])).toBe('completed');
    expect((await w.queues.ingest.getJob(id))!.attemptsStarted).toBe(1);
    expect(server.hits(IFS_PATH)).toBe(2);
  });

  it('a server still failing at maxWaitSeconds fails the attempt; BullMQ retries the job, which then completes', async () => {
    server.routes.set(IFS_PATH, { body: ifsBytes, failFirst: { count: 1_000_000, status: 502 } });
    const config = httpConfig(server.url(''), { source: { maxWaitSeconds: 0.4 } });
    const w = await start(config);
    const { id } = await enqueueRun(w, config);
    await waitFor('the first attempt to fail', async () => ((await w.queues.ingest.getJob(id))?.attemptsMade ?? 0) >= 1 || undefined);
    const tries = server.hits(IFS_PATH);
    expect(tries).toBeGreaterThan(1); // retried in place within the first attempt
    server.routes.set(IFS_PATH, { body: ifsBytes });
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'])).toBe('completed');
    expect((await w.queues.ingest.getJob(id))!.attemptsMade).toBeGreaterThanOrEqual(1);
  });

  it('a body always cut short is retried, then fails with the length mismatch, and is never ingested', async () => {
    const previous = await publishPrevious();
    server.routes.set(IFS_PATH, { body: ifsBytes, truncate: { bytes: 30_000, count: Infinity } });
    const config = httpConfig(server.url(''), { source: { maxWaitSeconds: 0.5 } });
    const w = await start(config);
    const { id } = await enqueueRun(w, config);
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'])).toBe('failed');
    const job = (await w.queues.ingest.getJob(id))!;
    expect(job.attemptsMade).toBe(3);
    expect(job.failedReason).toContain(`received 30000 of ${ifsBytes.length} bytes`);
    expect(liveVersion(root)).toBe(previous);
    expect(versionDirs(root)).toEqual([previous]);
    expect(existsSync(join(root, 'downloads', 'nwp', id))).toBe(false);
  });

  it('a corrupt file fails at once with its reason (UnrecoverableError, one attempt); the previous tiles stay live', async () => {
    const previous = await publishPrevious();
    // A real GRIB cut in the middle of its data section, served with a correct Content-Length.
    server.routes.set(IFS_PATH, { body: ifsBytes.subarray(0, 20_000) });
    const config = httpConfig(server.url(''));
    const w = await start(config);
    const { id } = await enqueueRun(w, config);
    expect(await waitForState(w.queues.ingest, id, ['completed', 'failed'])).toBe('failed');
    const job = (await w.queues.ingest.getJob(id))!;
    expect(job.attemptsMade).toBe(1);
    expect(job.failedReason).toContain('ifs_003.grib');
    expect(server.hits(IFS_PATH)).toBe(1);
    expect(liveVersion(root)).toBe(previous);
    const store = new TileStore(root, { manifestCheckMs: 0 });
    const t = (await store.sample('nwp', 45, 10, Date.UTC(2017, 0, 1, 12))).values.temperature_2m!;
    expect(t).toBeCloseTo(gribValueK(ERA5_FILE(), 45, 10) - 273.15, 2);
  });

  it('inbox: a dropped file is ingested once and moved to done/; a corrupt one to failed/ with the reason', async () => {
    const inbox = join(root, 'inbox', 'nwp');
    mkdirSync(inbox, { recursive: true });
    const config = parseJobsConfig({ products: { nwp: { source: { kind: 'inbox', dir: 'inbox/nwp', settleSeconds: 0 } } }, retry: { attempts: 3, backoffSeconds: 0.1 } }, 'test');
    const w = await start(config);
    copyFileSync(IFS_FILE(), join(inbox, 'ifs.grib'));
    const first = configuredIngestJob(root, 'nwp', config.products.nwp!, { now: new Date(Date.UTC(2026, 0, 1, 10)), trigger: 'schedule' });
    await enqueueIngest(w.queues.ingest, config, first.id, first.data);
    expect(await waitForState(w.queues.ingest, first.id, ['completed', 'failed'])).toBe('completed');
    expect(readdirSync(join(inbox, 'done', first.id))).toEqual(['ifs.grib']);
    expect(readdirSync(inbox).sort()).toEqual(['done', 'processing']);
    const published = liveVersion(root);
    expect(published).toBe(((await w.queues.ingest.getJob(first.id))!.returnvalue as { version: string }).version);

    // The next tick finds nothing new: the file was picked up once.
    const second = configuredIngestJob(root, 'nwp', config.products.nwp!, { now: new Date(Date.UTC(2026, 0, 1, 11)), trigger: 'schedule' });
    await enqueueIngest(w.queues.ingest, config, second.id, second.data);
    expect(await waitForState(w.queues.ingest, second.id, ['completed', 'failed'])).toBe('completed');
    expect((await w.queues.ingest.getJob(second.id))!.returnvalue).toMatchObject({ nothingToDo: expect.stringContaining('inbox empty') });

    dropFile(join(inbox, 'bad.grib'), ifsBytes.subarray(0, 20_000));
    const third = configuredIngestJob(root, 'nwp', config.products.nwp!, { now: new Date(Date.UTC(2026, 0, 1, 12)), trigger: 'schedule' });
    await enqueueIngest(w.queues.ingest, config, third.id, third.data);
    expect(await waitForState(w.queues.ingest, third.id, ['completed', 'failed'])).toBe('failed');
    expect((await w.queues.ingest.getJob(third.id))!.attemptsMade).toBe(1);
    expect(readdirSync(join(inbox, 'failed', third.id)).sort()).toEqual(['REASON.txt', 'bad.grib']);
    expect(readFileSync(join(inbox, 'failed', third.id, 'REASON.txt'), 'utf8')).toContain('bad.grib');
    expect(liveVersion(root)).toBe(published);
  });
});

/** Written under a temporary name and renamed, as producers are told to do. */
function dropFile(path: string, bytes: Buffer): void {
  writeFileSync(`${path}.part`, bytes);
  renameSync(`${path}.part`, path);
}
