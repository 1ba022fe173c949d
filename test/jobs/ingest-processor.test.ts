/**
 * The ingest processor as a plain function (no Redis): real files, real
 * runIngest, real tile store. Permanent errors become UnrecoverableError;
 * transient ones are rethrown for BullMQ to retry, keeping completed downloads.
 */
import { existsSync, readdirSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { UnrecoverableError } from 'bullmq';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { createIngestProcessor, type IngestJob } from '../../jobs/processors/ingest.js';
import type { IngestJobData, JobProgressInfo } from '../../jobs/job-types.js';
import { SourceError } from '../../jobs/sources/source-error.js';
import { TileStore } from '../../tiles/read/reader.js';
import { describeShared } from '../support/shared-data.js';
import { startFileServer, type FileServer } from './support/file-server.js';
import { IFS_FILE, IFS_VALID_MS, gribValueK, liveVersion, tempRoot } from './support/harness.js';

function fakeJob(id: string, data: IngestJobData, attemptsMade = 0, attempts = 3) {
  const progress: JobProgressInfo[] = [];
  const job: IngestJob = { id, data, attemptsMade, opts: { attempts }, updateProgress: async (p) => void progress.push(p as unknown as JobProgressInfo) };
  return { job, progress };
}

describeShared('ingest processor (no Redis)', () => {
  let server: FileServer;
  const roots: string[] = [];
  beforeAll(async () => {
    server = await startFileServer();
  });
  afterAll(async () => {
    await server.close();
    for (const r of roots) rmSync(r, { recursive: true, force: true });
  });
  const root = () => {
    const r = tempRoot('proc');
    roots.push(r);
    return r;
  };

  it('ingests a local real file, publishes it, and reports progress from fetch to done', async () => {
    const r = root();
    const ingest = createIngestProcessor({ root: r, runIngest, progressIntervalMs: 0 });
    const { job, progress } = fakeJob('nwp@files-1', { product: 'nwp', source: { kind: 'local', paths: [IFS_FILE()] }, trigger: 'operator' });
    const result = await ingest(job);
    if (!('version' in result)) throw new Error('expected a publish');
    expect(result).toMatchObject({ product: 'nwp', times: 1, from: '2021-08-01T15:00:00.000Z', variables: ['temperature_2m'], files: ['alternate-scanning.grib'] });
    expect(liveVersion(r)).toBe(result.version);
    const t = (await new TileStore(r).sample('nwp', 45, 10, IFS_VALID_MS)).values.temperature_2m!;
    expect(t).toBeCloseTo(gribValueK(IFS_FILE(), 45, 10) - 273.15, 2);
    const stages = progress.map((p) => p.stage);
    expect(stages[0]).toBe('fetch');
    expect(stages).toContain('read');
    expect(stages.at(-1)).toBe('done');
    const fractions = progress.map((p) => p.fraction);
    expect(fractions.every((f, i) => i === 0 || f >= fractions[i - 1]!)).toBe(true);
    expect(fractions.at(-1)).toBe(1);
  });

  it('a corrupt file is permanent: UnrecoverableError naming the file, live tiles untouched', async () => {
    const r = root();
    const ingest = createIngestProcessor({ root: r, runIngest });
    await ingest(fakeJob('nwp@ok', { product: 'nwp', source: { kind: 'local', paths: [IFS_FILE()] }, trigger: 'operator' }).job);
    const before = liveVersion(r);
    const bad = join(r, 'half.grib');
    writeFileSync(bad, readFileSync(IFS_FILE()).subarray(0, 20_000));
    const err = await ingest(fakeJob('nwp@bad', { product: 'nwp', source: { kind: 'local', paths: [bad] }, trigger: 'operator' }).job).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnrecoverableError);
    expect((err as Error).message).toContain('half.grib');
    expect(liveVersion(r)).toBe(before);
  });

  it('a transient HTTP failure is rethrown for a retry and keeps finished downloads; the last attempt cleans up', async () => {
    const r = root();
    server.routes.set('/ok.grib', { body: readFileSync(IFS_FILE()) });
    server.routes.set('/busy.grib', { body: Buffer.alloc(0), status: 503 });
    const data: IngestJobData = {
      product: 'nwp',
      trigger: 'schedule',
      source: {
        kind: 'http',
        files: [
          { url: server.url('/ok.grib'), name: 'ok.grib', decompress: 'none' },
          { url: server.url('/busy.grib'), name: 'busy.grib', decompress: 'none' },
        ],
        // Retried in place for at most 1.5 s, then handed to BullMQ's backoff.
        options: { maxBytes: 1e7, headersMs: 2000, idleMs: 1000, totalMs: 10_000, parallel: 1, notFound: 'retry', checksumAlgorithm: 'sha256', deadlineMs: 1500, retry: { firstDelayMs: 20, maxDelayMs: 40 } },
      },
    };
    const ingest = createIngestProcessor({ root: r, runIngest });
    const first = await ingest(fakeJob('nwp@2021-08-01T12Z', data, 0, 3).job).catch((e: unknown) => e);
    expect(first).toBeInstanceOf(SourceError);
    expect(first).not.toBeInstanceOf(UnrecoverableError);
    expect((first as SourceError).message).toContain('HTTP 503');
    expect(server.hits('/busy.grib')).toBeGreaterThan(1);
    const dl = join(r, 'downloads', 'nwp', 'nwp@2021-08-01T12Z');
    expect(readdirSync(dl)).toEqual(['ok.grib']);
    await ingest(fakeJob('nwp@2021-08-01T12Z', data, 2, 3).job).catch(() => {});
    expect(server.hits('/ok.grib')).toBe(1); // reused by the retry
    expect(existsSync(dl)).toBe(false);
    expect(liveVersion(r)).toBeUndefined();
  });

  it('a run older than the live run of its model, finishing last: the job completes with nothing published, the newer run stays live', async () => {
    const r = root();
    const ingest = createIngestProcessor({ root: r, runIngest, progressIntervalMs: 0 });
    const job = (id: string, run: string) => fakeJob(id, { product: 'nwp', model: 'IFS', run, source: { kind: 'local', paths: [IFS_FILE()] }, trigger: 'schedule' });
    const newer = await ingest(job('nwp@2021-08-01T12Z', '2021-08-01T12:00:00.000Z').job);
    if (!('version' in newer)) throw new Error('expected a publish');
    const late = job('nwp@2021-08-01T06Z', '2021-08-01T06:00:00.000Z');
    const result = await ingest(late.job); // neither thrown (BullMQ would retry or fail it) nor published
    expect(result).toEqual({ product: 'nwp', nothingToDo: expect.stringMatching(/run 2021-08-01T06:00:00\.000Z of IFS is older than the live run 2021-08-01T12:00:00\.000Z/) });
    expect(late.progress.at(-1)).toMatchObject({ stage: 'done', fraction: 1 });
    expect(liveVersion(r)).toBe(newer.version);
    expect(new TileStore(r).manifest('nwp')!.source).toMatchObject({ model: 'IFS', run: '2021-08-01T12:00:00.000Z', run_order: 'forecast' });
  });

  it('an empty inbox completes with nothing to do', async () => {
    const r = root();
    const ingest = createIngestProcessor({ root: r, runIngest });
    const result = await ingest(fakeJob('nwp@inbox-x', { product: 'nwp', source: { kind: 'inbox', dir: join(r, 'inbox'), settleMs: 0 }, trigger: 'schedule' }).job);
    expect(result).toEqual({ product: 'nwp', nothingToDo: 'no files to ingest (inbox empty)' });
  });
});
