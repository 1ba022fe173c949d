/**
 * `meteopunto jobs status [--json]`: job counts per queue, then per product
 * the last successful ingest job, the live tile version (from current.json)
 * and the data's age, then the most recent failures with their reasons.
 */
import { parseArgs } from 'node:util';
import { readManifest } from '../../tiles/manifest-file.js';
import { tileStorage } from '../../tiles/storage/open.js';
import type { Manifest } from '../../tiles/manifest.js';
import type { IngestJobData, IngestJobResult } from '../job-types.js';
import { ago, openContext, type CommandContext } from './context.js';

const COUNTED = ['waiting', 'active', 'delayed', 'failed', 'completed', 'prioritized'] as const;
/** Finished jobs scanned for "last success" and "recent failures". */
const SCAN = 500;

export interface ProductStatus {
  product: string;
  lastSuccess?: { jobId: string; finishedAt: string; version: string; model?: string; fallback?: string };
  live?: { version: string; published: string; ageSeconds: number; run?: string; from?: string; to?: string; sample?: boolean };
  error?: string;
}

export interface JobsStatus {
  queues: Record<string, Record<string, number>>;
  products: ProductStatus[];
  recentFailures: { jobId: string; product: string; failedAt?: string; attemptsMade: number; reason: string }[];
}

/** Products in the root's tile storage (a directory or a bucket). */
async function publishedProducts(root: string): Promise<string[]> {
  const { dirs } = await tileStorage(root).children('').catch(() => ({ dirs: [] as string[] }));
  return dirs.filter((d) => !d.startsWith('.'));
}

export async function collectStatus(ctx: CommandContext, now = Date.now()): Promise<JobsStatus> {
  const queues: JobsStatus['queues'] = {};
  for (const q of [ctx.queues.ingest, ctx.queues.schedule]) queues[q.name] = await q.getJobCounts(...COUNTED);

  const completed = await ctx.queues.ingest.getJobs(['completed'], 0, SCAN - 1, false);
  const last = new Map<string, ProductStatus['lastSuccess']>();
  for (const job of completed) {
    const r = job.returnvalue as IngestJobResult | undefined;
    const data = job.data as IngestJobData | undefined;
    if (!data || !r || !('version' in r) || !job.finishedOn) continue;
    const prev = last.get(data.product);
    if (!prev || Date.parse(prev.finishedAt) < job.finishedOn) {
      last.set(data.product, {
        jobId: job.id ?? '?', finishedAt: new Date(job.finishedOn).toISOString(), version: r.version,
        ...(data.model ? { model: data.model } : {}), ...(data.fallback ? { fallback: data.fallback } : {}),
      });
    }
  }

  const names = [...new Set([...Object.keys(ctx.config.products), ...(await publishedProducts(ctx.root)), ...last.keys()])].sort();
  const storage = tileStorage(ctx.root);
  const products: ProductStatus[] = await Promise.all(names.map(async (product) => {
    const s: ProductStatus = { product, ...(last.get(product) ? { lastSuccess: last.get(product)! } : {}) };
    let m: Manifest | null = null;
    try {
      m = await readManifest(storage, product);
    } catch (err) {
      s.error = (err as Error).message;
    }
    if (m) {
      s.live = {
        version: m.version,
        published: m.published,
        ageSeconds: Math.round((now - Date.parse(m.published)) / 1000),
        ...(m.source.run ? { run: m.source.run } : {}),
        ...(m.times.length ? { from: m.times[0]!, to: m.times[m.times.length - 1]! } : {}),
        ...(m.source.sample ? { sample: true } : {}),
      };
    }
    return s;
  }));

  const failed = await ctx.queues.ingest.getJobs(['failed'], 0, 9, false);
  const recentFailures = failed.map((job) => ({
    jobId: job.id ?? '?',
    product: (job.data as IngestJobData | undefined)?.product ?? '?',
    ...(job.finishedOn ? { failedAt: new Date(job.finishedOn).toISOString() } : {}),
    attemptsMade: job.attemptsMade,
    reason: job.failedReason ?? '',
  }));
  return { queues, products, recentFailures };
}

export function formatStatus(s: JobsStatus, now = Date.now()): string {
  const lines: string[] = ['queues:'];
  for (const [name, counts] of Object.entries(s.queues)) {
    lines.push(`  ${name.padEnd(9)} ${COUNTED.filter((k) => k !== 'prioritized').map((k) => `${k} ${counts[k] ?? 0}`).join('  ')}`);
  }
  lines.push('products:');
  for (const p of s.products) {
    lines.push(`  ${p.product}`);
    lines.push(
      p.lastSuccess
        ? `    last success  ${p.lastSuccess.jobId} at ${p.lastSuccess.finishedAt} (${ago(Date.parse(p.lastSuccess.finishedAt), now)})`
        : '    last success  none in the job history',
    );
    if (p.lastSuccess?.fallback) lines.push(`    FALLBACK      ${p.lastSuccess.model ?? 'the fallback source'} used: ${p.lastSuccess.fallback}`);
    if (p.live) {
      const l = p.live;
      lines.push(`    live          ${l.version}${l.sample ? ' (SAMPLE DATA)' : ''}, published ${l.published} (data age ${ago(Date.parse(l.published), now).replace(' ago', '')})`);
      if (l.run || l.from) lines.push(`    data          ${l.run ? `run ${l.run}` : ''}${l.from ? `${l.run ? ', ' : ''}valid ${l.from} .. ${l.to}` : ''}`);
    } else {
      lines.push(`    live          ${p.error ? `unreadable: ${p.error}` : 'nothing published'}`);
    }
  }
  if (s.recentFailures.length) {
    lines.push('recent failures:');
    for (const f of s.recentFailures) lines.push(`  ${f.jobId} (${f.attemptsMade} attempt(s)${f.failedAt ? `, ${f.failedAt}` : ''}): ${f.reason}`);
  }
  return lines.join('\n');
}

export async function statusCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({ args: argv, options: { json: { type: 'boolean' } }, strict: true });
  const ctx = await openContext();
  try {
    const s = await collectStatus(ctx);
    console.log(values.json ? JSON.stringify(s, null, 2) : formatStatus(s));
    return 0;
  } finally {
    await ctx.close();
  }
}
