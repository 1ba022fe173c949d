/**
 * `meteopunto jobs enqueue <product> [--run <time>] [--file <path>...] [--allow <check>...] [--no-wait]`
 *
 * Without --file the job fetches the product's configured source for the run
 * (default: the newest run its cycle says is published). With --file it
 * ingests those files, which must be readable by the workers (shared disk).
 * The job id is the product + run, so enqueueing a run that is already queued
 * or done adds nothing and says so. `--allow` lets one ingest gate check
 * through for this job (docs/gate.md), kept in the job's data.
 */
import { parseArgs } from 'node:util';
import { productConfig } from '../config.js';
import { localIngestJob } from '../ingest-job.js';
import { resolveIngestJob } from '../resolve-job.js';
import { enqueueIngest } from '../queues.js';
import { parseRunTime } from '../run-time.js';
import { allowedChecksOrUsage, openContext, UsageError } from './context.js';
import { followJob } from './follow.js';
import { reportOutcome } from './outcome.js';

export const ENQUEUE_USAGE = 'jobs enqueue <product> [--run <time>] [--file <path>...] [--allow <check>...] [--no-wait]';

export async function enqueueCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    options: { run: { type: 'string' }, file: { type: 'string', multiple: true }, allow: { type: 'string', multiple: true }, 'no-wait': { type: 'boolean' } },
    allowPositionals: true,
    strict: true,
  });
  const product = positionals[0];
  if (!product || positionals.length > 1) throw new UsageError(`usage: meteopunto ${ENQUEUE_USAGE}`);
  let run: Date | undefined;
  try {
    run = values.run !== undefined ? parseRunTime(values.run) : undefined;
  } catch (err) {
    throw new UsageError(`--run: ${(err as Error).message}`);
  }

  const allow = allowedChecksOrUsage(values.allow);

  const ctx = await openContext();
  try {
    const { id, data: configured } = values.file?.length
      ? await localIngestJob(product, values.file, { ...(run ? { run } : {}), ...(ctx.config.products[product]?.model ? { model: ctx.config.products[product]!.model! } : {}) })
      : await resolveIngestJob(ctx.root, product, productConfig(ctx.config, product), { ...(run ? { run } : {}), now: new Date(), trigger: 'operator' });
    const data = allow.length > 0 ? { ...configured, allow } : configured;
    const r = await enqueueIngest(ctx.queues.ingest, ctx.config, id, data);
    if (r.duplicate) {
      console.log(`job ${id} already exists (${r.state}): not enqueued again`);
      if (r.state === 'completed') return reportOutcome(id, 'completed', await ctx.queues.ingest.getJob(id));
      if (r.state === 'failed') {
        console.log(`it failed: run \`meteopunto jobs retry ${id}\` to try again`);
        return 1;
      }
    } else {
      console.log(`enqueued ${id}${data.run ? ` (run ${data.run})` : ''} from ${data.source.kind}${data.fallback ? ` (fallback: ${data.fallback})` : ''}`);
    }
    if (values['no-wait']) return 0;
    const { state, job } = await followJob(ctx, id);
    return reportOutcome(id, state, job);
  } finally {
    await ctx.close();
  }
}
