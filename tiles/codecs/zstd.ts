/**
 * Zstandard chunk codec (numcodecs' `zstd`, the same codec id zarr-python
 * decodes with numcodecs.Zstd). Encoding is numcodecs' wasm; decoding is
 * zstddec's (a decoder-only wasm build of the same library): a `time=` miss
 * decodes about 8 chunks, and numcodecs' decode copies the compressed bytes
 * into wasm memory one byte at a time (embind's string conversion) and
 * copies the result out element by element; zstddec does both as one
 * memory copy, 25–35 % less CPU per 128 KiB chunk (measured in
 * docs/benchmarks-journal.md). Each wasm module is loaded once, lazily.
 */
import Zstd from 'numcodecs/zstd';
import { ZSTDDecoder } from 'zstddec';

/** Level 3 (zstd's default): about 4× on smooth int16 fields, fast both ways. */
export const ZSTD_LEVEL = 3;

/** The `.zarray` `compressor` entry. */
export const ZSTD_COMPRESSOR = { id: 'zstd', level: ZSTD_LEVEL } as const;

const codec = Zstd.fromConfig({ id: 'zstd', level: ZSTD_LEVEL });
const decoder = new ZSTDDecoder();
let decoderReady: Promise<void> | null = null;
let decoderLoaded = false;

export async function zstdEncode(raw: Uint8Array): Promise<Uint8Array> {
  return codec.encode(raw);
}

/** Resolves once the decoder is loaded; {@link zstdDecodeSync} may be called from then on. */
export async function zstdReady(): Promise<void> {
  if (decoderLoaded) return;
  await (decoderReady ??= decoder.init());
  decoderLoaded = true;
}

/**
 * The decompressed bytes of one zstd frame of `bytes` bytes, in a buffer of their own (tiles/read/planar-block.ts
 * keeps it as a block). A frame that is corrupt or of another size gives back a different length (zstddec does
 * not throw): the caller checks it. Only after {@link zstdReady}.
 */
export function zstdDecodeSync(compressed: Uint8Array, bytes: number): Uint8Array {
  if (!decoderLoaded) throw new Error('zstdDecodeSync before zstdReady');
  return decoder.decode(compressed, bytes);
}

/** As {@link zstdDecodeSync}, loading the decoder first when needed. */
export async function zstdDecode(compressed: Uint8Array, bytes: number): Promise<Uint8Array> {
  await zstdReady();
  return zstdDecodeSync(compressed, bytes);
}
