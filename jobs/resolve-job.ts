/**
 * The ingest job a schedule tick or an operator enqueues, for any source.
 * Most sources are resolved from configuration alone (ingest-job.ts); a
 * MeteoHub source first asks the provider which run is complete
 * (sources/meteohub.ts) and names that run's files in the job, so the job
 * stays self-contained and keyed by its run.
 *
 * Fallback: when the MeteoHub run is late — no complete run whose nominal
 * time lies within the source's `lateAfterHours` — the product's `fallback`
 * source's newest run is enqueued instead, keyed `<run>-fallback` (so it
 * never stands in for a primary run of the same hour), its model named in
 * the manifest and the reason kept in the job (`fallback`, shown by `jobs
 * status`). The next tick asks MeteoHub again: once a complete run is
 * there, it is ingested and replaces the fallback. MeteoHub not answering
 * (after the retries in place) counts as late too: the run is missing.
 */
import type { ProductJobsConfig } from './config-schema.js';
import { configuredIngestJob, httpOptions, ingestJobId } from './ingest-job.js';
import type { IngestJobData } from './job-types.js';
import { runKey } from './run-time.js';
import { findMeteohubRun, type MeteohubFind } from './sources/meteohub.js';
import { attemptPolicy } from './sources/retry.js';
import { SourceError } from './sources/source-error.js';

/** Longest a tick spends asking MeteoHub, retries in place included (ms). */
const RESOLVE_MAX_MS = 5 * 60_000;

export interface ResolveOptions {
  run?: Date;
  now: Date;
  trigger: IngestJobData['trigger'];
  signal?: AbortSignal;
}

export async function resolveIngestJob(root: string, product: string, cfg: ProductJobsConfig, opts: ResolveOptions): Promise<{ id: string; data: IngestJobData }> {
  const src = cfg.source;
  if (src.kind !== 'meteohub') return configuredIngestJob(root, product, cfg, opts);
  const options = httpOptions(src);
  // A tick only looks: its retries in place stop well before the job's download budget.
  const policy = attemptPolicy({ ...options, deadlineMs: Math.min(options.deadlineMs ?? RESOLVE_MAX_MS, RESOLVE_MAX_MS) });
  const req = { timeoutMs: options.headersMs + options.idleMs, policy, hooks: opts.signal ? { signal: opts.signal } : {} };
  let found: MeteohubFind;
  try {
    found = await findMeteohubRun(src, { now: opts.now, ...(opts.run ? { run: opts.run } : {}), req });
  } catch (err) {
    if (!(err instanceof SourceError) || !cfg.fallback || opts.run) throw err;
    found = { kind: 'late', reason: `MeteoHub did not answer: ${err.message}` };
  }
  if (found.kind === 'found') {
    const data: IngestJobData = {
      product,
      ...(cfg.model ? { model: cfg.model } : {}),
      run: found.run.toISOString(),
      trigger: opts.trigger,
      source: { kind: 'http', files: found.files, options },
    };
    return { id: ingestJobId(product, runKey(found.run)), data };
  }
  const primary = cfg.model ?? src.dataset;
  // An operator asking for one run gets that run or an error, never another model.
  if (opts.run || !cfg.fallback) throw new SourceError('NOT_PUBLISHED', `${primary} (${src.root}): ${found.reason}`, true);
  const fb = cfg.fallback;
  const job = configuredIngestJob(root, product, { ...(fb.run ? { run: fb.run } : {}), ...(fb.model ? { model: fb.model } : {}), source: fb.source }, { now: opts.now, trigger: opts.trigger });
  const run = new Date(job.data.run!);
  return { id: ingestJobId(product, `${runKey(run)}-fallback`), data: { ...job.data, fallback: `${primary} late: ${found.reason}` } };
}
