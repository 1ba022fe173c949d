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

/** A block decoder that fetches a bucket's chunks first, then decodes with `decode` (here or in a thread). */
export function fetchingDecoder(decode: (req: BlockRequest) => Promise<ChunkData>, storage: TileStorage): (req: BlockRequest) => Promise<ChunkData> {
  const fetchAll = (files: ChunkFile[]) => Promise.all(files.map((f) => fetchChunk(f, storage)));
  return async (req) => {
    const [data, nextData] = await Promise.all([fetchAll(req.files), req.next ? fetchAll(req.next) : undefined]);
    return decode({ ...req, data, ...(nextData ? { nextData } : {}) });
  };
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
