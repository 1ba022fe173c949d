/**
 * One entry point over the source kinds a job can name (job-types.ts
 * SourceSpec): fetch the files to local paths, then settle — clean up or
 * file away — once the job's outcome is known.
 */
import { rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { SourceSpec } from '../job-types.js';
import { fetchAdsFiles } from './ads.js';
import { marineFiles } from './copernicus-marine.js';
import { fetchHttpFiles } from './http.js';
import { claimInbox, settleInbox } from './inbox.js';
import { attemptPolicy } from './retry.js';
import type { RemoteJobs } from './remote-jobs.js';
import { SourceError } from './source-error.js';

export interface FetchContext {
  /** Data directory; downloads go to `<root>/downloads/<product>/<key>/`. */
  root: string;
  product: string;
  /** File-system-safe job key: names the download and inbox claim folders. */
  key: string;
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
  /** Ids of provider-side jobs kept between attempts (ADS/CDS). */
  remote?: RemoteJobs;
}

/**
 * 'done': ingested; 'failed': will not be retried (permanent error, last
 * attempt); 'retry': the job will run again, keep what it fetched.
 */
export type Outcome = 'done' | 'failed' | 'retry';

export interface FetchedFiles {
  paths: string[];
  receivedBytes: number;
  settle(outcome: Outcome, reason?: string): Promise<void>;
}

export function downloadDir(root: string, product: string, key: string): string {
  return join(root, 'downloads', product, key);
}

/** Also used when fetching itself failed, so that a failed job leaves no download folder behind. */
export async function settleSource(spec: SourceSpec, ctx: Pick<FetchContext, 'root' | 'product' | 'key'>, outcome: Outcome, reason?: string): Promise<void> {
  if (outcome === 'retry') return;
  if (spec.kind === 'http' || spec.kind === 'ads' || spec.kind === 'copernicus-marine') await rm(downloadDir(ctx.root, ctx.product, ctx.key), { recursive: true, force: true });
  if (spec.kind === 'inbox') await settleInbox(spec.dir, ctx.key, outcome, reason);
}

export async function fetchSource(spec: SourceSpec, ctx: FetchContext): Promise<FetchedFiles> {
  const settle = (outcome: Outcome, reason?: string) => settleSource(spec, ctx, outcome, reason);
  switch (spec.kind) {
    case 'http': {
      const dir = downloadDir(ctx.root, ctx.product, ctx.key);
      const r = await fetchHttpFiles(spec.files, spec.options, { dir, ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}) });
      return { ...r, settle };
    }
    case 'copernicus-marine': {
      const dir = downloadDir(ctx.root, ctx.product, ctx.key);
      const hooks = ctx.signal ? { signal: ctx.signal } : {};
      ctx.onProgress?.(0, `listing ${spec.datasets.length} Copernicus Marine dataset(s)`);
      const files = await marineFiles(spec, { timeoutMs: spec.options.headersMs + spec.options.idleMs, policy: attemptPolicy(spec.options), hooks });
      const r = await fetchHttpFiles(files, spec.options, { dir, ...(ctx.signal ? { signal: ctx.signal } : {}), ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}) });
      return { ...r, settle };
    }
    case 'ads': {
      const dir = downloadDir(ctx.root, ctx.product, ctx.key);
      const r = await fetchAdsFiles(spec, {
        dir,
        ...(ctx.signal ? { signal: ctx.signal } : {}),
        ...(ctx.onProgress ? { onProgress: ctx.onProgress } : {}),
        ...(ctx.remote ? { remote: ctx.remote } : {}),
      });
      return { ...r, settle };
    }
    case 'inbox': {
      const paths = await claimInbox(spec.dir, ctx.key, spec.settleMs);
      ctx.onProgress?.(1, `${paths.length} file(s) claimed from ${spec.dir}`);
      return { paths, receivedBytes: 0, settle };
    }
    case 'local': {
      for (const p of spec.paths) {
        const s = await stat(p).catch(() => undefined);
        if (!s?.isFile()) throw new SourceError('NO_FILES', `${p}: no such file on this worker`, false);
      }
      ctx.onProgress?.(1, `${spec.paths.length} local file(s)`);
      return { paths: spec.paths, receivedBytes: 0, settle };
    }
  }
}
