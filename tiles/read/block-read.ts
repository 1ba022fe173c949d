/**
 * Reading one cache block from disk: the chunk files of its variables,
 * decoded (./chunk-file.ts) and interleaved (./block.ts), or planar
 * (./planar-block.ts). Runs on the event loop or in a decode thread
 * (./decode-pool.ts); the work is the same.
 * A *bridge* block (a time bracket across two time chunks,
 * ./neighbour-blocks.ts) holds the last step of each member's chunk and the
 * first step of the next one.
 */
import { interleave, type BlockRequest } from './block.js';
import { decodeChunk, fetchChunk, readChunk, type ChunkData, type ChunkFile } from './chunk-file.js';
import type { TileStorage } from '../storage/types.js';
import { readPlanarBlock } from './planar-block.js';

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

export async function readBlock(req: BlockRequest): Promise<ChunkData> {
  if (req.planar) return readPlanarBlock(req);
  const chunkSteps = req.chunkSteps ?? req.steps;
  const length = chunkSteps * req.plane;
  const read = (files: ChunkFile[], data: Uint8Array[] | undefined) =>
    Promise.all(files.map((f, k) => (data ? decodeChunk(f, data[k]!, req.int16, length) : readChunk(f, req.int16, length))));
  let chunks = await read(req.files, req.data);
  if (req.next) {
    const next = await read(req.next, req.nextData);
    const p = req.plane;
    chunks = chunks.map((c, m) => {
      const two = req.int16 ? new Int16Array(2 * p) : new Float32Array(2 * p);
      two.set(c.subarray((chunkSteps - 1) * p, chunkSteps * p), 0);
      two.set(next[m]!.subarray(0, p), p);
      return two;
    });
  }
  // A lone static chunk is already in block layout ([cell][1][1]).
  return chunks.length === 1 && req.steps === 1 ? chunks[0]! : interleave(chunks, req.steps, req.plane, req.int16);
}
