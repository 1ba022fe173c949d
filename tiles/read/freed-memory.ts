/**
 * Telling V8 about memory it cannot see become garbage. A warm's blocks are
 * SharedArrayBuffers (./decode-worker.ts says why), which V8 leaves out of
 * an isolate's external memory: when a version's blocks leave the cache, the
 * few hundred MiB they hold are freed only by a major GC, and nothing would
 * start one (a server at rest allocates nothing; under traffic the heap
 * grows a few MB a second). So the bytes dropped are reported as one
 * ArrayBuffer of that size, allocated and let go at once: V8 counts it as
 * external memory (Isolate::AdjustAmountOfExternalAllocatedMemory, as for
 * any ArrayBuffer), which past its limit starts incremental marking, one
 * cycle for the whole version, ending in the mark-compact that frees the
 * old blocks and this buffer. Its pages are never touched: calloc of that
 * size maps zero pages, no resident memory.
 */

/** Below this, dropped shared bytes wait for more (V8's own step: its soft limit of external growth is 64 MB). */
export const REPORT_BYTES = 64 * 2 ** 20;

/**
 * The report itself: ArrayBuffers of `bytes` in all, let go at once, in steps of {@link REPORT_BYTES} (each a small
 * allocation where the memory is committed strictly). Where even that fails, nothing is reported: the old blocks
 * wait for the next major GC, as before shared blocks, and the answer that dropped them is not refused for it.
 */
export function reportToV8(bytes: number): void {
  try {
    for (let left = bytes; left > 0; left -= REPORT_BYTES) void new ArrayBuffer(Math.min(left, REPORT_BYTES));
  } catch {
    // RangeError: the allocation failed (no address space or commit limit); a hint, not a need
  }
}

export class FreedMemory {
  private pending = 0;

  constructor(private readonly report: (bytes: number) => void = reportToV8) {}

  /** `bytes` of shared blocks dropped. */
  add(bytes: number): void {
    this.pending += bytes;
  }

  /** Report what was dropped: all of it (`force`: a version left the cache), else once it reaches {@link REPORT_BYTES}. */
  flush(force = false): void {
    const n = this.pending;
    if (n === 0 || (!force && n < REPORT_BYTES)) return;
    this.pending = 0;
    this.report(n);
  }
}
