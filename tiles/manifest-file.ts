/**
 * Reading and atomically replacing `tiles/<product>/current.json`.
 */
import { readFileSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Manifest } from './manifest.js';
import { writeFileSynced, fsyncDir } from './durable-fs.js';
import { MANIFEST_FILE, VERSION_NAME } from './layout.js';


/** Parse and check a manifest document; throws with the file name on anything malformed. */
export function parseManifest(text: string, file: string): Manifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  const o = m as Partial<Manifest>;
  if (!o || typeof o !== 'object' || o.format !== 1 || typeof o.product !== 'string' || typeof o.version !== 'string'
    || !VERSION_NAME.test(o.version) || !o.grid || !Array.isArray(o.times) || !o.chunk || !o.variables) {
    throw new Error(`${file}: not a Meteopunto tile manifest (format 1)`);
  }
  return o as Manifest;
}

/** The live manifest of a product directory, or null when none was published yet. */
export function readManifestSync(productDir: string): Manifest | null {
  const file = join(productDir, MANIFEST_FILE);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  return parseManifest(text, file);
}

/** Replace current.json atomically: write a private temp file, fsync, rename over, fsync the directory. */
export async function writeManifest(productDir: string, manifest: Manifest): Promise<void> {
  const tmp = join(productDir, `.${MANIFEST_FILE}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFileSynced(tmp, JSON.stringify(manifest, null, 2) + '\n');
    await rename(tmp, join(productDir, MANIFEST_FILE));
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(productDir);
}
