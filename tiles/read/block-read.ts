/**
 * Reading one cache block from disk: the chunk files of its variables,
 * decoded (./chunk-file.ts) and interleaved (./block.ts). Runs on the event
 * loop or in a decode thread (./decode-pool.ts); the work is the same.
 * A *bridge* block (a time bracket across two time chunks,
 * ./neighbour-blocks.ts) holds the last step of each member's chunk and the
 * first step of the next one.
 */
import { interleave } from './block.js';
import { readChunk, type ChunkData, type ChunkFile } from './chunk-file.js';

/** A block to load: the same spatial chunk of several variables of one kind. */
export interface BlockRequest {
  id: number;
  int16: boolean;
  /** The member variables' chunk files, in member order. */
  files: ChunkFile[];
  /** Time steps per block (1 for static variables, 2 for a bridge). */
  steps: number;
  /** Time steps per chunk file (default: `steps`). */
  chunkSteps?: number;
  /** A bridge: the members' chunk files of the next time chunk, whose first step follows the last of `files`. */
  next?: ChunkFile[];
  /** Cells per chunk plane (chunk rows × columns). */
  plane: number;
}

export async function readBlock(req: BlockRequest): Promise<ChunkData> {
  const chunkSteps = req.chunkSteps ?? req.steps;
  const length = chunkSteps * req.plane;
  let chunks = await Promise.all(req.files.map((f) => readChunk(f, req.int16, length)));
  if (req.next) {
    const next = await Promise.all(req.next.map((f) => readChunk(f, req.int16, length)));
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
