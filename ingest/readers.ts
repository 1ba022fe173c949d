/**
 * Pick the reader for a file by its magic bytes (never its extension):
 * "GRIB" → GRIB1/2; "CDF\x01|\x02|\x05" → NetCDF3; the HDF5 signature (at
 * offset 0 or a user-block offset) → NetCDF4; "II*\0"/"MM\0*" → GeoTIFF.
 * Anything else is a ReadError that names the file and says what it looks
 * like.
 */
import { open, stat } from 'node:fs/promises';
import { ReadError, type ReadOptions, type Reader, type SourceField } from './field.js';
import { geotiffReader } from './geotiff/geotiff-fields.js';
import { gribReader } from './grib/grib-reader.js';
import { netcdfReader } from './netcdf/netcdf-reader.js';

export const READERS: readonly Reader[] = [gribReader, netcdfReader, geotiffReader];

/** Bytes given to `sniff`: enough for an HDF5 signature behind a 2 KiB user block or a GRIB behind a bulletin header. */
const HEAD_BYTES = 4096;

/** Read every field of a local file with the reader its content calls for. */
export async function readFile(path: string, options?: ReadOptions): Promise<SourceField[]> {
  const reader = await readerFor(path);
  try {
    return await reader.read(path, options);
  } catch (err) {
    if (err instanceof ReadError) throw err;
    throw new ReadError(path, `${reader.format} reader failed: ${err instanceof Error ? err.message : String(err)}`, { cause: err });
  }
}

/** The reader that recognises the file, or a ReadError saying why none does. */
export async function readerFor(path: string): Promise<Reader> {
  const head = await readHead(path);
  const reader = READERS.find((r) => r.sniff(head));
  if (reader) return reader;
  throw new ReadError(path, `unknown format (${describeHead(head)}): expected GRIB1/GRIB2, NetCDF3, NetCDF4/HDF5 or GeoTIFF`);
}

async function readHead(path: string): Promise<Uint8Array> {
  let size: number;
  try {
    const st = await stat(path);
    if (st.isDirectory()) throw new ReadError(path, 'is a directory, not a file');
    if (!st.isFile()) throw new ReadError(path, 'is not a regular file');
    size = st.size;
  } catch (err) {
    if (err instanceof ReadError) throw err;
    const code = (err as NodeJS.ErrnoException).code;
    throw new ReadError(path, code === 'ENOENT' ? 'no such file' : code === 'EACCES' ? 'permission denied' : String(err), { cause: err });
  }
  if (size === 0) throw new ReadError(path, 'empty file (0 bytes)');
  const fh = await open(path, 'r');
  try {
    const buf = new Uint8Array(Math.min(HEAD_BYTES, size));
    await fh.read(buf, 0, buf.length, 0);
    return buf;
  } finally {
    await fh.close();
  }
}

/** What the first bytes say, for the error message: compressed archives get a hint. */
function describeHead(head: Uint8Array): string {
  const b = (i: number) => head[i] ?? -1;
  if (b(0) === 0x1f && b(1) === 0x8b) return 'gzip-compressed: decompress it first (gunzip)';
  if (b(0) === 0x42 && b(1) === 0x5a && b(2) === 0x68) return 'bzip2-compressed: decompress it first (bunzip2)';
  if (b(0) === 0x28 && b(1) === 0xb5 && b(2) === 0x2f && b(3) === 0xfd) return 'zstd-compressed: decompress it first (unzstd)';
  if (b(0) === 0x50 && b(1) === 0x4b) return 'a ZIP archive: extract it first';
  const printable = [...head.subarray(0, 8)].map((c) => (c >= 0x20 && c < 0x7f ? String.fromCharCode(c) : '.')).join('');
  return `starts with "${printable}"`;
}
