/**
 * `meteopunto worker` processes against one real Redis: a schedule fires once
 * per tick with two workers running, its publish announced on Redis; a worker SIGKILLed mid-download leaves the
 * previous version served and the job completes on another worker; SIGTERM
 * hands a running job back and exits 0.
 */
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { parseJobsConfig } from '../../jobs/config.js';
import { configuredIngestJob, runForTick } from '../../jobs/ingest-job.js';
import { enqueueIngest } from '../../jobs/queues.js';
import { TileStore } from '../../tiles/read/reader.js';
import { followPublished } from '../../tiles/publish-channel.js';
import { describeShared } from '../support/shared-data.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { ERA5_FILE, IFS_FILE, IFS_PATH, IFS_RUN, IFS_VALID_MS, gribValueK, liveVersion, tempRoot, uniquePrefix, versionDirs, waitForState } from './support/harness.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

describeShared('worker processes', () => {
  const redisUrl = inject('redisUrl');
  let server: FileServer;
  let root: string;
  let prefix: string;
  const children: WorkerProcess[] = [];
  const queues: Queue[] = [];
  const ifsBytes = readFileSync(IFS_FILE());

  beforeAll(async () => {
    server = await startFileServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.reset();
    root = tempRoot('proc');
    prefix = uniquePrefix();
    return async () => {
      for (const c of children.splice(0)) {
        if (c.child.exitCode === null && c.child.signalCode === null) {
          c.child.kill('SIGKILL');
          await c.exited;
        }
      }
      for (const q of queues.splice(0)) await q.close();
      rmSync(root, { recursive: true, force: true });
    };
  });

  function writeConfig(json: object): string {
    const path = join(root, 'jobs.json');
    writeFileSync(path, JSON.stringify(json, null, 2));
    return path;
  }
  function worker(name: string): WorkerProcess {
    const w = spawnWorker({ REDIS_URL: redisUrl, METEOPUNTO_DATA: root, METEOPUNTO_QUEUE_PREFIX: prefix }, ['--name', name]);
    children.push(w);
    return w;
  }
  function ingestQueue(): Queue {
    const q = new Queue('ingest', { connection: { url: redisUrl }, prefix });
    queues.push(q);
    return q;
  }
  const httpProduct = (extra: object = {}) => ({
    run: { cycleHours: 24, availableAfterMinutes: 0 },
    source: { kind: 'http', urls: [`${server.url('')}/{yyyymmddHH}/ifs_{step:03}.grib`], steps: '3', timeouts: { headersSeconds: 2, idleSeconds: 2, totalSeconds: 30 } },
    ...extra,
  });

  it('a schedule ticking every second fires once per tick with two workers, and its run is ingested once', async () => {
    const jobsJson = { products: { nwp: httpProduct({ schedule: { everySeconds: 1 } }) }, retry: { attempts: 2, backoffSeconds: 0.2 }, worker: { lockSeconds: 5, stalledCheckSeconds: 1 } };
    writeConfig(jobsJson);
    // The run a tick asks for today, and tomorrow's in case the test straddles 00 UTC.
    const cfg = parseJobsConfig(jobsJson, 'jobs.json').products.nwp!;
    const now = Date.now();
    const runPaths = [now, now + 86_400_000].map((t) => `/${runForTick(cfg, new Date(t)).toISOString().slice(0, 13).replace(/[-T]/g, '')}/ifs_003.grib`);
    for (const p of runPaths) server.routes.set(p, { body: ifsBytes });

    // Each publish is announced to the API servers (tiles/publish-channel.ts).
    const announced: string[][] = [];
    const follower = followPublished(redisUrl, (stores) => announced.push(stores));
    await follower.ready;
    const a = worker('A');
    const b = worker('B');
    await Promise.all([a, b].map((w) => w.waitForLine((l) => l.event === 'ready')));
    // Let the schedule tick at least four times with both workers competing for the ticks.
    const ticks = () => [...a.lines, ...b.lines].filter((l) => l.event === 'completed' && l.queue === 'schedule');
    const until = Date.now() + 20_000;
    while (ticks().length < 4 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    a.child.kill('SIGTERM');
    b.child.kill('SIGTERM');
    expect((await a.exited).code).toBe(0);
    expect((await b.exited).code).toBe(0);

    const done = ticks();
    expect(done.length).toBeGreaterThanOrEqual(4);
    const ids = done.map((l) => l.jobId!);
    expect(new Set(ids).size).toBe(ids.length); // no tick processed twice
    const millis = ids.map((id) => Number(id.split(':').pop())).sort((x, y) => x - y);
    for (let i = 1; i < millis.length; i++) expect(millis[i]! - millis[i - 1]!).toBe(1000); // one job per tick, none skipped
    // Every tick asked for the same run: one ingest, one download.
    const ingested = [...a.lines, ...b.lines].filter((l) => l.event === 'completed' && l.queue === 'ingest');
    expect(ingested.length).toBeGreaterThanOrEqual(1);
    expect(new Set(ingested.map((l) => l.jobId)).size).toBe(ingested.length);
    expect(runPaths.reduce((n, p) => n + server.hits(p), 0)).toBe(ingested.length);
    expect(liveVersion(root)).toBeDefined();
    // At least one ["nwp"] per ingest (other suites on this Redis may announce too).
    await follower.close();
    expect(announced.filter((m) => m.length === 1 && m[0] === 'nwp').length).toBeGreaterThanOrEqual(ingested.length);
  });

  it('a worker SIGKILLed mid-download leaves the previous version served; another worker completes the job', async () => {
    const previous = (await runIngest({ root, product: 'nwp', files: [ERA5_FILE()] })).version;
    writeConfig({ products: { nwp: httpProduct() }, retry: { attempts: 3, backoffSeconds: 0.2 }, worker: { lockSeconds: 2, stalledCheckSeconds: 0.5 } });
    // First request: 50 KB at 2 KB per 100 ms (2.5 s); later requests at full speed.
    server.routes.set(IFS_PATH, { body: ifsBytes, slow: { chunk: 2000, everyMs: 100, count: 1 } });
    const config = parseJobsConfig(JSON.parse(readFileSync(join(root, 'jobs.json'), 'utf8')), 'jobs.json');
    const q = ingestQueue();
    const { id, data } = configuredIngestJob(root, 'nwp', config.products.nwp!, { run: IFS_RUN, now: new Date(), trigger: 'operator' });

    const a = worker('A');
    await a.waitForLine((l) => l.event === 'ready');
    await enqueueIngest(q as never, config, id, data);
    await server.onProgress(IFS_PATH, 16_000);
    a.child.kill('SIGKILL');
    expect((await a.exited).signal).toBe('SIGKILL');

    // What the killed worker left: a .part file, never a complete-looking one, and the old version live.
    const dl = join(root, 'downloads', 'nwp', id);
    expect(readdirSync(dl)).toEqual(['ifs_003.grib.part']);
    expect(await q.getJobState(id)).toBe('active');
    const store = new TileStore(root, { manifestCheckMs: 0 });
    expect(store.manifest('nwp')?.version).toBe(previous);
    const { buildApp } = await import('../../api/app.js');
    const app = await buildApp({ dataDir: root });
    try {
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json().products.nwp.version).toBe(previous);

      const b = worker('B');
      expect(await waitForState(q, id, ['completed', 'failed'], 40_000)).toBe('completed');
      const job = (await q.getJob(id))!;
      expect(job.attemptsStarted).toBe(2);
      expect(job.attemptsMade).toBe(1);
      expect(job.processedBy).toBe('B');
      await b.waitForLine((l) => l.event === 'stalled' && l.jobId === id).catch(() => undefined); // any live worker may detect it
      const version = (job.returnvalue as { version: string }).version;
      expect(liveVersion(root)).toBe(version);
      expect(versionDirs(root).sort()).toEqual([previous, version].sort());
      expect(existsSync(dl)).toBe(false);
      expect(server.hits(IFS_PATH)).toBe(2);
      expect((await app.inject({ method: 'GET', url: '/healthz' })).json().products.nwp.version).toBe(version);
      // A grid node of the file (ingest-queue.test.ts): the stored value is grib_get's.
      expect((await store.sample('nwp', 45, 10, IFS_VALID_MS)).values.temperature_2m!).toBeCloseTo(gribValueK(IFS_FILE(), 45, 10) - 273.15, 2);
      b.child.kill('SIGTERM');
      expect((await b.exited).code).toBe(0);
    } finally {
      await app.close();
    }
  });

  it('SIGTERM with a job running past the grace period hands it back unused and exits 0; the next worker runs it', async () => {
    writeConfig({ products: { nwp: httpProduct() }, retry: { attempts: 1, backoffSeconds: 0.2 }, worker: { lockSeconds: 5, stalledCheckSeconds: 1, shutdownGraceSeconds: 0.3 } });
    server.routes.set(IFS_PATH, { body: ifsBytes, slow: { chunk: 1000, everyMs: 100, count: 1 } });
    const config = parseJobsConfig(JSON.parse(readFileSync(join(root, 'jobs.json'), 'utf8')), 'jobs.json');
    const q = ingestQueue();
    const { id, data } = configuredIngestJob(root, 'nwp', config.products.nwp!, { run: IFS_RUN, now: new Date(), trigger: 'operator' });

    const a = worker('A');
    await a.waitForLine((l) => l.event === 'ready');
    await enqueueIngest(q as never, config, id, data);
    await server.onProgress(IFS_PATH, 5000);
    a.child.kill('SIGTERM');
    expect((await a.exited).code).toBe(0);
    expect(a.lines.some((l) => l.event === 'shutdown-cancel')).toBe(true);
    expect(['delayed', 'waiting']).toContain(await q.getJobState(id));
    const handedBack = (await q.getJob(id))!;
    expect(handedBack.attemptsMade).toBe(0); // with attempts: 1, a counted failure would have been final
    expect(liveVersion(root)).toBeUndefined();

    const b = worker('B');
    expect(await waitForState(q, id, ['completed', 'failed'], 30_000)).toBe('completed');
    expect(liveVersion(root)).toBe(((await q.getJob(id))!.returnvalue as { version: string }).version);
    b.child.kill('SIGTERM');
    expect((await b.exited).code).toBe(0);
  });
});
