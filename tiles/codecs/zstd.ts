/**
 * Zstandard chunk codec (numcodecs' `zstd`, the same codec id zarr-python
 * decodes with numcodecs.Zstd). The wasm module is loaded once, lazily.
 */
import Zstd from 'numcodecs/zstd';

/** Level 3 (zstd's default): about 4× on smooth int16 fields, fast both ways. */
export const ZSTD_LEVEL = 3;

/** The `.zarray` `compressor` entry. */
export const ZSTD_COMPRESSOR = { id: 'zstd', level: ZSTD_LEVEL } as const;

const codec = Zstd.fromConfig({ id: 'zstd', level: ZSTD_LEVEL });

export async function zstdEncode(raw: Uint8Array): Promise<Uint8Array> {
  return codec.encode(raw);
}

export async function zstdDecode(compressed: Uint8Array): Promise<Uint8Array> {
  return codec.decode(compressed);
}
