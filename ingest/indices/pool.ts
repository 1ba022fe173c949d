/**
 * A small pool of worker threads for the band jobs (BullMQ's advice for
 * CPU-heavy work: keep it off the event loop). Jobs are built lazily, so only
 * the bands in flight are copied; results are transferred, not copied.
 *
 * Threads that ended their bands wait a while for the next call instead of
 * ending ({@link IDLE_MS}; not keeping the process alive meanwhile): a
 * streamed year calls once per file, and starting two threads per file cost
 * 4–5 s of CPU in a year, loading their modules (docs/benchmarks-journal.md,
 * "End of session on 66b5483, and the ERA5 year on a slower VM").
 *
 * Degrades instead of failing: a worker that cannot start or dies hands its
 * bands back to the calling thread, which computes it with the same kernel;
 * an error raised by the kernel itself is reported as such.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { transferables } from './bands.js';
import { computeBand, type BandJob, type BandResult } from './kernel.js';
import type { BandReply, BandRequest } from './worker.js';
import { processEnv } from '../../config/process-env.js';
import { integerSetting, type Environment } from '../../config/environment.js';
import { workerModule } from '../../tiles/worker-module.js';

/** Bands posted to a worker ahead of its replies (each holds a band's inputs until done). */
const QUEUED_PER_WORKER = 2;

/** Upper bound of the default worker count: more threads mostly add memory (each holds bands in flight). */
const MAX_DEFAULT_WORKERS = 4;

/** How long a thread with no band waits for the next call before it ends. */
const IDLE_MS = 10_000;

/** Threads with no band in flight, none of a call's listeners on them, the most recent last (an explicit cache). */
const idle: { w: Worker; drop: () => void }[] = [];
let idleTimer: NodeJS.Timeout | null = null;

/** A thread for a call: an idle one, or a new one. */
function takeWorker(url: URL, workerData: unknown): Worker {
  const kept = idle.pop();
  if (!kept) return new Worker(url, workerData ? { workerData } : {});
  kept.w.off('error', kept.drop).off('exit', kept.drop);
  kept.w.ref();
  return kept.w;
}

/** `w` ended its bands with none in flight, its call's listeners off: kept for the next call for {@link IDLE_MS}. */
function releaseWorker(w: Worker): void {
  // One that fails or exits while idle is dropped.
  const drop = () => {
    const i = idle.findIndex((k) => k.w === w);
    if (i >= 0) idle.splice(i, 1);
  };
  w.on('error', drop).on('exit', drop);
  w.unref();
  idle.push({ w, drop });
  if (idleTimer) clearTimeout(idleTimer);
  idleTimer = setTimeout(() => {
    idleTimer = null;
    for (const k of idle.splice(0)) void k.w.terminate();
  }, IDLE_MS);
  idleTimer.unref();
}

/** A thread's part in one call. */
interface WorkerState {
  current: Set<number>;
  detach(): void;
}

/** Workers to use: METEOPUNTO_INDEX_WORKERS when set (0 = none), else one per core up to 4. */
export function defaultWorkerCount(env: Environment = processEnv()): number {
  return integerSetting(env, 'METEOPUNTO_INDEX_WORKERS', Math.min(MAX_DEFAULT_WORKERS, availableParallelism()));
}

/**
 * Run every job on up to `workers` threads; `onDone(i, result)` in completion order.
 * Rejects with the kernel's error, or with the abort reason.
 */
export function runBands(
  jobs: readonly (() => BandJob)[],
  workers: number,
  onDone: (index: number, result: BandResult) => void,
  signal?: AbortSignal,
  onNote?: (message: string) => void,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const spec = workerModule(import.meta.url, 'worker');
    /** Threads of this call: the bands each has in flight, and how to take the call's listeners off it. */
    const pool = new Map<Worker, WorkerState>();
    let next = 0;
    let pending = jobs.length;
    let settled = false;

    const finish = (err?: unknown) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      // After an error or an abort a thread may still be computing a band, whose reply no call must meet: it ends.
      for (const [w, state] of pool) {
        if (err === undefined && state.current.size === 0) {
          state.detach();
          releaseWorker(w);
        } else void w.terminate();
      }
      pool.clear();
      if (err === undefined) resolve();
      else reject(err);
    };
    const onAbort = () => finish(signal!.reason);
    signal?.addEventListener('abort', onAbort, { once: true });

    const complete = (index: number, result: BandResult) => {
      try {
        onDone(index, result);
      } catch (err) {
        finish(err);
        return;
      }
      if (--pending === 0) finish();
    };

    /** A band whose worker failed: compute it here, then carry on with the rest here too. */
    const inline = (index: number) => {
      setImmediate(() => {
        if (settled) return;
        try {
          complete(index, computeBand(jobs[index]!()));
        } catch (err) {
          finish(err);
          return;
        }
        if (pool.size === 0 && next < jobs.length) inline(next++);
      });
    };

    const feed = (w: Worker, state: WorkerState) => {
      if (settled) return;
      if (next >= jobs.length) {
        if (state.current.size > 0) return;
        pool.delete(w);
        state.detach();
        releaseWorker(w);
        return;
      }
      const id = next++;
      state.current.add(id);
      let job: BandJob;
      try {
        job = jobs[id]!();
      } catch (err) {
        finish(err);
        return;
      }
      w.postMessage({ id, job } satisfies BandRequest, transferables(job));
    };

    const count = Math.max(1, Math.min(workers, jobs.length));
    for (let n = 0; n < count; n++) {
      let w: Worker;
      try {
        w = takeWorker(spec.url, spec.workerData);
      } catch (err) {
        onNote?.(`index worker thread could not start (${err instanceof Error ? err.message : String(err)}): computing in the calling thread`);
        continue;
      }
      const onMessage = (reply: BandReply) => {
        state.current.delete(reply.id);
        if ('error' in reply) {
          finish(new Error(`index precomputation failed in band ${reply.id}: ${reply.error}`));
          return;
        }
        complete(reply.id, reply.result);
        feed(w, state);
      };
      const onExit = () => {
        if (pool.has(w)) failed();
      };
      const state: WorkerState = { current: new Set<number>(), detach: () => void w.off('message', onMessage).off('error', failed).off('exit', onExit) };
      pool.set(w, state);
      w.on('message', onMessage);
      let dead = false;
      const failed = (err?: unknown) => {
        // Could not start, crashed or exited: its bands (if any) are computed here.
        if (dead || settled) return;
        dead = true;
        onNote?.(`index worker thread failed (${err instanceof Error ? err.message : 'exited'}): its bands are computed in the calling thread`);
        pool.delete(w);
        if (state.current.size > 0) for (const id of state.current) inline(id);
        else if (pool.size === 0 && next < jobs.length) inline(next++);
      };
      w.on('error', failed).on('exit', onExit);
      // A second band queued behind the first: the worker goes on while the calling thread is busy (the streamed
      // ingest reads and maps its next file meanwhile) instead of waiting for it to hand the next band over.
      for (let d = 0; d < QUEUED_PER_WORKER; d++) feed(w, state);
    }
    if (pool.size === 0 && jobs.length > 0) inline(next++);
    if (jobs.length === 0) finish();
  });
}
