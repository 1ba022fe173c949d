/**
 * Decode threads for the point reader's cold loads (piscina): reading and
 * zstd-decoding a block takes milliseconds, and on the event loop every
 * request waits behind it; in a thread, warm requests go on being answered
 * while cold blocks decode. One pool per process, created on first use and
 * shared by every TileStore that asks for threads (an explicit cache).
 */
import { Piscina } from 'piscina';
import type { ChunkData } from './chunk-file.js';
import type { BlockRequest } from './block-read.js';

let pool: Piscina | undefined;

/** The worker module: compiled JavaScript in dist/; under vitest/tsx a bootstrap that registers tsx first. */
function workerSpec(): { filename: string; workerData?: { entry: string } } {
  const self = import.meta.url;
  if (self.endsWith('.ts')) return { filename: new URL('./decode-worker-ts.mjs', self).href, workerData: { entry: new URL('./decode-worker.ts', self).href } };
  return { filename: new URL('./decode-worker.js', self).href };
}

/** A decode function running on `threads` threads (the process-wide pool grows to the largest count asked). */
export function threadDecoder(threads: number): (req: BlockRequest) => Promise<ChunkData> {
  if (!pool || pool.options.maxThreads < threads) {
    const old = pool;
    pool = new Piscina({ ...workerSpec(), minThreads: 1, maxThreads: threads, idleTimeout: 60_000 });
    void old?.destroy();
  }
  const p = pool;
  return (req) => p.run(req) as Promise<ChunkData>;
}

/** Blocks decoded in threads so far (tests, /healthz). */
export function threadDecodes(): number {
  return pool?.completed ?? 0;
}
