/**
 * Decode threads for the point reader's cold loads and warms (piscina):
 * reading and zstd-decoding a block takes milliseconds, and on the event
 * loop every request waits behind it; in a thread, warm requests go on being
 * answered while cold blocks decode. Two pools per process, created on first
 * use and shared by every TileStore that asks for threads (explicit caches):
 * one for cold loads, which requests wait for, and one for warms, which no
 * request waits for (a start's before `/healthz` turns ready, a publish's
 * while the old version answers), whose threads run at a lower priority.
 */
import { Piscina } from 'piscina';
import type { ChunkData } from './chunk-file.js';
import type { BlockRequest } from './block-read.js';
import { workerModule } from '../worker-module.js';
import type { DecodeTask, DecodeThreadData, PrefaultTask } from './decode-worker.js';

/**
 * The niceness of a warm's threads (Linux; 0–19, higher yields more). A publish's warm decodes some
 * 2 s of CPU while the old version answers; at the default priority it took the cores from the
 * answers on a loaded 2-core machine (the cold phase's publish window 0.268–0.282 of the bare
 * route against 0.317–0.327 at 10, switch after 4.7–6.0 s against 5.1–7.4: docs/benchmarks-journal.md,
 * "The publish window's warm, at a lower priority"). On idle cores it changes nothing.
 */
const WARM_NICE = 10;

type PoolKind = 'load' | 'warm';
const pools = new Map<PoolKind, Piscina>();

/** The `kind` pool with at least `threads` threads (replaced by a larger one when asked). */
function poolOf(kind: PoolKind, threads: number): Piscina {
  const current = pools.get(kind);
  if (current && current.options.maxThreads >= threads) return current;
  const worker = workerModule(import.meta.url, 'decode-worker');
  const workerData: DecodeThreadData = { ...worker.workerData, nice: kind === 'warm' ? WARM_NICE : 0 };
  const pool = new Piscina({ filename: worker.url.href, workerData, minThreads: 1, maxThreads: threads, idleTimeout: 60_000 });
  pools.set(kind, pool);
  void current?.destroy();
  return pool;
}

/**
 * A decode function running on `threads` threads. `warm`: a warm's, on the warm pool's threads at
 * {@link WARM_NICE}, its blocks in SharedArrayBuffers (./decode-worker.ts says why).
 */
export function threadDecoder(threads: number, warm = false): (req: BlockRequest) => Promise<ChunkData> {
  // The pool is looked up at each call: one replaced by a larger one (another store's) is destroyed.
  poolOf(warm ? 'warm' : 'load', threads);
  if (warm) return (req) => poolOf('warm', threads).run({ ...req, shared: true } satisfies DecodeTask) as Promise<ChunkData>;
  return (req) => poolOf('load', threads).run(req) as Promise<ChunkData>;
}

/** Fault in `buffer`'s pages on a warm thread of the `threads` pool (a spare slab: ./warm-memory.ts). */
export async function prefaultInThread(threads: number, buffer: SharedArrayBuffer): Promise<void> {
  await poolOf('warm', threads).run({ prefault: buffer } satisfies PrefaultTask);
}

/** Blocks decoded in threads so far, both pools (tests). */
export function threadDecodes(): number {
  let n = 0;
  for (const p of pools.values()) n += p.completed;
  return n;
}

/** Threads the warm pool runs now (tests: their priority is the kernel's to tell). */
export function warmThreads(): number {
  return pools.get('warm')?.threads.length ?? 0;
}
