/**
 * Worker wiring: one BullMQ Worker on the ingest queue (the processor in
 * processors/ingest.ts, `concurrency` jobs at a time) and one on the schedule
 * queue (ticks), plus the schedulers synced from configuration.
 *
 * Stalled jobs: a worker renews its job locks every lockMs/2. When a worker
 * dies (SIGKILL, OOM, lost machine) its lock expires, and within
 * lockMs + stalledIntervalMs any live worker's stalled check moves the job
 * back to waiting; it then runs again from the start (downloads already
 * completed are reused, partial ones deleted). A job stalled more than
 * maxStalledCount times fails. lockMs must exceed the longest event-loop
 * pause of an ingest (GRIB decoding runs in ecCodes subprocesses and bzip2 in
 * its own, so pauses stay short), else a live job is taken as stalled and
 * run twice — harmless (atomic publish, idempotent output) but wasted work.
 */
import { Worker, type Job } from 'bullmq';
import pino, { type Logger } from 'pino';
import { INGEST_QUEUE, SCHEDULE_QUEUE, type IngestJobName, type TickJobName } from '../config/queues.js';
import type { IngestRequest, IngestResult } from '../ingest/ingest-types.js';
import type { JobsConfig } from './config.js';
import { bullConnection } from './connection.js';
import { SHUTDOWN_REASON, type IngestJobData, type IngestJobResult, type TickJobData, type TickJobResult } from './job-types.js';
import { createIngestProcessor } from './processors/ingest.js';
import { createTickProcessor } from './processors/tick.js';
import { enqueueIngest, openQueues, type Queues } from './queues.js';
import { syncSchedules } from './schedules.js';

export interface StartWorkersOptions {
  redisUrl: string;
  prefix: string;
  /** Data directory ($METEOPUNTO_DATA). */
  root: string;
  config: JobsConfig;
  /** Ingest jobs run at once by this process (default 1: an ingest is CPU- and memory-heavy). */
  concurrency?: number;
  /** Shown in the dashboard as the worker that ran a job. */
  name?: string;
  runIngest: (req: IngestRequest) => Promise<IngestResult>;
  logger?: Logger;
  /** Register the configured schedules (default true). */
  syncSchedules?: boolean;
}

export interface RunningWorkers {
  ingest: Worker<IngestJobData, IngestJobResult, IngestJobName>;
  schedule: Worker<TickJobData, TickJobResult, TickJobName>;
  queues: Queues;
  /**
   * Stop taking jobs and wait for the running ones; after `graceMs` they are
   * cancelled and hand themselves back to the queue (no attempt used).
   */
  close(graceMs?: number): Promise<void>;
}

function describe(job: Job | undefined): Record<string, unknown> {
  return job ? { queue: job.queueName, jobId: job.id, name: job.name, attemptsMade: job.attemptsMade } : {};
}

export async function startWorkers(opts: StartWorkersOptions): Promise<RunningWorkers> {
  const log = opts.logger ?? pino({ name: 'meteopunto-worker' });
  const { config } = opts;
  const queues = openQueues(opts.redisUrl, opts.prefix);
  const connection = bullConnection(opts.redisUrl);
  const stall = { lockDuration: config.worker.lockMs, stalledInterval: config.worker.stalledIntervalMs, maxStalledCount: config.worker.maxStalledCount };

  if (opts.syncSchedules !== false) {
    const s = await syncSchedules(queues.schedule, config);
    log.info({ event: 'schedules', upserted: s.upserted, removed: s.removed, config: config.path ?? 'built-in' }, 'schedules synced');
  }

  const processIngest = createIngestProcessor({ root: opts.root, runIngest: opts.runIngest });
  const ingest = new Worker<IngestJobData, IngestJobResult, IngestJobName>(
    INGEST_QUEUE,
    // Three parameters: BullMQ passes the cancellation signal only to processors that declare it.
    (job, token, signal) => processIngest(job, token, signal),
    { connection, prefix: opts.prefix, concurrency: opts.concurrency ?? 1, ...stall, ...(opts.name ? { name: opts.name } : {}) },
  );
  const processTick = createTickProcessor({
    root: opts.root,
    config,
    enqueue: (id, data) => enqueueIngest(queues.ingest, config, id, data),
  });
  const schedule = new Worker<TickJobData, TickJobResult, TickJobName>(SCHEDULE_QUEUE, (job) => processTick(job), {
    connection,
    prefix: opts.prefix,
    concurrency: 2,
    ...stall,
    ...(opts.name ? { name: opts.name } : {}),
  });

  for (const w of [ingest, schedule] as Worker[]) {
    w.on('active', (job) => log.info({ event: 'active', ...describe(job) }, `started ${job.id}`));
    w.on('completed', (job, result) => log.info({ event: 'completed', ...describe(job), result }, `completed ${job.id}`));
    w.on('failed', (job, err) => log.warn({ event: 'failed', ...describe(job), reason: err.message, willRetry: job ? job.attemptsMade < (job.opts.attempts ?? 1) : false }, `failed ${job?.id}: ${err.message}`));
    w.on('stalled', (jobId) => log.warn({ event: 'stalled', jobId }, `job ${jobId} stalled (its worker died?): back to waiting`));
    // A worker reports and goes on: a Redis hiccup must not crash the process.
    w.on('error', (err) => log.error({ event: 'error', err: err.message }, `worker error: ${err.message}`));
  }
  queues.ingest.on('error', (err) => log.error({ event: 'error', err: err.message }, `queue error: ${err.message}`));
  queues.schedule.on('error', (err) => log.error({ event: 'error', err: err.message }, `queue error: ${err.message}`));

  await Promise.all([ingest.waitUntilReady(), schedule.waitUntilReady()]);
  log.info({ event: 'ready', concurrency: opts.concurrency ?? 1, prefix: opts.prefix, root: opts.root }, 'worker ready');

  let closing: Promise<void> | undefined;
  return {
    ingest,
    schedule,
    queues,
    close(graceMs = config.worker.shutdownGraceMs) {
      closing ??= (async () => {
        const timer = setTimeout(() => {
          log.warn({ event: 'shutdown-cancel', graceMs }, 'grace period over: handing running jobs back');
          ingest.cancelAllJobs(SHUTDOWN_REASON);
          schedule.cancelAllJobs(SHUTDOWN_REASON);
        }, graceMs);
        try {
          await Promise.all([ingest.close(), schedule.close()]);
        } finally {
          clearTimeout(timer);
        }
        await queues.close();
      })();
      return closing;
    },
  };
}
