/** Prints how a followed job ended; returns the exit code (0 completed, 1 failed). */
import type { Job } from 'bullmq';

export function reportOutcome(id: string, state: 'completed' | 'failed', job: Job | undefined): number {
  if (state === 'completed') {
    const r = job?.returnvalue as { version?: string; from?: string; to?: string; times?: number; variables?: string[]; nothingToDo?: string } | undefined;
    if (r?.nothingToDo) console.log(`${id}: nothing ingested (${r.nothingToDo})`);
    else if (r?.version) {
      const range = r.from ? `, ${r.from} .. ${r.to} (${r.times} times)` : '';
      console.log(`${id}: published ${r.version}${range}; variables: ${(r.variables ?? []).join(', ')}`);
    } else console.log(`${id}: completed`);
    return 0;
  }
  console.error(`${id}: failed after ${job?.attemptsMade ?? '?'} attempt(s): ${job?.failedReason ?? 'unknown reason'}`);
  return 1;
}
