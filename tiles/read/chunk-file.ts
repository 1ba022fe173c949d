/**
 * One chunk file of a variable, decoded: zstd (when the variable's pipeline
 * has it), byte unshuffle, then a typed view of the raw packed values. Used
 * by the point reader's cache (./chunk-cache.ts) and the whole-field reader
 * (./field-reader.ts).
 */
import { readFile } from 'node:fs/promises';
import { zstdDecode } from '../codecs/zstd.js';
import { unshuffle } from '../codecs/shuffle.js';

/** Decoded values of a chunk, still packed (int16) or float32. */
export type ChunkData = Int16Array | Float32Array;

/** One variable's chunk file and its codec pipeline. */
export interface ChunkFile {
  file: string;
  zstd: boolean;
  /** Byte-shuffle element size, 0 = none. */
  shuffle: number;
}

/** Decode `f`, which must hold exactly `length` values; a corrupt chunk throws naming the file. */
export async function readChunk(f: ChunkFile, int16: boolean, length: number): Promise<ChunkData> {
  const stored = await readFile(f.file);
  const decompressed = f.zstd ? await zstdDecode(stored) : stored;
  const raw = f.shuffle ? unshuffle(decompressed, f.shuffle) : decompressed;
  const bytes = length * (int16 ? 2 : 4);
  if (raw.byteLength !== bytes) throw new Error(`${f.file}: corrupt chunk (${raw.byteLength} bytes decoded, ${bytes} expected)`);
  // Typed views need an aligned offset: copy when the buffer is shared (readFile's pool).
  const buf = raw.byteOffset === 0 ? raw.buffer : raw.slice().buffer;
  return int16 ? new Int16Array(buf, 0, length) : new Float32Array(buf, 0, length);
}
