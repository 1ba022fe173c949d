/**
 * Reading a *planar* cache block (./block.ts): the chunks of its members one
 * after the other, each as stored ([time][cell]), so a load is zstd and an
 * unshuffle of the steps the block holds straight into the block's buffer:
 * no interleave. Stores chunked along time (a reanalysis year) are read this
 * way: a `time=` lookup misses at random hours, and the interleave was a
 * third of a miss's CPU (measured in docs/benchmarks-journal.md) for a
 * layout only warm lookups gain from.
 *
 * A miss's cost is also what it leaves to the collector: each buffer it
 * allocates is external memory that brings the next mark-compact closer, and
 * one more for the collector to sweep. So the chunk files are read into one
 * reused buffer (./chunk-file.ts readChunkFileSync), each is decoded into
 * the decoder's own memory (tiles/codecs/zstd.ts zstdDecodeView) and
 * unshuffled from there into the block: the block's buffer is the only one a
 * load allocates (docs/benchmarks-journal.md).
 */
import { inflateChunkView, storedBytes, type ChunkData, type ChunkFile } from './chunk-file.js';
import type { BlockRequest } from './block.js';
import { unshuffleRange } from '../codecs/shuffle.js';
import { zstdReady } from '../codecs/zstd.js';

/** Read and decode block `req` into planar layout: element (member m, step t, cell c) at (m × steps + t) × plane + c. */
export async function readPlanarBlock(req: BlockRequest): Promise<ChunkData> {
  await zstdReady();
  // From here on synchronous: the chunk files share one read buffer.
  return readPlanarBlockSync(req);
}

function readPlanarBlockSync(req: BlockRequest): ChunkData {
  const size = req.int16 ? 2 : 4;
  const plane = req.plane;
  const chunkSteps = req.chunkSteps ?? req.steps;
  const chunkBytes = chunkSteps * plane * size;
  const memberBytes = req.steps * plane * size;
  const next = req.next;
  const f0 = req.files[0]!;
  if (!next && req.files.length === 1 && f0.zstd && req.steps === chunkSteps) {
    // One variable's whole chunk: unshuffled from the decoder's memory (tiles/codecs/zstd.ts) straight into the
    // block's buffer, its only one.
    const raw = inflateChunkView(f0, storedBytes(f0, req.data?.[0]), chunkBytes);
    let block: Uint8Array;
    if (f0.shuffle > 1) {
      block = new Uint8Array(chunkBytes);
      unshuffleRange(raw, f0.shuffle, 0, chunkBytes / f0.shuffle, block, 0);
    } else {
      block = raw.slice();
    }
    return req.int16 ? new Int16Array(block.buffer) : new Float32Array(block.buffer);
  }
  const out = new Uint8Array(req.files.length * memberBytes);
  // Steps first … first + n − 1 of a member's chunk into the block from byte `at` on.
  const put = (f: ChunkFile, fetched: Uint8Array | undefined, first: number, n: number, at: number) => {
    const raw = inflateChunkView(f, storedBytes(f, fetched), chunkBytes);
    // Unshuffled chunks (shuffle 0 or 1) are copied as they lie: unshuffleRange counts their elements in bytes.
    if (f.shuffle > 1) unshuffleRange(raw, f.shuffle, first * plane, n * plane, out, at);
    else out.set(raw.subarray(first * plane * size, (first + n) * plane * size), at);
  };
  if (next) {
    // A bridge: the last step of each member's chunk, then the first of the next chunk.
    req.files.forEach((f, m) => put(f, req.data?.[m], chunkSteps - 1, 1, m * memberBytes));
    next.forEach((f, m) => put(f, req.nextData?.[m], 0, 1, m * memberBytes + plane * size));
  } else {
    req.files.forEach((f, m) => put(f, req.data?.[m], 0, req.steps, m * memberBytes));
  }
  return req.int16 ? new Int16Array(out.buffer) : new Float32Array(out.buffer);
}
