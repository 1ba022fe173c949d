/**
 * `SHA256SUMS` in a version directory: the SHA-256 of every file of the
 * store, written at publish before the commit rename, in the format of GNU
 * `sha256sum` (so `sha256sum -c SHA256SUMS` checks a version independently).
 * `meteopunto tiles verify` compares them to detect bit rot after publish.
 */
import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { forEachLimit, writeFileSynced } from './durable-fs.js';
import { OWNER_FILE } from '../layout.js';

export const CHECKSUM_FILE = 'SHA256SUMS';

/** Every file under `dir`, relative, '/'-separated, sorted; the owner record and the checksum file excluded. */
export async function storeFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { recursive: true, withFileTypes: true });
  return entries
    .filter((e) => e.isFile())
    .map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'))
    .filter((f) => f !== OWNER_FILE && f !== CHECKSUM_FILE)
    .sort();
}

export async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * Files hashed at once: each is a few round trips to libuv's threads (open, reads, close), and an ERA5 year's
 * 18,001 chunk files one after the other left the ingest waiting on them for seconds.
 */
const HASH_LANES = 8;

/** Hash every file of the store in `dir` and write `SHA256SUMS` (synced). */
export async function writeChecksums(dir: string): Promise<number> {
  const files = await storeFiles(dir);
  const lines: string[] = new Array<string>(files.length);
  await forEachLimit([...files.keys()], HASH_LANES, async (k) => {
    lines[k] = `${await sha256File(join(dir, files[k]!))}  ${files[k]}`;
  });
  await writeFileSynced(join(dir, CHECKSUM_FILE), lines.join('\n') + '\n');
  return files.length;
}

/** The recorded sums, file → hex; null when the version has no `SHA256SUMS` (published before checksums). */
export async function readChecksums(dir: string): Promise<Map<string, string> | null> {
  let text: string;
  try {
    text = await readFile(join(dir, CHECKSUM_FILE), 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const sums = new Map<string, string>();
  for (const line of text.split('\n')) {
    const m = /^([0-9a-f]{64}) [ *](.+)$/.exec(line);
    if (m) sums.set(m[2]!, m[1]!);
  }
  return sums;
}
