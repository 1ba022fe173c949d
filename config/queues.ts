/**
 * BullMQ queue names, job names and key prefix, shared by the workers (jobs/)
 * and the operator dashboard (api/admin/), which may not import jobs/.
 */
import { processEnv } from './process-env.js';
import { setting, type Environment } from './environment.js';

/** Heavy work: fetch a product's source files, read, derive, write, publish. */
export const INGEST_QUEUE = 'ingest' as const;
/** Light work: one job per schedule tick, which decides which run to ingest and enqueues it. */
export const SCHEDULE_QUEUE = 'schedule' as const;

export const QUEUE_NAMES = [INGEST_QUEUE, SCHEDULE_QUEUE] as const;
export type QueueName = (typeof QUEUE_NAMES)[number];

/** Job names per queue (typed, so a producer cannot put a tick on the ingest queue). */
export const JOB_NAMES = {
  [INGEST_QUEUE]: 'ingest',
  [SCHEDULE_QUEUE]: 'tick',
} as const satisfies Record<QueueName, string>;

export type IngestJobName = (typeof JOB_NAMES)[typeof INGEST_QUEUE];
export type TickJobName = (typeof JOB_NAMES)[typeof SCHEDULE_QUEUE];

/**
 * Redis key prefix of every queue (`<prefix>:<queue>:...`), `METEOPUNTO_QUEUE_PREFIX`,
 * default `meteopunto`. Deployments sharing one Redis use distinct prefixes.
 */
export function queuePrefix(env: Environment = processEnv()): string {
  return setting(env, 'METEOPUNTO_QUEUE_PREFIX') ?? 'meteopunto';
}
