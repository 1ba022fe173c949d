/**
 * Follows one job until it completes or fails, with a cli-progress bar fed by
 * the job's progress events (QueueEvents). On a terminal that is not a TTY
 * the bar is replaced by one line per stage. A one-second state poll backs up
 * the event stream, so a job finishing before the subscription is not missed.
 */
import { QueueEvents, type Job } from 'bullmq';
import cliProgress from 'cli-progress';
import { INGEST_QUEUE } from '../../config/queues.js';
import { bullConnection } from '../connection.js';
import type { JobProgressInfo } from '../job-types.js';
import type { CommandContext } from './context.js';

export interface FollowResult {
  state: 'completed' | 'failed';
  job: Job;
}

function asProgress(p: unknown): JobProgressInfo | undefined {
  if (p && typeof p === 'object' && 'fraction' in p && 'stage' in p) return p as JobProgressInfo;
  if (typeof p === 'number') return { stage: '', fraction: p / 100 };
  return undefined;
}

export async function followJob(ctx: CommandContext, jobId: string, out: NodeJS.WriteStream = process.stderr): Promise<FollowResult> {
  const events = new QueueEvents(INGEST_QUEUE, { connection: bullConnection(ctx.redisUrl), prefix: ctx.prefix });
  events.on('error', () => {});
  const tty = out.isTTY === true;
  const bar = tty
    ? new cliProgress.SingleBar(
        { format: `${jobId} [{bar}] {percentage}% | {stage} {message}`, hideCursor: true, stream: out, clearOnComplete: false },
        cliProgress.Presets.shades_classic,
      )
    : undefined;
  bar?.start(100, 0, { stage: 'waiting', message: '' });
  let lastStage = '';
  const show = (p: JobProgressInfo | undefined) => {
    if (!p) return;
    const pct = Math.round(p.fraction * 100);
    if (bar) bar.update(pct, { stage: p.stage, message: (p.message ?? '').slice(0, 60) });
    else if (p.stage !== lastStage) out.write(`${jobId}: ${p.stage} ${pct}% ${p.message ?? ''}\n`);
    lastStage = p.stage;
  };

  try {
    await events.waitUntilReady();
    return await new Promise<FollowResult>((resolve, reject) => {
      let done = false;
      let attempts = 0;
      const finish = async () => {
        if (done) return;
        const job = await ctx.queues.ingest.getJob(jobId);
        if (!job) {
          done = true;
          reject(new Error(`job ${jobId} disappeared (removed?)`));
          return;
        }
        const state = await job.getState();
        if (state === 'completed' || state === 'failed') {
          done = true;
          clearInterval(poll);
          if (state === 'completed') show({ stage: 'done', fraction: 1 });
          // Read the job again: the copy above may predate the transition (return value or reason not yet in it).
          resolve({ state, job: (await ctx.queues.ingest.getJob(jobId)) ?? job });
        } else {
          if (job.attemptsMade > attempts) {
            attempts = job.attemptsMade;
            const note = `attempt ${attempts} failed (${job.failedReason ?? 'unknown'}); retrying`;
            if (bar) bar.update({ stage: 'retry', message: note.slice(0, 60) });
            else out.write(`${jobId}: ${note}\n`);
          }
          show(asProgress(job.progress));
        }
      };
      events.on('progress', ({ jobId: id, data }) => {
        if (id === jobId) show(asProgress(data));
      });
      events.on('completed', ({ jobId: id }) => id === jobId && void finish().catch(reject));
      events.on('failed', ({ jobId: id }) => id === jobId && void finish().catch(reject));
      const poll = setInterval(() => void finish().catch(reject), 1000);
      void finish().catch(reject);
    });
  } finally {
    bar?.stop();
    await events.close();
  }
}
