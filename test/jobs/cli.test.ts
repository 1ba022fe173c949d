/**
 * `meteopunto jobs ...` and `meteopunto worker` argument and environment
 * handling, run in-process against a real Redis with an in-process worker
 * and the loopback HTTP source.
 */
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, beforeEach, expect, inject, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { run as jobsCli } from '../../jobs/cli.js';
import { run as workerCli } from '../../jobs/cli-worker.js';
import { loadJobsConfig } from '../../jobs/config.js';
import { startWorkers, type RunningWorkers } from '../../jobs/worker.js';
import { describeShared } from '../support/shared-data.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { IFS_FILE, IFS_PATH, captureOutput, liveVersion, tempRoot, uniquePrefix } from './support/harness.js';

describeShared('jobs CLI', () => {
  const redisUrl = inject('redisUrl');
  let server: FileServer;
  let root: string;
  let workers: RunningWorkers | undefined;
  const saved = { ...process.env };

  beforeAll(async () => {
    server = await startFileServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.reset();
    root = tempRoot('cli');
    writeFileSync(
      join(root, 'jobs.json'),
      JSON.stringify({
        products: {
          nwp: {
            schedule: { cron: '20 * * * *' },
            run: { cycleHours: 12, availableAfterMinutes: 0 },
            source: { kind: 'http', urls: [`${server.url('')}/{yyyymmddHH}/ifs_{step:03}.grib`], steps: '3', timeouts: { idleSeconds: 2 } },
          },
        },
        retry: { attempts: 2, backoffSeconds: 0.1 },
      }),
    );
    Object.assign(process.env, { REDIS_URL: redisUrl, METEOPUNTO_DATA: root, METEOPUNTO_QUEUE_PREFIX: uniquePrefix() });
    delete process.env.METEOPUNTO_JOBS_CONFIG;
    return async () => {
      await workers?.close(0);
      workers = undefined;
      process.env = { ...saved };
      rmSync(root, { recursive: true, force: true });
    };
  });

  async function startWorker(syncSchedules = false): Promise<void> {
    const config = await loadJobsConfig(root);
    workers = await startWorkers({ redisUrl, prefix: process.env.METEOPUNTO_QUEUE_PREFIX!, root, config, runIngest, logger: pino({ level: 'silent' }), syncSchedules });
  }

  it('enqueue follows the job to its end with progress, and a second enqueue of the run adds nothing', async () => {
    server.routes.set(IFS_PATH, { body: readFileSync(IFS_FILE()) });
    await startWorker();
    const first = await captureOutput(() => jobsCli(['enqueue', 'nwp', '--run', '2021-08-01T12']));
    expect(first.code).toBe(0);
    expect(first.out).toContain('enqueued nwp@2021-08-01T12Z (run 2021-08-01T12:00:00.000Z) from http');
    expect(first.out).toMatch(/nwp@2021-08-01T12Z: published \S+\.zarr, 2021-08-01T15:00:00.000Z/);
    // Not a TTY here: one line per stage instead of a bar.
    expect(first.err).toMatch(/nwp@2021-08-01T12Z: (fetch|read|write|done) /);
    const second = await captureOutput(() => jobsCli(['enqueue', 'nwp', '--run', '2021080112']));
    expect(second.code).toBe(0);
    expect(second.out).toContain('job nwp@2021-08-01T12Z already exists (completed): not enqueued again');
    expect(server.hits(IFS_PATH)).toBe(1);
  });

  it('a failed job shows in status with its reason; retry runs it again once the source is fixed', async () => {
    server.routes.set(IFS_PATH, { body: Buffer.alloc(0), status: 403 });
    await startWorker();
    const queued = await captureOutput(() => jobsCli(['enqueue', 'nwp', '--run', '2021-08-01T12Z', '--no-wait']));
    expect(queued.code).toBe(0);
    expect(await captureOutput(() => jobsCli(['enqueue', 'nwp', '--run', '2021-08-01T12Z']))).toMatchObject({ code: 1 });

    const status = await captureOutput(() => jobsCli(['status', '--json']));
    const s = JSON.parse(status.out);
    expect(s.queues.ingest).toMatchObject({ failed: 1, waiting: 0, active: 0 });
    expect(s.recentFailures[0]).toMatchObject({ jobId: 'nwp@2021-08-01T12Z', product: 'nwp', attemptsMade: 1 });
    expect(s.recentFailures[0].reason).toContain('HTTP 403');
    expect(s.products.find((p: { product: string }) => p.product === 'nwp').lastSuccess).toBeUndefined();

    server.routes.set(IFS_PATH, { body: readFileSync(IFS_FILE()) });
    const retried = await captureOutput(() => jobsCli(['retry', 'nwp@2021-08-01T12Z']));
    expect(retried.code).toBe(0);
    expect(retried.out).toContain('moved back to waiting');
    expect(retried.out).toMatch(/published/);
    const after = JSON.parse((await captureOutput(() => jobsCli(['status', '--json']))).out);
    const nwp = after.products.find((p: { product: string }) => p.product === 'nwp');
    expect(nwp.lastSuccess.jobId).toBe('nwp@2021-08-01T12Z');
    expect(nwp.live.version).toBe(liveVersion(root));
    expect(nwp.live.run).toBe('2021-08-01T12:00:00.000Z');
    const text = await captureOutput(() => jobsCli(['status']));
    expect(text.out).toMatch(/ingest\s+waiting 0\s+active 0\s+delayed 0\s+failed 0\s+completed 1/);
    expect(text.out).toContain('last success  nwp@2021-08-01T12Z');
  });

  it('schedules lists the configured schedules, with the next run once a worker registered them', async () => {
    const before = JSON.parse((await captureOutput(() => jobsCli(['schedules', '--json']))).out);
    expect(before.schedules).toEqual([expect.objectContaining({ product: 'nwp', pattern: '20 * * * *', tz: 'UTC', registered: false })]);
    await startWorker(true);
    const after = JSON.parse((await captureOutput(() => jobsCli(['schedules', '--json']))).out);
    const next = after.schedules[0].next as string;
    expect(after.schedules[0].registered).toBe(true);
    // The next tick of "20 * * * *" is at minute 20 of this hour or the next one.
    expect(new Date(next).getUTCMinutes()).toBe(20);
    expect(Date.parse(next) - Date.now()).toBeGreaterThan(0);
    expect(Date.parse(next) - Date.now()).toBeLessThanOrEqual(3_600_000);
    const text = await captureOutput(() => jobsCli(['schedules']));
    expect(text.out).toMatch(/PRODUCT\s+SCHEDULE\s+TZ\s+NEXT RUN \(UTC\)\s+SOURCE/);
    expect(text.out).toContain(next);
  });

  it('usage errors exit 2 with a message; missing REDIS_URL exits 1 saying what to set', async () => {
    expect(await captureOutput(() => jobsCli([]))).toMatchObject({ code: 2 });
    expect((await captureOutput(() => jobsCli(['frobnicate']))).err).toContain("unknown command 'frobnicate'");
    expect(await captureOutput(() => jobsCli(['enqueue']))).toMatchObject({ code: 2 });
    const badRun = await captureOutput(() => jobsCli(['enqueue', 'nwp', '--run', 'yesterday']));
    expect(badRun).toMatchObject({ code: 2 });
    expect(badRun.err).toContain("--run: invalid run time 'yesterday'");
    expect(await captureOutput(() => jobsCli(['status', '--bogus']))).toMatchObject({ code: 2 });
    const unknown = await captureOutput(() => jobsCli(['enqueue', 'marine', '--no-wait']));
    expect(unknown.code).toBe(1);
    expect(unknown.err).toContain("product 'marine' has no source");
    expect((await captureOutput(() => workerCli(['--concurrency', '0']))).code).toBe(2);

    delete process.env.REDIS_URL;
    const noRedis = await captureOutput(() => workerCli([]));
    expect(noRedis.code).toBe(1);
    expect(noRedis.err).toContain('REDIS_URL is not set');
    expect((await captureOutput(() => jobsCli(['status']))).err).toContain('REDIS_URL is not set');
    process.env.REDIS_URL = 'redis://127.0.0.1:1';
    expect((await captureOutput(() => jobsCli(['status']))).err).toContain('cannot reach Redis at redis://127.0.0.1:1');
  });
});
