/**
 * `meteopunto backfill status`: per year from 1920 to last year, published
 * (index of tiles/reanalysis), running or waiting (its job), failed (the job's
 * reason) or missing.
 */
import { HISTORY_START_YEAR } from '../../tiles/history-start.js';
import type { IngestQueue } from '../queues.js';
import { BACKFILL_PRODUCT, backfillJobId, isYearPublished } from './plan.js';

export interface BackfillStatus {
  published: number[];
  running: { year: number; stage?: string; percent?: number }[];
  waiting: number[];
  failed: { year: number; reason: string }[];
  missing: number[];
}

export async function backfillStatus(root: string, queue: IngestQueue, lastYear = new Date().getUTCFullYear() - 1): Promise<BackfillStatus> {
  const s: BackfillStatus = { published: [], running: [], waiting: [], failed: [], missing: [] };
  for (let y = HISTORY_START_YEAR; y <= lastYear; y++) {
    const job = await queue.getJob(backfillJobId(y));
    const state = job ? await job.getState() : 'unknown';
    if (state === 'active') {
      const p = job!.progress as { stage?: string; fraction?: number } | number;
      s.running.push({ year: y, ...(typeof p === 'object' && p ? { stage: p.stage, percent: Math.round((p.fraction ?? 0) * 100) } : {}) });
    } else if (state === 'waiting' || state === 'delayed' || state === 'prioritized' || state === 'waiting-children') s.waiting.push(y);
    else if (await isYearPublished(root, y)) s.published.push(y);
    else if (state === 'failed') s.failed.push({ year: y, reason: job!.failedReason ?? 'unknown' });
    else s.missing.push(y);
  }
  return s;
}

/** '1920–1925, 1930': consecutive years as ranges. */
export function yearRanges(years: readonly number[]): string {
  const parts: string[] = [];
  for (let k = 0; k < years.length; ) {
    let e = k;
    while (e + 1 < years.length && years[e + 1] === years[e]! + 1) e++;
    parts.push(e > k ? `${years[k]}–${years[e]}` : String(years[k]));
    k = e + 1;
  }
  return parts.join(', ') || 'none';
}

export function formatStatus(s: BackfillStatus): string {
  const lines = [`${BACKFILL_PRODUCT} backfill`];
  lines.push(`  published  ${s.published.length} year(s): ${yearRanges(s.published)}`);
  lines.push(`  running    ${s.running.length ? s.running.map((r) => `${r.year}${r.stage ? ` (${r.stage} ${r.percent}%)` : ''}`).join(', ') : 'none'}`);
  lines.push(`  waiting    ${yearRanges(s.waiting)}`);
  lines.push(`  failed     ${s.failed.length ? '' : 'none'}`);
  for (const f of s.failed) lines.push(`    ${f.year}: ${f.reason}`);
  lines.push(`  missing    ${s.missing.length} year(s): ${yearRanges(s.missing)}`);
  return lines.join('\n');
}
