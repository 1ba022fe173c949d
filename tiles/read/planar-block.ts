/**
 * Reading a *planar* cache block (./block.ts): the chunks of its members one
 * after the other, each as stored ([time][cell]), so a load is zstd and an
 * unshuffle of the steps the block holds straight into the block's buffer:
 * no interleave, and no whole-chunk copy in between. Stores chunked along
 * time (a reanalysis year) are read this way: a `time=` lookup misses at
 * random hours, and the interleave was a third of a miss's CPU (measured in
 * docs/benchmarks-journal.md) for a layout only warm lookups gain from.
 */
import { fetchChunk, inflateChunk, type ChunkData, type ChunkFile } from './chunk-file.js';
import type { BlockRequest } from './block.js';
import { unshuffleRange } from '../codecs/shuffle.js';

/** Read and decode block `req` into planar layout: element (member m, step t, cell c) at (m × steps + t) × plane + c. */
export async function readPlanarBlock(req: BlockRequest): Promise<ChunkData> {
  const size = req.int16 ? 2 : 4;
  const plane = req.plane;
  const chunkSteps = req.chunkSteps ?? req.steps;
  const chunkBytes = chunkSteps * plane * size;
  const memberBytes = req.steps * plane * size;
  const out = new Uint8Array(req.files.length * memberBytes);
  // Steps first … first + n − 1 of a member's chunk into the block from byte `at` on.
  const put = async (f: ChunkFile, stored: Uint8Array | undefined, first: number, n: number, at: number) => {
    const raw = await inflateChunk(f, stored ?? (await fetchChunk(f)), chunkBytes);
    unshuffleRange(raw, f.shuffle, first * plane, n * plane, out, at);
  };
  const next = req.next;
  if (next) {
    // A bridge: the last step of each member's chunk, then the first of the next chunk.
    await Promise.all([
      ...req.files.map((f, m) => put(f, req.data?.[m], chunkSteps - 1, 1, m * memberBytes)),
      ...next.map((f, m) => put(f, req.nextData?.[m], 0, 1, m * memberBytes + plane * size)),
    ]);
  } else {
    await Promise.all(req.files.map((f, m) => put(f, req.data?.[m], 0, req.steps, m * memberBytes)));
  }
  return req.int16 ? new Int16Array(out.buffer) : new Float32Array(out.buffer);
}
