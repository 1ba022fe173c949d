/**
 * One chunk of a variable, decoded: zstd (when the variable's pipeline has
 * it), byte unshuffle, then a typed view of the raw packed values. Used by
 * the point reader's cache (./chunk-cache.ts), the whole-field reader
 * (./field-reader.ts) and `tiles verify`.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { zstdDecode, zstdDecodeSync, zstdDecodeView } from '../codecs/zstd.js';
import { unshuffle } from '../codecs/shuffle.js';
import type { TileStorage } from '../storage/types.js';

/** Decoded values of a chunk, still packed (int16) or float32. */
export type ChunkData = Int16Array | Float32Array;

/** One variable's chunk and its codec pipeline. */
export interface ChunkFile {
  /** Storage key (`nwp/<version>/temperature_2m/0.1.2`). */
  key: string;
  /** The file holding it when the storage is a local directory (read by path, also in decode threads); null otherwise. */
  file: string | null;
  zstd: boolean;
  /** Byte-shuffle element size, 0 = none. */
  shuffle: number;
}

/** The stored bytes of a chunk; a missing one rejects with code ENOENT (a replaced version's, removed meanwhile). */
export async function fetchChunk(f: ChunkFile, storage?: TileStorage): Promise<Uint8Array> {
  if (f.file !== null) return readFile(f.file);
  if (!storage) throw new Error(`${f.key}: no storage to read the chunk from`);
  const bytes = await storage.get(f.key);
  if (bytes === null) throw Object.assign(new Error(`${storage.location}/${f.key}: no such object`), { code: 'ENOENT' });
  return bytes;
}

/** The buffer {@link readChunkFileSync} reads into, grown to the largest chunk file met (one per thread). */
let slot = new Uint8Array(1 << 18);

/**
 * The stored bytes of local chunk file `path`, read synchronously into a buffer reused by the next call: valid
 * until then, so decode them before anything else runs. For the blocks of the point reader (./planar-block.ts,
 * ./block-read.ts), which decode on the calling thread right after: a page-cached chunk file of a few KiB
 * reads in tens of µs, where readFile's four thread-pool round trips and a buffer of its own each cost a `time=`
 * miss more (about 0.7 ms of CPU per request and a third of the collector's mark-compacts, measured in
 * docs/benchmarks-journal.md; a warm's nwp block 0.13 against 2.0 ms). A missing file throws with code ENOENT as
 * fetchChunk rejects.
 */
export function readChunkFileSync(path: string): Uint8Array {
  const fd = openSync(path, 'r');
  try {
    for (;;) {
      const n = readSync(fd, slot, 0, slot.length, 0);
      if (n < slot.length) return slot.subarray(0, n);
      slot = new Uint8Array(2 * slot.length);
    }
  } finally {
    closeSync(fd);
  }
}

function checkLength(f: ChunkFile, decompressed: Uint8Array, bytes: number): Uint8Array {
  if (decompressed.byteLength !== bytes) throw new Error(`${f.file ?? f.key}: corrupt chunk (${decompressed.byteLength} bytes decoded, ${bytes} expected)`);
  return decompressed;
}

/**
 * The decompressed bytes of `f` (still shuffled when its pipeline shuffles), which must be `bytes` long; a corrupt
 * chunk throws naming it.
 */
export async function inflateChunk(f: ChunkFile, stored: Uint8Array, bytes: number): Promise<Uint8Array> {
  return checkLength(f, f.zstd ? await zstdDecode(stored, bytes) : stored, bytes);
}

/** As {@link inflateChunk}, once the decoder is loaded (tiles/codecs/zstd.ts zstdReady). */
export function inflateChunkSync(f: ChunkFile, stored: Uint8Array, bytes: number): Uint8Array {
  return checkLength(f, f.zstd ? zstdDecodeSync(stored, bytes) : stored, bytes);
}

/** The stored bytes of `f`: those already fetched (a bucket's), else the local file's, valid until the next read ({@link readChunkFileSync}). */
export function storedBytes(f: ChunkFile, fetched: Uint8Array | undefined): Uint8Array {
  if (fetched) return fetched;
  if (f.file === null) throw new Error(`${f.key}: no storage to read the chunk from`);
  return readChunkFileSync(f.file);
}

/**
 * As {@link inflateChunkSync}, but the bytes may lie in the decoder's memory (tiles/codecs/zstd.ts zstdDecodeView,
 * its output buffer `slot`) or in `stored`: valid until the next decode into that buffer or chunk file read on this
 * thread. For a block load, which copies each chunk into its block right away (./block-read.ts, ./planar-block.ts):
 * no buffer of its own per chunk.
 */
export function inflateChunkView(f: ChunkFile, stored: Uint8Array, bytes: number, slot = 0): Uint8Array {
  return checkLength(f, f.zstd ? zstdDecodeView(stored, bytes, slot) : stored, bytes);
}

/** Decode the stored bytes of `f`, which must hold exactly `length` values; a corrupt chunk throws naming it. */
export async function decodeChunk(f: ChunkFile, stored: Uint8Array, int16: boolean, length: number): Promise<ChunkData> {
  const decompressed = await inflateChunk(f, stored, length * (int16 ? 2 : 4));
  const raw = f.shuffle ? unshuffle(decompressed, f.shuffle) : decompressed;
  // Typed views need an aligned offset: copy when the buffer is shared (readFile's pool).
  const buf = raw.byteOffset === 0 ? raw.buffer : raw.slice().buffer;
  return int16 ? new Int16Array(buf, 0, length) : new Float32Array(buf, 0, length);
}

/** Read and decode `f` (see {@link fetchChunk}, {@link decodeChunk}). */
export async function readChunk(f: ChunkFile, int16: boolean, length: number, storage?: TileStorage): Promise<ChunkData> {
  return decodeChunk(f, await fetchChunk(f, storage), int16, length);
}
