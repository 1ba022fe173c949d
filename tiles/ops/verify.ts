/**
 * `tiles verify`: is a published version still what was written?
 *
 * 1. Every file against `SHA256SUMS` written at publish (../write/checksums.ts):
 *    bit rot, truncation, lost files.
 * 2. Every chunk of every array in `.zmetadata` decodes (zstd, unshuffle) to
 *    exactly the chunk's size (../read/chunk-file.ts).
 * 3. Shapes agree with the manifest (grid, time axis) when the version is
 *    the live one, and float32 values are finite or NaN (missing).
 */
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Manifest } from '../manifest.js';
import { readChunk } from '../read/chunk-file.js';
import { readChecksums, sha256File, storeFiles, CHECKSUM_FILE } from '../write/checksums.js';

interface ZArrayDoc {
  shape: number[];
  chunks: number[];
  dtype: string;
  compressor: { id: string } | null;
  filters: { id: string; elementsize?: number }[] | null;
}

export interface VerifyReport {
  files: number;
  chunks: number;
  failures: string[];
  /** False when the version predates checksums (only decoding was checked). */
  checksummed: boolean;
}

/** Progress callback: step done of total, and what. */
export type Progress = (done: number, total: number, what: string) => void;

function chunkKeys(shape: number[], chunks: number[]): string[] {
  if (shape.length === 0) return ['0']; // a scalar array's one chunk
  const counts = shape.map((n, i) => Math.max(1, Math.ceil(n / chunks[i]!)));
  let keys = [''];
  for (const c of counts) keys = keys.flatMap((k) => Array.from({ length: c }, (_, i) => (k === '' ? `${i}` : `${k}.${i}`)));
  return keys;
}

/** Verify the version directory `dir`; `manifest` when it is the live version (shapes are then checked against it). */
export async function verifyVersion(dir: string, manifest: Manifest | null, progress: Progress = () => undefined): Promise<VerifyReport> {
  const failures: string[] = [];
  const sums = await readChecksums(dir);
  const onDisk = await storeFiles(dir);
  let meta: Record<string, unknown> = {};
  try {
    meta = (JSON.parse(await readFile(join(dir, '.zmetadata'), 'utf8')) as { metadata: Record<string, unknown> }).metadata;
  } catch (err) {
    failures.push(`.zmetadata: unreadable (${(err as Error).message})`);
  }
  const arrays = Object.entries(meta).filter(([k]) => k.endsWith('/.zarray')).map(([k, v]) => [k.slice(0, -'/.zarray'.length), v as ZArrayDoc] as const);
  const decodeJobs = arrays.flatMap(([name, z]) => chunkKeys(z.shape, z.chunks).map((key) => ({ name, z, key })));
  const total = (sums?.size ?? 0) + decodeJobs.length;
  let done = 0;

  if (sums) {
    for (const f of onDisk) if (!sums.has(f)) failures.push(`${f}: not listed in ${CHECKSUM_FILE}`);
    for (const [f, want] of sums) {
      let got: string | null = null;
      try {
        got = await sha256File(join(dir, f));
      } catch {
        failures.push(`${f}: missing`);
      }
      if (got !== null && got !== want) failures.push(`${f}: checksum mismatch (bit rot or modified after publish)`);
      progress(++done, total, f);
    }
  }

  for (const { name, z, key } of decodeJobs) {
    const length = z.chunks.reduce((a, b) => a * b, 1);
    const int16 = z.dtype === '<i2';
    try {
      if (z.dtype !== '<i2' && z.dtype !== '<f4') {
        // coordinates (f8, i8, i4): decoding checked by size only
        await readRaw(dir, name, key, z, length);
      } else {
        const data = await readChunk({ key: `${name}/${key}`, file: join(dir, name, key), zstd: z.compressor?.id === 'zstd', shuffle: z.filters?.[0]?.elementsize ?? 0 }, int16, length);
        if (!int16) {
          for (let i = 0; i < data.length; i++) {
            const v = data[i]!;
            if (v === Infinity || v === -Infinity) {
              failures.push(`${name}/${key}: infinite value at index ${i}`);
              break;
            }
          }
        }
      }
    } catch (err) {
      failures.push(`${name}/${key}: does not decode (${(err as Error).message.replace(`${dir}/`, '')})`);
    }
    progress(++done, total, `${name}/${key}`);
  }

  if (manifest) failures.push(...shapeFailures(manifest, arrays));
  return { files: onDisk.length, chunks: decodeJobs.length, failures, checksummed: sums !== null };
}

async function readRaw(dir: string, name: string, key: string, z: ZArrayDoc, length: number): Promise<void> {
  const size = Number(/\d+$/.exec(z.dtype)?.[0] ?? 1);
  await readChunk({ key: `${name}/${key}`, file: join(dir, name, key), zstd: z.compressor?.id === 'zstd', shuffle: 0 }, false, (length * size) / 4);
}

function shapeFailures(m: Manifest, arrays: readonly (readonly [string, ZArrayDoc])[]): string[] {
  const out: string[] = [];
  const byName = new Map(arrays);
  const { nx, ny } = m.grid;
  for (const [name, v] of Object.entries(m.variables)) {
    const z = byName.get(name);
    if (!z) {
      out.push(`${name}: in the manifest but not in the store`);
      continue;
    }
    const want = v.static ? [ny, nx] : [m.times.length, ny, nx];
    if (JSON.stringify(z.shape) !== JSON.stringify(want)) out.push(`${name}: shape ${JSON.stringify(z.shape)}, manifest says ${JSON.stringify(want)}`);
    const dtype = v.dtype === 'int16' ? '<i2' : '<f4';
    if (z.dtype !== dtype) out.push(`${name}: dtype ${z.dtype}, manifest says ${v.dtype}`);
  }
  return out;
}
