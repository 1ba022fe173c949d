/**
 * `meteopunto jobs retry <id> [--allow <check>...] [--no-wait]`: runs a
 * failed ingest job again (attempts start over), or a completed one
 * (re-ingest the same run, e.g. after a product fix). Waiting or running
 * jobs are left alone. `--allow` lets an ingest gate check through for this
 * run (docs/gate.md), written into the job's data.
 */
import { parseArgs } from 'node:util';
import { allowedChecksOrUsage, openContext, UsageError } from './context.js';
import { followJob } from './follow.js';
import { reportOutcome } from './outcome.js';

export const RETRY_USAGE = 'jobs retry <id> [--allow <check>...] [--no-wait]';

export async function retryCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv, options: { allow: { type: 'string', multiple: true }, 'no-wait': { type: 'boolean' } }, allowPositionals: true, strict: true,
  });
  const id = positionals[0];
  if (!id || positionals.length > 1) throw new UsageError(`usage: meteopunto ${RETRY_USAGE}`);
  const allow = allowedChecksOrUsage(values.allow);
  const ctx = await openContext();
  try {
    const job = await ctx.queues.ingest.getJob(id);
    if (!job) {
      console.error(`jobs retry: no ingest job '${id}' (completed jobs are kept ${ctx.config.keepCompletedSeconds / 86_400} d, failed ${ctx.config.keepFailedSeconds / 86_400} d; see \`jobs status\`)`);
      return 1;
    }
    const state = await job.getState();
    if (state !== 'failed' && state !== 'completed') {
      console.log(`job ${id} is ${state}: nothing to retry`);
      return 0;
    }
    if (allow.length > 0) await job.updateData({ ...job.data, allow });
    await job.retry(state, { resetAttemptsMade: true, resetAttemptsStarted: true });
    console.log(`job ${id} (${state}) moved back to waiting`);
    if (values['no-wait']) return 0;
    const r = await followJob(ctx, id);
    return reportOutcome(id, r.state, r.job);
  } finally {
    await ctx.close();
  }
}
