/**
 * Ingest and schedule job metrics for /metrics, read from the BullMQ queues
 * in Redis when Prometheus scrapes (the workers write job state there; the
 * API may not import jobs/, so it opens its own read-only Queue handles, as
 * the queue dashboard does). Decision: read through Redis at scrape time
 * rather than a port per worker — one scrape target however many workers
 * run, and nothing for a worker to expose.
 *
 * - `meteopunto_jobs{queue,state}`: jobs per state (failed and completed
 *   count what BullMQ keeps: the workers' removeOnComplete/removeOnFail).
 * - `meteopunto_job_duration_seconds{queue,stat}`: processing time (finish −
 *   start) of the most recent completed jobs, up to {@link RECENT}: median,
 *   p90 and max, and the last one.
 * - `meteopunto_job_failures{queue,reason}` of those recent failed jobs by
 *   reason's first line (cut to 120 characters).
 */
import type { Queue } from 'bullmq';
import { Gauge, type Registry } from 'prom-client';
import { QUEUE_NAMES } from '../../config/queues.js';

/** Completed and failed jobs read per queue and scrape. */
export const RECENT = 100;
const STATES = ['waiting', 'active', 'delayed', 'completed', 'failed'] as const;

export interface JobMetricsOptions {
  redisUrl: string;
  prefix: string;
}

interface QueueReading {
  queue: string;
  counts: Record<string, number>;
  /** Newest first, seconds. */
  durations: number[];
  /** First line of each recent failure's reason. */
  failures: string[];
}

/** Each queue's state, durations and failure reasons; a queue Redis does not answer for is left out. */
async function readQueues(queues: Queue[]): Promise<QueueReading[]> {
  const out: QueueReading[] = [];
  for (const q of queues) {
    try {
      const counts = await q.getJobCounts(...STATES);
      const done = await q.getJobs(['completed'], 0, RECENT - 1);
      const failed = await q.getJobs(['failed'], 0, RECENT - 1);
      out.push({
        queue: q.name,
        counts,
        durations: done.filter((j) => j.processedOn && j.finishedOn).map((j) => (j.finishedOn! - j.processedOn!) / 1000),
        failures: failed.map((j) => (j.failedReason ?? 'unknown').split('\n')[0]!.slice(0, 120)),
      });
    } catch {
      // Redis not answering: this queue is left out of this scrape.
    }
  }
  return out;
}

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

/** Registers the job gauges on `registry`; returns a close function for the queue handles. */
export async function registerJobMetrics(registry: Registry, opts: JobMetricsOptions): Promise<() => Promise<void>> {
  const { Queue: QueueClass } = await import('bullmq');
  // As the queue dashboard connects (api/admin/dashboard.ts); commands wait for the connection
  // but at most 2 s, so a scrape never hangs on a Redis that does not answer.
  const connection = { url: opts.redisUrl, maxRetriesPerRequest: 1, commandTimeout: 2000 };
  const queues: Queue[] = QUEUE_NAMES.map((name) => new QueueClass(name, { connection, prefix: opts.prefix }));
  // prom-client collects the metrics of a scrape concurrently: the three share one read of the queues.
  let reading: Promise<QueueReading[]> | null = null;
  const read = (): Promise<QueueReading[]> => {
    reading ??= readQueues(queues).finally(() => setTimeout(() => (reading = null), 0));
    return reading;
  };
  new Gauge({
    name: 'meteopunto_jobs', help: 'Jobs per queue and state (BullMQ)', labelNames: ['queue', 'state'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of await read()) for (const [state, n] of Object.entries(r.counts)) this.set({ queue: r.queue, state }, n);
    },
  });
  new Gauge({
    name: 'meteopunto_job_duration_seconds', help: `Processing time of the last ${RECENT} completed jobs per queue`, labelNames: ['queue', 'stat'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of await read()) {
        const secs = r.durations;
        if (!secs.length) continue;
        this.set({ queue: r.queue, stat: 'last' }, secs[0]!);
        const sorted = [...secs].sort((a, b) => a - b);
        this.set({ queue: r.queue, stat: 'median' }, quantile(sorted, 0.5));
        this.set({ queue: r.queue, stat: 'p90' }, quantile(sorted, 0.9));
        this.set({ queue: r.queue, stat: 'max' }, sorted[sorted.length - 1]!);
      }
    },
  });
  new Gauge({
    name: 'meteopunto_job_failures', help: `Failed jobs among the last ${RECENT} per queue, by reason`, labelNames: ['queue', 'reason'], registers: [registry],
    async collect() {
      this.reset();
      for (const r of await read()) for (const reason of r.failures) this.inc({ queue: r.queue, reason });
    },
  });
  return async () => {
    await Promise.all(queues.map((q) => q.close()));
  };
}
