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
import { createHash } from 'node:crypto';
import { basename, dirname } from 'node:path';
import type { Manifest } from '../manifest.js';
import { readChunk } from '../read/chunk-file.js';
import { CHECKSUM_FILE } from '../write/checksums.js';
import { OWNER_FILE } from '../layout.js';
import { LocalStorage } from '../storage/local.js';
import type { TileStorage } from '../storage/types.js';

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
export function verifyVersion(dir: string, manifest: Manifest | null, progress: Progress = () => undefined): Promise<VerifyReport> {
  return verifyStored(new LocalStorage(dirname(dir)), basename(dir), manifest, progress);
}

/** The sums recorded in `SHA256SUMS` (GNU sha256sum format), file → hex; null when the version has none. */
function parseSums(text: string): Map<string, string> {
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (m) sums.set(m[2]!, m[1]!);
  }
  return sums;
}

/**
 * Verify the version at `versionKey` (`nwp/<version>`, `reanalysis/1950/<version>`)
 * of a tile storage, a directory or a bucket alike; `manifest` when it is the
 * live version.
 */
export async function verifyStored(storage: TileStorage, versionKey: string, manifest: Manifest | null, progress: Progress = () => undefined): Promise<VerifyReport> {
  const failures: string[] = [];
  const base = `${versionKey}/`;
  const sumsBytes = await storage.get(base + CHECKSUM_FILE);
  const sums = sumsBytes === null ? null : parseSums(Buffer.from(sumsBytes).toString('utf8'));
  const onDisk = (await storage.list(base)).map((o) => o.key.slice(base.length)).filter((f) => f !== OWNER_FILE && f !== CHECKSUM_FILE);
  let meta: Record<string, unknown> = {};
  try {
    const bytes = await storage.get(`${base}.zmetadata`);
    if (bytes === null) throw new Error('missing');
    meta = (JSON.parse(Buffer.from(bytes).toString('utf8')) as { metadata: Record<string, unknown> }).metadata;
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
      const bytes = await storage.get(base + f);
      if (bytes === null) failures.push(`${f}: missing`);
      else got = createHash('sha256').update(bytes).digest('hex');
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
        await readRaw(storage, base, name, key, z, length);
      } else {
        const data = await readChunk({ key: `${base}${name}/${key}`, file: null, zstd: z.compressor?.id === 'zstd', shuffle: z.filters?.[0]?.elementsize ?? 0 }, int16, length, storage);
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
      failures.push(`${name}/${key}: does not decode (${(err as Error).message.replace(`${storage.location}/${base}`, '').replace(base, '')})`);
    }
    progress(++done, total, `${name}/${key}`);
  }

  if (manifest) failures.push(...shapeFailures(manifest, arrays));
  return { files: onDisk.length, chunks: decodeJobs.length, failures, checksummed: sums !== null };
}

async function readRaw(storage: TileStorage, base: string, name: string, key: string, z: ZArrayDoc, length: number): Promise<void> {
  const size = Number(/\d+$/.exec(z.dtype)?.[0] ?? 1);
  await readChunk({ key: `${base}${name}/${key}`, file: null, zstd: z.compressor?.id === 'zstd', shuffle: 0 }, false, (length * size) / 4, storage);
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
