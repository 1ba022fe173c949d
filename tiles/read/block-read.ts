/**
 * Reading one cache block from disk: the chunk files of its variables,
 * decoded (./chunk-file.ts) and interleaved (./block.ts). Runs on the event
 * loop or in a decode thread (./decode-pool.ts); the work is the same.
 */
import { interleave } from './block.js';
import { readChunk, type ChunkData, type ChunkFile } from './chunk-file.js';

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

export async function readBlock(req: BlockRequest): Promise<ChunkData> {
  const length = req.steps * req.plane;
  const chunks = await Promise.all(req.files.map((f) => readChunk(f, req.int16, length)));
  // A lone static chunk is already in block layout ([cell][1][1]).
  return chunks.length === 1 && req.steps === 1 ? chunks[0]! : interleave(chunks, req.steps, req.plane, req.int16);
}
