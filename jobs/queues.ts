/**
 * Queue handles (producers) for the ingest and schedule queues, apart from
 * the workers that consume them (jobs/worker.ts). Default job options live
 * here: retries with exponential backoff, and completed jobs kept for
 * `keepCompletedDays` so that a run enqueued again within that time is
 * recognised by its job id and not ingested twice.
 */
import { Queue, type JobsOptions } from 'bullmq';
import { INGEST_QUEUE, JOB_NAMES, SCHEDULE_QUEUE, type IngestJobName, type TickJobName } from '../config/queues.js';
import type { JobsConfig } from './config.js';
import { bullConnection } from './connection.js';
import type { IngestJobData, IngestJobResult, TickJobData, TickJobResult } from './job-types.js';

export type IngestQueue = Queue<IngestJobData, IngestJobResult, IngestJobName>;
export type ScheduleQueue = Queue<TickJobData, TickJobResult, TickJobName>;

export interface Queues {
  ingest: IngestQueue;
  schedule: ScheduleQueue;
  close(): Promise<void>;
}

export function ingestJobOptions(config: JobsConfig): JobsOptions {
  return {
    attempts: config.retry.attempts,
    // delay = backoffMs · 2^(attempt−1): 30 s, 1 min, 2 min, 4 min with the defaults.
    backoff: { type: 'exponential', delay: config.retry.backoffMs },
    removeOnComplete: { age: config.keepCompletedSeconds },
    removeOnFail: { age: config.keepFailedSeconds },
  };
}

/** Ticks are cheap and only enqueue: one attempt, kept a day for the record. */
export function tickJobOptions(): JobsOptions {
  return { attempts: 1, removeOnComplete: { age: 86_400, count: 1000 }, removeOnFail: { age: 7 * 86_400 } };
}

export function openQueues(redisUrl: string, prefix: string): Queues {
  const connection = bullConnection(redisUrl);
  const ingest: IngestQueue = new Queue(INGEST_QUEUE, { connection, prefix });
  const schedule: ScheduleQueue = new Queue(SCHEDULE_QUEUE, { connection, prefix });
  return {
    ingest,
    schedule,
    async close() {
      await Promise.all([ingest.close(), schedule.close()]);
    },
  };
}

/**
 * Adds an ingest job unless one with this id exists (waiting, active,
 * delayed, completed or failed). BullMQ itself ignores a second add with the
 * same id, so two producers racing still yield one job; the state check only
 * lets the caller say which happened.
 */
export async function enqueueIngest(
  queue: IngestQueue,
  config: JobsConfig,
  id: string,
  data: IngestJobData,
): Promise<{ id: string; duplicate: boolean; state?: string }> {
  const state = await queue.getJobState(id);
  if (state !== 'unknown') return { id, duplicate: true, state };
  await queue.add(JOB_NAMES[INGEST_QUEUE], data, { ...ingestJobOptions(config), jobId: id });
  return { id, duplicate: false };
}
