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
import { workerModule } from '../worker-module.js';
import type { DecodeTask } from './decode-worker.js';

let pool: Piscina | undefined;

/**
 * A decode function running on `threads` threads (the process-wide pool grows to the largest count asked).
 * `shared`: its blocks in SharedArrayBuffers (a warm's: ./decode-worker.ts says why).
 */
export function threadDecoder(threads: number, shared = false): (req: BlockRequest) => Promise<ChunkData> {
  if (!pool || pool.options.maxThreads < threads) {
    const old = pool;
    const worker = workerModule(import.meta.url, 'decode-worker');
    pool = new Piscina({ filename: worker.url.href, workerData: worker.workerData, minThreads: 1, maxThreads: threads, idleTimeout: 60_000 });
    void old?.destroy();
  }
  const p = pool;
  if (shared) return (req) => p.run({ ...req, shared: true } satisfies DecodeTask) as Promise<ChunkData>;
  return (req) => p.run(req) as Promise<ChunkData>;
}

/** Blocks decoded in threads so far (tests, /healthz). */
export function threadDecodes(): number {
  return pool?.completed ?? 0;
}
