/**
 * Reading and atomically replacing `current.json` (and a period product's
 * `index.json`).
 */
import { readFileSync } from 'node:fs';
import { rename, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { Manifest } from './manifest.js';
import { writeFileSynced, fsyncDir } from './write/durable-fs.js';
import { MANIFEST_FILE, VERSION_NAME } from './layout.js';

/** Parse and check a manifest document; throws with the file name on anything malformed. */
export function parseManifest(text: string, file: string): Manifest {
  let m: unknown;
  try {
    m = JSON.parse(text);
  } catch (err) {
    throw new Error(`${file}: not valid JSON (${(err as Error).message})`);
  }
  const o = m as Omit<Partial<Manifest>, 'format'> & { format?: number };
  if (o && typeof o === 'object' && o.format === 1) {
    // Format 1 (before products as data) lacks the read rules and routing the API needs: guessing them could serve wrong values.
    throw new Error(`${file}: manifest format 1, written by an older Meteopunto; re-ingest the product (meteopunto ingest ...) to publish it in format 2`);
  }
  if (!o || typeof o !== 'object' || o.format !== 2 || typeof o.product !== 'string' || typeof o.version !== 'string'
    || !VERSION_NAME.test(o.version) || !o.grid || !Array.isArray(o.times) || !o.chunk || !o.variables
    || !o.layout || !o.region || !Array.isArray(o.feeds) || typeof o.priority !== 'number') {
    throw new Error(`${file}: not a Meteopunto tile manifest (format 2)`);
  }
  for (const [name, v] of Object.entries(o.variables)) {
    if (!v || (v.interpolation !== 'linear' && v.interpolation !== 'nearest') || !['any', 'sea', 'land'].includes(v.mask) || typeof v.block !== 'string') {
      throw new Error(`${file}: variable '${name}' lacks a valid interpolation, mask or block`);
    }
  }
  return o as Manifest;
}

/** The live manifest of a product (or period) directory, or null when none was published yet. */
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

/** Replace `dir/name` atomically: write a private temp file `.name.<pid>.<hex>.tmp`, fsync, rename over, fsync the directory. */
export async function writeJsonAtomic(dir: string, name: string, doc: unknown): Promise<void> {
  const tmp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
  try {
    await writeFileSynced(tmp, JSON.stringify(doc, null, 2) + '\n');
    await rename(tmp, join(dir, name));
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  await fsyncDir(dir);
}

/** Replace current.json atomically. */
export async function writeManifest(productDir: string, manifest: Manifest): Promise<void> {
  await writeJsonAtomic(productDir, MANIFEST_FILE, manifest);
}
