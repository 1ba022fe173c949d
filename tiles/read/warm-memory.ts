/**
 * Memory for a warm's blocks, faulted in before the warm needs it.
 *
 * A warm writes a version's blocks into fresh SharedArrayBuffers (./decode-worker.ts says why shared), and the
 * first write to each fresh page is a page fault: on the 2-core VM of docs/benchmarks-journal.md ("The publish
 * window's page faults") ~12 µs each, so the 350 MiB of the sample's nwp cost ~90,000 faults and 1.1 s of CPU in a
 * publish window, half of its warm's CPU, while the old version answers. So each warm gets one slab (a
 * SharedArrayBuffer its blocks are regions of), taken from the spares when one fits:
 *
 * - a slab whose blocks are all unreachable (a FinalizationRegistry on each block's view: the cache let go of it
 *   and no request still holds it) becomes a spare, its pages resident: a replaced version's slab serves the
 *   next publish of the same store, no fault;
 * - `reserve` adds a spare faulted in now (a starting server, before it is ready: the first publish's).
 *
 * Spares hold at most the largest warm's bytes (the cache budget's "largest store again", ./cache-budget.ts);
 * past that the smallest go to the collector. A region is reused only once nothing can read it, and a decode
 * writes every byte of its block (./block-read.ts), so old values never show through. A warmed block the cache
 * evicts (cold loads crowding it out) keeps its bytes until its slab's last block goes, when its version is
 * replaced: up to one warm's size past the budget, per store, while that lasts.
 */

/** Where a block is written: from `offset` of a slab, its size's worth. */
export interface BlockRegion {
  buffer: SharedArrayBuffer;
  offset: number;
}

/** Regions start at multiples of this (any element type's alignment, and a cache line's). */
const ALIGN = 64;

/** `bytes` as a region takes them: sum these for a warm's slab. */
export const aligned = (bytes: number): number => Math.ceil(bytes / ALIGN) * ALIGN;

/** A spare is used for a warm of at least this share of its size (a small store's warm leaves a large spare to its own). */
const MIN_FILL = 0.5;

/** Whether `spare` serves a warm of `bytes`: it holds them, and they fill at least MIN_FILL of it. */
const fits = (spare: SharedArrayBuffer, bytes: number): boolean => spare.byteLength >= bytes && spare.byteLength * MIN_FILL <= bytes;

/** One warm's memory: its blocks' regions, in the order taken. */
export class WarmSlab {
  private at = 0;
  /** Blocks written and still reachable. */
  live = 0;
  sealed = false;

  constructor(
    readonly buffer: SharedArrayBuffer,
    private readonly memory: WarmMemory,
  ) {}

  /** The next `bytes`; null when the slab is full (the caller allocates the block on its own). */
  take(bytes: number): BlockRegion | null {
    const size = aligned(bytes);
    if (this.sealed || this.at + size > this.buffer.byteLength) return null;
    const region = { buffer: this.buffer, offset: this.at };
    this.at += size;
    return region;
  }

  /** `view`, a block written into one of this slab's regions: the slab is not reused while it is reachable. */
  hold(view: object): void {
    this.live++;
    this.memory.track(view, this);
  }

  /** The warm is over: once no block of it is reachable, the slab is a spare. */
  seal(): void {
    this.sealed = true;
    if (this.live === 0) this.memory.release(this);
  }
}

export class WarmMemory {
  private readonly spares: SharedArrayBuffer[] = [];
  /** The largest warm asked for (bytes): the spares' bound. */
  private largest = 0;
  private readonly registry = new FinalizationRegistry<WarmSlab>((slab) => {
    if (--slab.live === 0 && slab.sealed) this.release(slab);
  });

  /** `prefault` writes one byte of every page of a new spare (in a thread: ./decode-pool.ts). */
  constructor(private readonly prefault: (buffer: SharedArrayBuffer) => Promise<void>) {}

  /** A slab for a warm of `bytes`: the smallest spare that holds it, or a new (unfaulted) buffer. */
  slab(bytes: number): WarmSlab {
    this.largest = Math.max(this.largest, bytes);
    let best = -1;
    for (let i = 0; i < this.spares.length; i++) {
      if (fits(this.spares[i]!, bytes) && (best < 0 || this.spares[i]!.byteLength < this.spares[best]!.byteLength)) best = i;
    }
    const buffer = best >= 0 ? this.spares.splice(best, 1)[0]! : new SharedArrayBuffer(bytes);
    return new WarmSlab(buffer, this);
  }

  /**
   * Fault in a spare of `bytes` (default: the largest warm's) now, unless one that size is spare already; resolves
   * when it is resident.
   */
  async reserve(bytes = this.largest): Promise<void> {
    if (bytes <= 0 || this.spares.some((s) => fits(s, bytes))) return;
    this.largest = Math.max(this.largest, bytes);
    const buffer = new SharedArrayBuffer(bytes);
    await this.prefault(buffer);
    this.keep(buffer);
  }

  /** Bytes held as spares (tests, the ready log). */
  get spareBytes(): number {
    return this.spares.reduce((n, s) => n + s.byteLength, 0);
  }

  /** @internal WarmSlab's */
  track(view: object, slab: WarmSlab): void {
    this.registry.register(view, slab);
  }

  /** @internal WarmSlab's, and the registry's: no block of `slab` is reachable any more. */
  release(slab: WarmSlab): void {
    this.keep(slab.buffer);
  }

  private keep(buffer: SharedArrayBuffer): void {
    this.spares.push(buffer);
    this.spares.sort((a, b) => b.byteLength - a.byteLength);
    let total = this.spareBytes;
    // Over the bound, the smallest go (the largest store's publish is the one that faults most).
    while (total > this.largest && this.spares.length > 1) total -= this.spares.pop()!.byteLength;
  }
}
