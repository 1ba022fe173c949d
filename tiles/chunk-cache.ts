/**
 * Bounded LRU of decoded chunks (lru-cache, sized in bytes), keyed by a
 * numeric chunk id (tiles/version-state.ts) so that a lookup builds no key
 * string. Loads read the chunk file and zstd-decode it; concurrent requests
 * for the same chunk share one load.
 */
import { readFile } from 'node:fs/promises';
import { LRUCache } from 'lru-cache';
import { zstdDecode } from './zstd.js';
import { unshuffle } from './shuffle.js';

/** A decoded chunk: [time][row][col] (or [row][col] for static variables). */
export type ChunkData = Int16Array | Float32Array;

export interface ChunkRequest {
  id: number;
  file: string;
  int16: boolean;
  /** Values the chunk must hold. */
  length: number;
  zstd: boolean;
  /** Byte-shuffle element size, 0 = none. */
  shuffle: number;
}

/** Default cache budget: 256 MiB ≈ 2,600 forecast chunks of 49 steps × 32 × 32. */
export const DEFAULT_CACHE_BYTES = 256 * 1024 * 1024;

export class ChunkCache {
  private readonly lru: LRUCache<number, ChunkData>;
  private readonly inflight = new Map<number, Promise<ChunkData>>();

  constructor(maxBytes = DEFAULT_CACHE_BYTES) {
    this.lru = new LRUCache<number, ChunkData>({ maxSize: maxBytes, sizeCalculation: (c) => Math.max(1, c.byteLength) });
  }

  get(id: number): ChunkData | undefined {
    return this.lru.get(id);
  }

  get bytes(): number {
    return this.lru.calculatedSize;
  }

  get size(): number {
    return this.lru.size;
  }

  /** Load (or join the load of) one chunk; it is cached unless larger than the whole cache. */
  load(req: ChunkRequest): Promise<ChunkData> {
    const cached = this.lru.get(req.id);
    if (cached) return Promise.resolve(cached);
    let p = this.inflight.get(req.id);
    if (!p) {
      p = readChunk(req).then(
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

async function readChunk(req: ChunkRequest): Promise<ChunkData> {
  const stored = await readFile(req.file);
  const decompressed = req.zstd ? await zstdDecode(stored) : stored;
  const raw = req.shuffle ? unshuffle(decompressed, req.shuffle) : decompressed;
  const bytes = req.length * (req.int16 ? 2 : 4);
  if (raw.byteLength !== bytes) throw new Error(`${req.file}: corrupt chunk (${raw.byteLength} bytes decoded, ${bytes} expected)`);
  // Typed views need an aligned offset: copy when the buffer is shared (readFile's pool).
  const buf = raw.byteOffset === 0 ? raw.buffer : raw.slice().buffer;
  return req.int16 ? new Int16Array(buf, 0, req.length) : new Float32Array(buf, 0, req.length);
}
