/**
 * `meteopunto backfill reanalysis --from <year> --to <year> [--source era5|20crv3|auto] [--force] [--no-wait]`
 * `meteopunto backfill status [--json]`
 *
 * Enqueues one ingest job per year (jobs/backfill/plan.ts), prints the disk
 * estimate first, then follows the years with progress bars until every one
 * is published or failed. Needs REDIS_URL and workers (`meteopunto worker`).
 * Exit codes: 0 every year published (or skipped as already published), 1 a
 * year failed or Redis/configuration is missing, 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { HISTORY_START_YEAR } from '../../tiles/history-start.js';
import { openContext, UsageError } from '../commands/context.js';
import { ingestJobOptions } from '../queues.js';
import { JOB_NAMES, INGEST_QUEUE } from '../../config/queues.js';
import { humanBytes, yearBytes } from './estimate.js';
import { followYears } from './follow.js';
import { backfillJob, isYearPublished, sourceForYear, type BackfillSource } from './plan.js';
import { backfillStatus, formatStatus, yearRanges } from './status.js';

const USAGE = `usage: meteopunto backfill <command>

  backfill reanalysis --from <year> --to <year> [--source era5|20crv3|auto] [--force] [--no-wait]
      one job per year (${HISTORY_START_YEAR} at the earliest); published years are skipped unless --force;
      auto: ERA5 from 1940, 20CRv3 before. Prints a disk estimate, then progress until done.
  backfill status [--json]
      years published, running, waiting, failed (with the reason) and missing

Needs REDIS_URL and running workers; sources come from "backfill" in the jobs configuration (docs/history.md).`;

/** `backfill <command> --help`: what the command does and its options. */
const HELP: Record<string, string> = {
  reanalysis: `usage: meteopunto backfill reanalysis --from <year> --to <year> [--source era5|20crv3|auto] [--force] [--no-wait]

Enqueues one ingest job per year of the reanalysis product, prints a disk estimate, then follows
the years with progress until each is published or failed.

options:
  --from <year>      first year (${HISTORY_START_YEAR} at the earliest)
  --to <year>        last year (at most the current one)
  --source <s>       era5 (from 1940), 20crv3, or auto: ERA5 from 1940, 20CRv3 before (default)
  --force            redo years already published
  --no-wait          return once queued

Needs REDIS_URL and running workers; sources come from "backfill" in the jobs configuration (docs/history.md).`,
  status: `usage: meteopunto backfill status [--json]

Years of the reanalysis product published, running, waiting, failed (with the reason) and missing.

options:
  --json    the same as JSON

Needs REDIS_URL.`,
};

export async function run(argv: string[], out: NodeJS.WriteStream = process.stderr): Promise<number> {
  const [sub, ...rest] = argv;
  if ((sub === 'reanalysis' || sub === 'status') && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(HELP[sub]);
    return 0;
  }
  try {
    if (sub === 'reanalysis') return await reanalysis(rest, out);
    if (sub === 'status') return await status(rest);
    if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
      console.log(USAGE);
      return sub ? 0 : 2;
    }
    console.error(`meteopunto backfill: unknown command '${sub}'\n\n${USAGE}`);
    return 2;
  } catch (err) {
    const e = err as Error & { code?: string };
    const usage = err instanceof UsageError || (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'));
    console.error(`meteopunto backfill ${sub}: ${e.message}`);
    return usage ? 2 : 1;
  }
}

function year(name: string, v: string | undefined): number {
  if (v === undefined || !/^\d{4}$/.test(v)) throw new UsageError(`--${name} must be a year (YYYY), got ${v === undefined ? 'nothing' : `'${v}'`}`);
  return Number(v);
}

async function reanalysis(argv: string[], out: NodeJS.WriteStream): Promise<number> {
  const { values: o } = parseArgs({
    args: argv,
    strict: true,
    options: { from: { type: 'string' }, to: { type: 'string' }, source: { type: 'string', default: 'auto' }, force: { type: 'boolean', default: false }, 'no-wait': { type: 'boolean', default: false } },
  });
  const from = year('from', o.from);
  const to = year('to', o.to);
  const lastYear = new Date().getUTCFullYear();
  if (from < HISTORY_START_YEAR) throw new UsageError(`--from: history starts at ${HISTORY_START_YEAR}`);
  if (to < from || to > lastYear) throw new UsageError(`--to must be between --from and ${lastYear}`);
  const pick = o.source as string;
  if (pick !== 'era5' && pick !== '20crv3' && pick !== 'auto') throw new UsageError(`--source must be era5, 20crv3 or auto, got '${pick}'`);

  const ctx = await openContext();
  try {
    const years: { year: number; source: BackfillSource }[] = [];
    const skipped: number[] = [];
    for (let y = from; y <= to; y++) {
      if (!o.force && (await isYearPublished(ctx.root, y))) skipped.push(y);
      else years.push({ year: y, source: sourceForYear(y, pick) });
    }
    if (skipped.length) console.log(`already published, skipped (--force redoes them): ${yearRanges(skipped)}`);
    const bytes = years.reduce((s, y) => s + yearBytes(y.source), 0);
    console.log(
      `disk estimate: ${years.length} year(s), ${humanBytes(bytes)} of tiles at most (int16 before compression; ` +
        `${years.filter((y) => y.source === 'era5').length} × ${humanBytes(yearBytes('era5'))} ERA5, ${years.filter((y) => y.source === '20crv3').length} × ${humanBytes(yearBytes('20crv3'))} 20CRv3), ` +
        `plus each running year's downloads until it is published`,
    );
    const jobs = new Map<number, string>();
    for (const y of years) {
      const job = backfillJob(ctx.root, ctx.config, y.year, y.source);
      const q = ctx.queues.ingest;
      const state = await q.getJobState(job.id);
      if (state === 'active' || state === 'waiting' || state === 'delayed' || state === 'prioritized') {
        console.log(`${y.year}: job ${job.id} already ${state}: following it`);
      } else {
        // A finished job of this id (done before, failed, or forced) makes room for the new one.
        if (state !== 'unknown') await (await q.getJob(job.id))?.remove();
        await q.add(JOB_NAMES[INGEST_QUEUE], job.data, { ...ingestJobOptions(ctx.config), jobId: job.id });
        console.log(`${y.year}: enqueued ${job.id} from ${y.source} (${job.data.source.kind === 'http' ? `${job.data.source.files.length} files` : `${job.data.source.kind} request`})`);
      }
      jobs.set(y.year, job.id);
    }
    if (jobs.size === 0 || o['no-wait']) return 0;
    const outcomes = await followYears(ctx.queues.ingest, jobs, out);
    const failed = outcomes.filter((x) => x.state === 'failed');
    console.log(`backfill: ${outcomes.length - failed.length} year(s) published${failed.length ? `, ${failed.length} failed: ${failed.map((f) => `${f.year} (${f.reason})`).join('; ')}` : ''}`);
    return failed.length ? 1 : 0;
  } finally {
    await ctx.close();
  }
}

async function status(argv: string[]): Promise<number> {
  const { values: o } = parseArgs({ args: argv, strict: true, options: { json: { type: 'boolean', default: false } } });
  const ctx = await openContext();
  try {
    const s = await backfillStatus(ctx.root, ctx.queues.ingest);
    console.log(o.json ? JSON.stringify(s, null, 2) : formatStatus(s));
    return 0;
  } finally {
    await ctx.close();
  }
}
