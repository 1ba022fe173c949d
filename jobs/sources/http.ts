/**
 * HTTP(S) source: downloads every file of a run into the job's own download
 * directory, a few at a time. Files already complete from an earlier attempt
 * (final name, see http-download.ts) are reused; leftover `.part` files from
 * a killed attempt are deleted first, never taken as complete.
 */
import { mkdir, readdir, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { HttpFetchOptions, HttpFileSpec } from '../job-types.js';
import { downloadFile } from './http-download.js';

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
  await mkdir(ctx.dir, { recursive: true });
  await removePartials(ctx.dir);
  // The first failure stops the sibling downloads: the job fails or retries as a whole.
  const local = new AbortController();
  const signal = ctx.signal ? AbortSignal.any([ctx.signal, local.signal]) : local.signal;
  const fractions = new Array<number>(files.length).fill(0);
  let received = 0;
  let finished = 0;
  const report = (label: string) => ctx.onProgress?.(fractions.reduce((a, b) => a + b, 0) / Math.max(files.length, 1), label);

  let next = 0;
  let failure: unknown;
  const workers = Array.from({ length: Math.min(options.parallel, files.length) }, async () => {
    while (failure === undefined && next < files.length) {
      const i = next++;
      const f = files[i]!;
      try {
        const r = await downloadFile({
          url: f.url,
          dest: join(ctx.dir, f.name),
          decompress: f.decompress,
          ...(f.checksumUrl ? { checksumUrl: f.checksumUrl } : {}),
          options,
          signal,
          onBytes: (got, total) => {
            if (total) fractions[i] = Math.min(got / total, 0.99);
          },
        });
        fractions[i] = 1;
        received += r.receivedBytes;
        finished++;
        report(`${finished}/${files.length} files${r.reused ? ' (kept from an earlier attempt)' : ''}`);
      } catch (err) {
        if (failure === undefined) {
          failure = err;
          local.abort(err);
        }
      }
    }
  });
  // Byte progress between file completions, at most every 500 ms.
  const ticker = setInterval(() => report(`${finished}/${files.length} files`), 500);
  try {
    await Promise.all(workers);
  } finally {
    clearInterval(ticker);
  }
  if (failure !== undefined) throw failure;
  return { paths: files.map((f) => join(ctx.dir, f.name)), receivedBytes: received };
}
