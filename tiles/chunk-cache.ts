/**
 * Bounded LRU of decoded blocks (lru-cache, sized in bytes), keyed by a
 * numeric id (tiles/version-state.ts) so that a lookup builds no key
 * string. A load reads the chunk files of the block's variables, zstd-decodes
 * them and interleaves them (./block.ts); concurrent requests for the same
 * block share one load.
 */
import { LRUCache } from 'lru-cache';
import { interleave } from './block.js';
import { readChunk, type ChunkData, type ChunkFile } from './chunk-file.js';

/** Decoded values: a chunk [time][row][col] (or [row][col] for static variables), or a block of them (./block.ts). */
export type { ChunkData, ChunkFile };

/** A block to load: the same spatial chunk of several variables of one kind. */
export interface BlockRequest {
  id: number;
  int16: boolean;
  /** The member variables' chunk files, in member order. */
  files: ChunkFile[];
  /** Time steps per chunk (1 for static variables). */
  steps: number;
  /** Cells per chunk plane (chunk rows × columns). */
  plane: number;
}

/** Budget when none is given (the tile store sizes its own: ./cache-budget.ts): 256 MiB ≈ 2,600 forecast chunks of 49 steps × 32 × 32. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

export class ChunkCache {
  private readonly lru: LRUCache<number, ChunkData>;
  private readonly inflight = new Map<number, Promise<ChunkData>>();

  /** `onDrop(id)` runs whenever a block leaves the cache (evicted, replaced, cleared), for front tables of it. */
  constructor(maxBytes = DEFAULT_CACHE_BYTES, onDrop?: (id: number) => void) {
    this.lru = new LRUCache<number, ChunkData>({
      maxSize: maxBytes,
      sizeCalculation: (c) => Math.max(1, c.byteLength),
      ...(onDrop ? { dispose: (_c: ChunkData, id: number) => onDrop(id) } : {}),
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
      p = readBlock(req).then(
        (c) => {
          this.inflight.delete(req.id);
          this.lru.set(req.id, c);
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

  clear(): void {
    this.lru.clear();
  }
}

async function readBlock(req: BlockRequest): Promise<ChunkData> {
  const length = req.steps * req.plane;
  const chunks = await Promise.all(req.files.map((f) => readChunk(f, req.int16, length)));
  // A lone static chunk is already in block layout ([cell][1][1]).
  return chunks.length === 1 && req.steps === 1 ? chunks[0]! : interleave(chunks, req.steps, req.plane, req.int16);
}
