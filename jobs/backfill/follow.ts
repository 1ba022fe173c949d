/**
 * Progress of a backfill: an overall bar (years done of those enqueued, rate,
 * ETA) and one bar per running year fed by its job's progress
 * ({stage, fraction, message}, jobs/processors/ingest.ts). Not a TTY: plain
 * lines, one per year and stage change and one per finished year. Polls the
 * jobs (twice a second): the jobs may run on other machines, and a poll sees
 * a job that finished before we looked.
 */
import cliProgress from 'cli-progress';
import type { IngestQueue } from '../queues.js';
import type { JobProgressInfo } from '../job-types.js';

export interface YearOutcome {
  year: number;
  state: 'completed' | 'failed';
  reason?: string;
}

function asProgress(p: unknown): JobProgressInfo | undefined {
  return p && typeof p === 'object' && 'fraction' in p && 'stage' in p ? (p as JobProgressInfo) : undefined;
}

function duration(s: number): string {
  if (!Number.isFinite(s)) return '?';
  if (s < 90) return `${Math.round(s)} s`;
  if (s < 5400) return `${Math.round(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

export async function followYears(
  queue: IngestQueue,
  jobs: ReadonlyMap<number, string>,
  out: NodeJS.WriteStream = process.stderr,
  pollMs = 500,
): Promise<YearOutcome[]> {
  const total = jobs.size;
  const started = Date.now();
  const tty = out.isTTY === true;
  const multi = tty
    ? new cliProgress.MultiBar({ format: '{name} [{bar}] {percentage}% | {info}', hideCursor: true, stream: out, clearOnComplete: false }, cliProgress.Presets.shades_classic)
    : undefined;
  const overall = multi?.create(total, 0, { name: 'overall', info: '' });
  const bars = new Map<number, cliProgress.SingleBar>();
  const lastLine = new Map<number, string>();
  const outcomes = new Map<number, YearOutcome>();
  const overallInfo = () => {
    const done = outcomes.size;
    const secs = (Date.now() - started) / 1000;
    const rate = done / Math.max(secs, 1e-3);
    const eta = done > 0 ? (total - done) / rate : Infinity;
    return `${done}/${total} years, ${(rate * 3600).toFixed(1)} years/h, ETA ${done === total ? '0 s' : duration(eta)}`;
  };
  try {
    while (outcomes.size < total) {
      for (const [year, id] of jobs) {
        if (outcomes.has(year)) continue;
        const job = await queue.getJob(id);
        const state = job ? await job.getState() : 'unknown';
        if (!job || state === 'completed' || state === 'failed') {
          const o: YearOutcome = job && state === 'completed' ? { year, state } : { year, state: 'failed', reason: job?.failedReason ?? 'job removed' };
          outcomes.set(year, o);
          const bar = bars.get(year);
          if (bar) {
            bar.update(100, { info: o.state === 'completed' ? 'published' : `failed: ${o.reason}`.slice(0, 70) });
            multi!.remove(bar);
            bars.delete(year);
          }
          if (multi) {
            multi.log(`${year}: ${o.state === 'completed' ? 'published' : `failed: ${o.reason}`}\n`);
            overall!.update(outcomes.size, { info: overallInfo() });
          } else {
            out.write(`${year}: ${o.state === 'completed' ? 'published' : `failed: ${o.reason}`}\n`);
            out.write(`overall: ${overallInfo()}\n`);
          }
          continue;
        }
        const p = asProgress(job.progress);
        if (state !== 'active' || !p) continue;
        const pct = Math.round(p.fraction * 100);
        const info = `${p.stage} ${(p.message ?? '').slice(0, 50)}`;
        if (multi) {
          let bar = bars.get(year);
          if (!bar) bars.set(year, (bar = multi.create(100, 0, { name: String(year).padEnd(7), info: '' })));
          bar.update(pct, { info });
        } else if (lastLine.get(year) !== p.stage) {
          lastLine.set(year, p.stage);
          out.write(`${year}: ${p.stage} ${pct}% ${p.message ?? ''}\n`);
        }
      }
      overall?.update(outcomes.size, { info: overallInfo() });
      if (outcomes.size < total) await new Promise((r) => setTimeout(r, pollMs));
    }
  } finally {
    multi?.stop();
  }
  return [...outcomes.values()].sort((a, b) => a.year - b.year);
}
