/**
 * The ingest processor: fetch the job's source files, then runIngest (read →
 * derive → write a new tile version → publish it atomically). A plain
 * `(job, token?, signal?) => Promise<result>`: tests call it without Redis.
 *
 * Failures: a bad file or a refused request (ReadError, IngestError, 4xx, a
 * file over the size limit) throws UnrecoverableError with the reason, so the
 * job fails at once; anything else (network, 5xx, timeouts, truncated
 * bodies) is rethrown and BullMQ retries it with exponential backoff. Either
 * way the live tiles are untouched: only a finished version is published.
 * A version refused at the switch as an older run than the live one
 * completes the job with nothing ingested (its reason in the result).
 */
import { basename } from 'node:path';
import { DelayedError, UnrecoverableError, type Job } from 'bullmq';
import type { IngestRequest, IngestResult } from '../../ingest/ingest-types.js';
import type { IngestJobName } from '../../config/queues.js';
import { SHUTDOWN_REASON, type IngestJobData, type IngestJobResult, type JobProgressInfo } from '../job-types.js';
import { ProgressReporter } from '../progress.js';
import { fetchSource, settleSource, type FetchedFiles } from '../sources/source.js';
import { SourceError } from '../sources/source-error.js';
import { recordRemoteJobs, type RemoteJobs } from '../sources/remote-jobs.js';

/** Share of the progress bar given to fetching; the ingest stages share the rest. */
const FETCH_SHARE = 0.3;

export interface IngestProcessorDeps {
  /** Data directory ($METEOPUNTO_DATA). */
  root: string;
  runIngest: (req: IngestRequest) => Promise<IngestResult>;
  progressIntervalMs?: number;
}

/** The part of a BullMQ Job the processor uses (a plain object in tests). */
export type IngestJob = Pick<Job<IngestJobData, IngestJobResult, IngestJobName>, 'data' | 'attemptsMade' | 'updateProgress'> & {
  id?: string | undefined;
  opts: { attempts?: number };
  moveToDelayed?: (timestamp: number, token?: string) => Promise<void>;
  /** BullMQ's: replaces the job's data in Redis (the remote job ids live there). */
  updateData?: (data: IngestJobData) => Promise<void>;
};

/** Remote job ids kept in the job's data, so that a retry or another worker re-attaches to them. */
function remoteJobsOf(job: IngestJob): RemoteJobs {
  return recordRemoteJobs(
    () => job.data.remote,
    async (ids) => {
      const data = { ...job.data, remote: ids };
      if (job.updateData) await job.updateData(data);
      else job.data = data;
    },
  );
}

/** Errors that retrying cannot fix. Matched by name/code too, in case two copies of a module are loaded. */
export function isPermanent(err: unknown): boolean {
  if (err instanceof SourceError) return !err.transient;
  if (err instanceof UnrecoverableError) return true;
  const e = err as { name?: string; code?: string };
  return e?.name === 'ReadError' || e?.name === 'IngestError' || e?.code === 'READ_ERROR' || e?.code === 'INGEST_ERROR';
}

/** The switch refused an older forecast run (OlderRunRefused); matched by name for the reason above. */
function isOlderRun(err: unknown): boolean {
  const e = err as { name?: string; code?: string };
  return e?.name === 'OlderRunRefused' || e?.code === 'OLDER_RUN';
}

/** A job id as a folder name (ids look like `nwp@2026-11-21T12Z`). */
export function jobKey(id: string | undefined): string {
  return (id ?? 'no-id').replace(/[^A-Za-z0-9._@-]/g, '_');
}

function message(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

export function createIngestProcessor(deps: IngestProcessorDeps) {
  return async function processIngest(job: IngestJob, token?: string, signal?: AbortSignal): Promise<IngestJobResult> {
    const data = job.data;
    const ctx = { root: deps.root, product: data.product, key: jobKey(job.id) };
    const progress = new ProgressReporter((p: JobProgressInfo) => job.updateProgress(p as unknown as object), deps.progressIntervalMs);
    let fetched: FetchedFiles | undefined;
    try {
      progress.report({ stage: 'fetch', fraction: 0, message: `fetching (${data.source.kind})` }, true);
      fetched = await fetchSource(data.source, {
        ...ctx,
        ...(signal ? { signal } : {}),
        remote: remoteJobsOf(job),
        onProgress: (f, msg) => progress.report({ stage: 'fetch', fraction: f * FETCH_SHARE, message: msg }),
      });
      if (fetched.paths.length === 0) {
        await fetched.settle('done');
        progress.report({ stage: 'done', fraction: 1, message: 'nothing to ingest' }, true);
        await progress.flush();
        return { product: data.product, nothingToDo: 'no files to ingest (inbox empty)' };
      }
      const result = await deps.runIngest({
        root: deps.root,
        product: data.product,
        files: fetched.paths,
        onProgress: (p) => progress.report({ stage: p.stage, fraction: FETCH_SHARE + p.fraction * (1 - FETCH_SHARE), ...(p.message ? { message: p.message } : {}) }),
        ...(signal ? { signal } : {}),
        ...(data.allow?.length ? { allow: data.allow } : {}),
        source: { ...(data.model ? { model: data.model } : {}), ...(data.run ? { run: data.run } : {}), note: `job ${job.id ?? '?'}${data.fallback ? `; fallback: ${data.fallback}` : ''}` },
      });
      await fetched.settle('done');
      progress.report({ stage: 'done', fraction: 1, message: `published ${result.version}` }, true);
      await progress.flush();
      return { ...result, files: fetched.paths.map((p) => basename(p)), fetchedBytes: fetched.receivedBytes };
    } catch (err) {
      await progress.flush();
      if (isOlderRun(err)) {
        // Another worker published a newer run of the model first: this one is superseded, not failed (tiles/write/publish.ts).
        await settleSource(data.source, ctx, 'done').catch(() => {});
        progress.report({ stage: 'done', fraction: 1, message: 'not published: an older run than the live one' }, true);
        await progress.flush();
        return { product: data.product, nothingToDo: (err as Error).message };
      }
      if (signal?.aborted && signal.reason === SHUTDOWN_REASON) {
        // Hand the job back untouched (no attempt used): another worker, or this one restarted, picks it up.
        await settleSource(data.source, ctx, 'retry');
        if (token && job.moveToDelayed) {
          await job.moveToDelayed(Date.now(), token);
          throw new DelayedError(`${SHUTDOWN_REASON}: handed back`);
        }
        throw new Error(`${SHUTDOWN_REASON}: interrupted`, { cause: err });
      }
      const permanent = isPermanent(err);
      const last = permanent || job.attemptsMade + 1 >= (job.opts.attempts ?? 1);
      await settleSource(data.source, ctx, last ? 'failed' : 'retry', message(err)).catch(() => {});
      if (permanent && !(err instanceof UnrecoverableError)) throw new UnrecoverableError(message(err));
      throw err;
    }
  };
}

export type IngestProcessor = ReturnType<typeof createIngestProcessor>;
