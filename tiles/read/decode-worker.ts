/**
 * A decode thread's task (./decode-pool.ts): read one block and hand its
 * buffer over without a copy.
 *
 * A warm's blocks (`shared`) are written into a SharedArrayBuffer, which V8
 * does not count in an isolate's external memory: an ArrayBuffer moved to
 * the event loop's isolate is counted there on arrival, and the few hundred
 * MiB of a publish's warm arriving block by block made V8 start a major GC
 * every ~32 MiB of them (9–11 mark-compacts, pauses of 9–200 ms on the loaded
 * 2-core machine, in the 5–18 s the old version answers beside the warm:
 * docs/benchmarks-journal.md, "The publish window's collector"). The memory
 * they free is reported when they leave the cache instead (./freed-memory.ts).
 */
import { setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { Piscina } from 'piscina';
import { readBlock, type BlockRequest } from './block-read.js';

/** A block to read; `shared`: into a SharedArrayBuffer (a warm's, in its region `into` when given). */
export type DecodeTask = BlockRequest & { shared?: boolean };

/** A spare slab to fault in (./warm-memory.ts): one byte written in every page. */
export type PrefaultTask = { prefault: SharedArrayBuffer };

/** Linux's page; a larger one is faulted all the same by a write every 4 KiB. */
const PAGE = 4096;

/** What a decode thread is started with: its niceness (the TypeScript bootstrap's entry beside it, ../worker-module.ts). */
export type DecodeThreadData = { readonly entry?: string; readonly nice: number };

// On Linux, setpriority(PRIO_PROCESS, 0) sets the calling thread's niceness alone; elsewhere it
// would lower the whole process, the event loop with it, so the warm keeps the default there,
// as it does where the call is refused (a sandbox): a warm at the default priority still warms.
const { nice } = workerData as DecodeThreadData;
if (nice > 0 && process.platform === 'linux') {
  try {
    setPriority(nice);
  } catch {
    // the default priority, above
  }
}

export default async function decodeBlock(req: DecodeTask | PrefaultTask): Promise<unknown> {
  if ('prefault' in req) {
    const bytes = new Uint8Array(req.prefault);
    for (let i = 0; i < bytes.length; i += PAGE) bytes[i] = 0;
    return null;
  }
  if (req.shared) return readBlock(req, true);
  return Piscina.move(await readBlock(req));
}
