/**
 * Product schedules as BullMQ job schedulers on the schedule queue, one per
 * product (id `schedule:<product>` would clash with BullMQ's ':' separator,
 * so the id is the product name). A scheduler creates one tick job per
 * scheduled time in Redis, atomically, so a tick fires once however many
 * worker replicas run. Every worker syncs the schedulers to its
 * configuration at start; replicas must therefore share one jobs.json.
 */
import { JOB_NAMES, SCHEDULE_QUEUE, type TickJobName } from '../config/queues.js';
import type { JobsConfig } from './config.js';
import type { ScheduleQueue } from './queues.js';
import { tickJobOptions } from './queues.js';

export interface ScheduleRow {
  product: string;
  /** Cron pattern or `every <n> s`. */
  pattern: string;
  tz?: string;
  /** Next tick (ISO 8601), when registered in Redis. */
  next?: string;
  registered: boolean;
  /** Registered in Redis but no longer in this configuration. */
  stale?: boolean;
  source?: string;
}

export async function syncSchedules(queue: ScheduleQueue, config: JobsConfig): Promise<{ upserted: string[]; removed: string[] }> {
  const upserted: string[] = [];
  for (const [product, cfg] of Object.entries(config.products)) {
    if (!cfg.schedule) continue;
    const s = cfg.schedule;
    const repeat = s.cron !== undefined ? { pattern: s.cron, tz: s.tz ?? 'UTC' } : { every: Math.round(s.everySeconds! * 1000) };
    // BullMQ types the scheduler id as a job name; it is any string.
    await queue.upsertJobScheduler(product as TickJobName, repeat, { name: JOB_NAMES[SCHEDULE_QUEUE], data: { product }, opts: tickJobOptions() });
    upserted.push(product);
  }
  const removed: string[] = [];
  for (const existing of await queue.getJobSchedulers(0, -1)) {
    const id = existing.id ?? existing.key;
    if (!upserted.includes(id)) {
      await queue.removeJobScheduler(id);
      removed.push(id);
    }
  }
  return { upserted, removed };
}

function describeSource(config: JobsConfig, product: string): string | undefined {
  const src = config.products[product]?.source;
  if (!src) return undefined;
  if (src.kind === 'ads') return `ads ${src.dataset}`;
  if (src.kind === 'copernicus-marine') return `copernicus-marine ${src.datasets.map((d) => d.dataset).join(', ')}`;
  if (src.kind === 'meteohub') return `meteohub ${src.dataset}${config.products[product]?.fallback ? ', fallback' : ''}`;
  return src.kind === 'inbox' ? `inbox ${src.dir}` : `http ${src.urls.length} template(s)`;
}

/** Configured schedules joined with what Redis holds (next run), for `jobs schedules`. */
export async function listSchedules(queue: ScheduleQueue, config: JobsConfig): Promise<ScheduleRow[]> {
  const registered = new Map((await queue.getJobSchedulers(0, -1, true)).map((s) => [s.id ?? s.key, s]));
  const rows: ScheduleRow[] = [];
  for (const [product, cfg] of Object.entries(config.products)) {
    if (!cfg.schedule) continue;
    const r = registered.get(product);
    const s = cfg.schedule;
    rows.push({
      product,
      pattern: s.cron ?? `every ${s.everySeconds} s`,
      ...(s.cron ? { tz: s.tz ?? 'UTC' } : {}),
      ...(r?.next ? { next: new Date(r.next).toISOString() } : {}),
      registered: r !== undefined,
      ...(describeSource(config, product) ? { source: describeSource(config, product)! } : {}),
    });
    registered.delete(product);
  }
  for (const [id, r] of registered) {
    rows.push({ product: id, pattern: r.pattern ?? `every ${(r.every ?? 0) / 1000} s`, ...(r.next ? { next: new Date(r.next).toISOString() } : {}), registered: true, stale: true });
  }
  return rows;
}
