/**
 * A variable's time chunks packed and compressed on threads (piscina) while
 * the calling thread reads the next planes and writes the finished files.
 *
 * Why: in a year's ingest the writer packed, shuffled and zstd-compressed
 * 18,001 chunks on the event loop, four at a time between fsyncs, and the
 * second core idled (docs/benchmarks-journal.md). Only stores with a long
 * time axis are worth the threads' start (about 0.3 s of CPU each on the
 * 2-core VM): {@link useEncodeThreads}.
 */
import { availableParallelism } from 'node:os';
import { Piscina } from 'piscina';
import type { Packing } from '../codecs/packing.js';
import type { EncodedChunks, EncodeTask } from './encode-worker.js';
import type { PlaneSource } from './plane-source.js';
import { workerModule } from '../worker-module.js';

/** Time chunks per variable from which threads pay: a year of hourly steps has 69, a forecast one. */
const MIN_TIME_CHUNKS = 8;

/** Threads: one per core up to 4 (the calling thread's reads and writes are light beside them). */
export function encodeThreadCount(): number {
  return Math.min(4, availableParallelism());
}

export function useEncodeThreads(timeChunks: number): boolean {
  return timeChunks >= MIN_TIME_CHUNKS;
}

export class EncodeThreads {
  private readonly pool: Piscina;
  readonly threads: number;

  constructor(threads = encodeThreadCount()) {
    this.threads = Math.max(1, threads);
    const worker = workerModule(import.meta.url, 'encode-worker');
    this.pool = new Piscina({ filename: worker.url.href, workerData: worker.workerData, minThreads: this.threads, maxThreads: this.threads });
  }

  /**
   * Every time chunk of `planes`, encoded on the threads; `write(tc, chunks)`
   * is called for each as it is ready (in any order), its promise awaited
   * before the call returns. At most two tasks per thread are in flight
   * (each holds one time chunk: 2 MB for a year of Italy).
   */
  async encodeVariable(
    planes: PlaneSource, timeChunks: number, shape: { nx: number; ny: number; edge: number; steps: number }, packing: Packing,
    write: (tc: number, chunks: EncodedChunks) => Promise<void>,
  ): Promise<void> {
    const cells = shape.nx * shape.ny;
    const inFlight = new Set<Promise<void>>();
    let failure: { error: unknown } | null = null;
    for (let tc = 0; tc < timeChunks && !failure; tc++) {
      const read = planes.read(tc * shape.steps, shape.steps);
      // The source's planes are overwritten by its next read: the task gets a copy of its own, transferred.
      const values = new Float32Array(read.length * cells);
      read.forEach((p, t) => values.set(p, t * cells));
      const task: EncodeTask = { values, ...shape, packing };
      const job = (this.pool.run(task, { transferList: [values.buffer] }) as Promise<EncodedChunks>)
        .then((chunks) => write(tc, chunks))
        .catch((error: unknown) => { failure ??= { error }; })
        .finally(() => inFlight.delete(job));
      inFlight.add(job);
      if (inFlight.size >= 2 * this.threads) await Promise.race(inFlight);
    }
    await Promise.all(inFlight);
    if (failure) throw (failure as { error: unknown }).error;
  }

  async close(): Promise<void> {
    await this.pool.destroy();
  }
}
