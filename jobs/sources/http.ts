/**
 * HTTP(S) source: downloads every file of a run into the job's own download
 * directory, a few at a time. Files already complete from an earlier attempt
 * (final name, see http-download.ts) are reused; leftover `.part` files from
 * a killed attempt are deleted first, never taken as complete.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HttpFetchOptions, HttpFileSpec } from '../job-types.js';
import { basicAuthHeaders } from './basic-auth.js';
import { downloadFile } from './http-download.js';
import { runPool } from './pool.js';
import { attemptPolicy } from './retry.js';

export interface HttpFetchContext {
  dir: string;
  signal?: AbortSignal;
  /** 0..1 over all files. */
  onProgress?: (fraction: number, message: string) => void;
}

export async function removePartials(dir: string): Promise<void> {
  const names = await readdir(dir).catch(() => [] as string[]);
  await Promise.all(names.filter((n) => n.endsWith('.part')).map((n) => rm(join(dir, n), { force: true })));
}

export async function fetchHttpFiles(files: HttpFileSpec[], options: HttpFetchOptions, ctx: HttpFetchContext): Promise<{ paths: string[]; receivedBytes: number }> {
  // Before anything is written: a worker without the login fails the job at once, naming the variable.
  const headers = basicAuthHeaders(options.basicAuth);
  await mkdir(ctx.dir, { recursive: true });
  await removePartials(ctx.dir);
  const policy = attemptPolicy(options);
  const fractions = new Array<number>(files.length).fill(0);
  let received = 0;
  let finished = 0;
  const progress = () => fractions.reduce((a, b) => a + b, 0) / Math.max(files.length, 1);
  const report = (label: string) => ctx.onProgress?.(progress(), label);

  // Byte progress between file completions, at most every 500 ms.
  const ticker = setInterval(() => report(`${finished}/${files.length} files`), 500);
  try {
    await runPool(
      files,
      options.parallel,
      async (f, i, signal) => {
        const r = await downloadFile({
          url: f.url,
          dest: join(ctx.dir, f.name),
          decompress: f.decompress,
          ...(f.checksumUrl ? { checksumUrl: f.checksumUrl } : {}),
          options,
          signal,
          retry: policy,
          ...(headers ? { headers } : {}),
          onRetry: (e, ms, n) => report(`${f.name}: ${e.message}; retry ${n} in ${Math.ceil(ms / 1000)} s`),
          onBytes: (got, total) => {
            if (total) fractions[i] = Math.min(got / total, 0.99);
          },
        });
        fractions[i] = 1;
        received += r.receivedBytes;
        finished++;
        report(`${finished}/${files.length} files${r.reused ? ' (kept from an earlier attempt)' : ''}`);
      },
      ctx.signal,
    );
  } finally {
    clearInterval(ticker);
  }
  return { paths: files.map((f) => join(ctx.dir, f.name)), receivedBytes: received };
}
