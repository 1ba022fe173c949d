/**
 * Reading one cache block from disk: the chunk files of its variables,
 * decoded (./chunk-file.ts) and interleaved (./block.ts) in one pass, or planar
 * (./planar-block.ts). Runs on the event loop or in a decode thread
 * (./decode-pool.ts); the work is the same.
 * A *bridge* block (a time bracket across two time chunks,
 * ./neighbour-blocks.ts) holds the last step of each member's chunk and the
 * first step of the next one.
 */
import { interleaveInto, type BlockRequest } from './block.js';
import type { BlockRegion } from './warm-memory.js';
import { fetchChunk, inflateChunkView, storedBytes, type ChunkData, type ChunkFile } from './chunk-file.js';
import { zstdReady } from '../codecs/zstd.js';
import type { TileStorage } from '../storage/types.js';
import { readPlanarBlock } from './planar-block.js';
import { wasmInterleaver } from './interleave-wasm.js';

export type { BlockRequest };

/**
 * A block decoder that fetches a bucket's chunks first (on this thread), then decodes them with `decode` (here or
 * in a thread). Its two stages are also given apart, so that a warm (./warm.ts) can fetch the next blocks while
 * one decodes: a bucket's GET costs tens of ms of waiting and little CPU here, the decode the opposite.
 */
export interface FetchingDecoder {
  (req: BlockRequest): Promise<ChunkData>;
  /**
   * The request with its chunks' stored bytes (`data`, `nextData`); a missing chunk rejects with code ENOENT.
   * `limit` runs each GET (a warm's bound on the GETs in flight).
   */
  fetch(req: BlockRequest, limit?: Limit): Promise<BlockRequest>;
  /** Decode a request {@link fetch} filled. */
  decodeFetched(req: BlockRequest): Promise<ChunkData>;
  /** GETs a warm keeps in flight (the storage's `warmGets`; 0: none ahead). */
  gets: number;
}

/** Runs a task now or once fewer than its bound are running (./warm.ts). */
export type Limit = <T>(task: () => Promise<T>) => Promise<T>;

export function fetchingDecoder(decode: (req: BlockRequest) => Promise<ChunkData>, storage: TileStorage): FetchingDecoder {
  const fetchAll = (files: ChunkFile[], limit?: Limit) => Promise.all(files.map((f) => (limit ? limit(() => fetchChunk(f, storage)) : fetchChunk(f, storage))));
  const fetch = async (req: BlockRequest, limit?: Limit): Promise<BlockRequest> => {
    const [data, nextData] = await Promise.all([fetchAll(req.files, limit), req.next ? fetchAll(req.next, limit) : undefined]);
    return { ...req, data, ...(nextData ? { nextData } : {}) };
  };
  return Object.assign(async (req: BlockRequest) => decode(await fetch(req)), { fetch, decodeFetched: decode, gets: storage.warmGets ?? 0 });
}

/** The stages of `decode` when it is a {@link fetchingDecoder}; null otherwise (a directory's, read by path). */
export function fetchStages(decode: (req: BlockRequest) => Promise<ChunkData>): FetchingDecoder | null {
  return 'fetch' in decode && 'decodeFetched' in decode ? (decode as FetchingDecoder) : null;
}

/**
 * The block of `req`. `shared`: in a SharedArrayBuffer (a warm's block, decoded in a thread: ./decode-worker.ts
 * says why), in the region `req.into` when given (./warm-memory.ts); else in an ArrayBuffer of its own.
 */
export async function readBlock(req: BlockRequest, shared = false): Promise<ChunkData> {
  if (req.planar) {
    const block = await readPlanarBlock(req);
    return shared ? sharedCopy(block, req.into) : block;
  }
  await zstdReady();
  // From here on synchronous: the chunk files share one read buffer (./chunk-file.ts readChunkFileSync).
  return readInterleavedBlockSync(req, shared);
}

/** `block` copied into a SharedArrayBuffer, or into `into` (a planar block is the decoder's own buffer). */
function sharedCopy(block: ChunkData, into: BlockRegion | undefined): ChunkData {
  const { buffer, offset } = into ?? { buffer: new SharedArrayBuffer(block.byteLength), offset: 0 };
  const copy = block instanceof Int16Array ? new Int16Array(buffer, offset, block.length) : new Float32Array(buffer, offset, block.length);
  copy.set(block);
  return copy;
}

/**
 * Each member's chunk read, decompressed and written into the block at once ({@link interleaveInto}), before the
 * next is read: a local file is read synchronously into the reused buffer, as the planar blocks' are
 * (./planar-block.ts). readFile's thread-pool round trips and buffer of its own cost 2.0 of the 5.1 ms of CPU per
 * nwp block a warm decodes (docs/benchmarks-journal.md, "Publish window"). Shuffled int16 chunks (what the store
 * writes) are interleaved in the decoder's memory by a SIMD kernel instead, then copied into the block
 * (./interleave-wasm.ts).
 */
function readInterleavedBlockSync(req: BlockRequest, shared: boolean): ChunkData {
  const size = req.int16 ? 2 : 4;
  const chunkSteps = req.chunkSteps ?? req.steps;
  const chunkBytes = chunkSteps * req.plane * size;
  const members = req.files.length;
  const bytes = members * req.steps * req.plane * size;
  // A warm's region is written whole below (every member, step and cell), so a reused slab shows no old values.
  const { buffer, offset } = shared ? (req.into ?? { buffer: new SharedArrayBuffer(bytes), offset: 0 }) : { buffer: new ArrayBuffer(bytes), offset: 0 };
  const k = req.int16 && req.plane % 16 === 0 && everyChunk(req, (f) => f.zstd && f.shuffle === 2) ? wasmInterleaver() : null;
  // The members' steps first … first + n − 1 of `files` to block steps t0 … t0 + n − 1.
  let put: (files: ChunkFile[], data: Uint8Array[] | undefined, first: number, n: number, t0: number) => void;
  let scratch = 0;
  if (k) {
    scratch = k.z.scratch(bytes);
    const plane = req.plane;
    const len = chunkSteps * plane;
    const cellStride = req.steps * members * 2;
    // The address of a member's row `first` decoded into the decoder's output buffer `slot`.
    const decoded = (f: ChunkFile, fetched: Uint8Array | undefined, slot: number, first: number) => {
      const raw = inflateChunkView(f, storedBytes(f, fetched), chunkBytes, slot);
      if (raw.buffer !== k.z.memory.buffer) throw new Error(`${f.key}: decoded outside the decoder's memory`);
      return raw.byteOffset + first * plane;
    };
    put = (files, data, first, n, t0) => {
      // Two members at a time (one store per pair of values), the last one alone when they are odd.
      let m = 0;
      for (; m + 1 < members; m += 2) {
        const a = decoded(files[m]!, data?.[m], 0, first);
        const b = decoded(files[m + 1]!, data?.[m + 1], 1, first);
        k.interleave2x2(a, b, len, n, plane, scratch + (t0 * members + m) * 2, cellStride, members * 2);
      }
      if (m < members) k.interleave2(decoded(files[m]!, data?.[m], 0, first), len, n, plane, scratch + (t0 * members + m) * 2, cellStride, members * 2);
    };
  } else {
    const out = req.int16 ? new Uint16Array(buffer, offset, bytes / 2) : new Uint32Array(buffer, offset, bytes / 4);
    put = (files, data, first, n, t0) =>
      files.forEach((f, m) => interleaveInto(inflateChunkView(f, storedBytes(f, data?.[m]), chunkBytes), f.shuffle, size, first, n, req.plane, out, members, m, req.steps, t0));
  }
  if (req.next) {
    // A bridge: the last step of each member's chunk, then the first of the next chunk.
    put(req.files, req.data, chunkSteps - 1, 1, 0);
    put(req.next, req.nextData, 0, 1, 1);
  } else {
    put(req.files, req.data, 0, req.steps, 0);
  }
  // The memory may have grown meanwhile (a larger frame): its bytes as they are now.
  if (k) new Uint8Array(buffer, offset, bytes).set(k.z.bytes().subarray(scratch, scratch + bytes));
  return req.int16 ? new Int16Array(buffer, offset, bytes / 2) : new Float32Array(buffer, offset, bytes / 4);
}

/** Whether `test` holds for every chunk file of `req` (and of its next time chunk, a bridge's). */
function everyChunk(req: BlockRequest, test: (f: ChunkFile) => boolean): boolean {
  return req.files.every(test) && (req.next ?? []).every(test);
}
