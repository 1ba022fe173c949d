/**
 * Bounded LRU of decoded blocks (lru-cache, sized in bytes), keyed by a
 * numeric id (tiles/read/version-state.ts) so that a lookup builds no key
 * string. A load reads the chunk files of the block's variables, zstd-decodes
 * them and interleaves them (./block.ts); concurrent requests for the same
 * block share one load.
 */
import { LRUCache } from 'lru-cache';
import type { ChunkData, ChunkFile } from './chunk-file.js';
import { readBlock, type BlockRequest } from './block-read.js';
import { FreedMemory } from './freed-memory.js';

/** Decoded values: a chunk [time][row][col] (or [row][col] for static variables), or a block of them (./block.ts). */
export type { ChunkData, ChunkFile, BlockRequest };

/** Budget when none is given (the tile store sizes its own: ./cache-budget.ts): 256 MiB ≈ 2,600 forecast chunks of 49 steps × 32 × 32. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

export class ChunkCache {
  private readonly lru: LRUCache<number, ChunkData>;
  private readonly inflight = new Map<number, Promise<ChunkData>>();

  /**
   * `onDrop(id)` runs whenever a block leaves the cache (evicted, replaced, cleared), for front tables of it;
   * `decode` reads a block (default on this thread; ./decode-pool.ts: in decode threads); `freed` hears the bytes
   * of shared blocks (a warm's) that leave, to report them to V8 (./freed-memory.ts).
   */
  constructor(
    maxBytes = DEFAULT_CACHE_BYTES,
    onDrop?: (id: number) => void,
    private readonly decode: (req: BlockRequest) => Promise<ChunkData> = readBlock,
    private readonly freed = new FreedMemory(),
  ) {
    this.lru = new LRUCache<number, ChunkData>({
      maxSize: maxBytes,
      sizeCalculation: (c) => Math.max(1, c.byteLength),
      dispose: (c: ChunkData, id: number) => {
        if (c.buffer instanceof SharedArrayBuffer) this.freed.add(c.byteLength);
        onDrop?.(id);
      },
    });
  }

  /** The block, marked most recently used; undefined when not cached. */
  get(id: number): ChunkData | undefined {
    const c = this.lru.get(id);
    if (c) this.hits++;
    return c;
  }

  /** Lookups answered from the cache, and blocks decoded from disk (for /metrics). */
  hits = 0;
  misses = 0;

  get bytes(): number {
    return this.lru.calculatedSize;
  }

  /** The budget, bytes. */
  get maxBytes(): number {
    return this.lru.maxSize;
  }

  get size(): number {
    return this.lru.size;
  }

  /** Load (or join the load of) one block; it is cached unless larger than the whole cache. */
  load(req: BlockRequest): Promise<ChunkData> {
    const cached = this.lru.get(req.id);
    if (cached) {
      this.hits++;
      return Promise.resolve(cached);
    }
    let p = this.inflight.get(req.id);
    if (!p) {
      this.misses++;
      p = this.decode(req).then(
        (c) => {
          this.inflight.delete(req.id);
          this.lru.set(req.id, c);
          this.freed.flush();
          return c;
        },
        (err: unknown) => {
          this.inflight.delete(req.id);
          throw err;
        },
      );
      this.inflight.set(req.id, p);
    }
    return p;
  }

  /** Whether block `id` is cached. */
  has(id: number): boolean {
    return this.lru.has(id);
  }

  /**
   * Decode block `req` with `decode` (a warm, ./warm.ts: in a decode thread) and cache it, unless it is cached or
   * being loaded; counted in `warmed`, not in `misses`.
   */
  async warm(req: BlockRequest, decode: (req: BlockRequest) => Promise<ChunkData>): Promise<void> {
    if (this.lru.has(req.id)) return;
    const running = this.inflight.get(req.id);
    if (running) {
      await running;
      return;
    }
    const p = decode(req);
    this.inflight.set(req.id, p);
    try {
      this.lru.set(req.id, await p);
      this.freed.flush();
      this.warmed++;
    } finally {
      this.inflight.delete(req.id);
    }
  }

  /** Blocks decoded by warms. */
  warmed = 0;

  /** Drop blocks first…first + n − 1 (a version no longer read). */
  deleteRange(first: number, n: number): void {
    for (let id = first; id < first + n; id++) this.lru.delete(id);
    this.freed.flush(true);
  }

  clear(): void {
    this.lru.clear();
    this.freed.flush(true);
  }
}
