/**
 * The schedule tick processor. BullMQ's job scheduler creates exactly one
 * tick job per scheduled time across all workers; the tick works out which
 * run that time stands for and enqueues its ingest job, whose id (product +
 * run) makes a second tick for the same run a no-op.
 */
import { UnrecoverableError, type Job } from 'bullmq';
import type { TickJobName } from '../../config/queues.js';
import type { JobsConfig } from '../config.js';
import { resolveIngestJob } from '../resolve-job.js';
import type { IngestJobData, TickJobData, TickJobResult } from '../job-types.js';
import { pendingInboxFiles } from '../sources/inbox.js';

export interface TickProcessorDeps {
  root: string;
  config: JobsConfig;
  enqueue: (id: string, data: IngestJobData) => Promise<{ duplicate: boolean }>;
}

export type TickJob = Pick<Job<TickJobData, TickJobResult, TickJobName>, 'data' | 'timestamp'> & { opts: { prevMillis?: number } };

export function createTickProcessor(deps: TickProcessorDeps) {
  return async function processTick(job: TickJob): Promise<TickJobResult> {
    const { product } = job.data;
    // prevMillis is the time the scheduler planned this tick for; timestamp is when the job was created (earlier).
    const tick = new Date(job.opts.prevMillis ?? job.timestamp);
    const cfg = deps.config.products[product];
    if (!cfg) throw new UnrecoverableError(`schedule tick for '${product}', which has no configuration on this worker (${deps.config.path ?? 'built-in config'})`);
    const base = { product, tick: tick.toISOString() };
    const { id, data } = await resolveIngestJob(deps.root, product, cfg, { now: tick, trigger: 'schedule' });
    if (data.source.kind === 'inbox') {
      // Do not fill the queue with empty jobs: only a non-empty inbox gets one.
      const ready = await pendingInboxFiles(data.source.dir, data.source.settleMs);
      if (ready.length === 0) return { ...base, skipped: `inbox ${data.source.dir} empty` };
    }
    const r = await deps.enqueue(id, data);
    return { ...base, jobId: id, duplicate: r.duplicate, ...(data.fallback ? { fallback: data.fallback } : {}) };
  };
}
