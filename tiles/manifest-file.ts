/**
 * Reading and replacing `current.json`, the single switch of a store, through
 * the tile storage (tiles/storage/).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Manifest } from './manifest.js';
import { MANIFEST_FILE, VERSION_NAME } from './layout.js';
import type { SyncView, TileStorage } from './storage/types.js';

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

/** `nwp` → `nwp/current.json`; `reanalysis/1950` → `reanalysis/1950/current.json`. */
export function manifestKey(storeKey: string): string {
  return `${storeKey}/${MANIFEST_FILE}`;
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

/** The live manifest of a store as the storage's synchronous view has it, or null. */
export function readManifestView(view: SyncView, storeKey: string, where: string): Manifest | null {
  const text = view.text(manifestKey(storeKey));
  return text === null ? null : parseManifest(text, `${where}/${manifestKey(storeKey)}`);
}

/** The live manifest of a store, or null when none was published yet. */
export async function readManifest(storage: TileStorage, storeKey: string): Promise<Manifest | null> {
  const bytes = await storage.get(manifestKey(storeKey));
  return bytes === null ? null : parseManifest(Buffer.from(bytes).toString('utf8'), `${storage.location}/${manifestKey(storeKey)}`);
}

/** The JSON documents of the store (manifests, period index) as written. */
export function jsonDocument(doc: unknown): string {
  return JSON.stringify(doc, null, 2) + '\n';
}

/** Replace current.json atomically. */
export async function writeManifest(storage: TileStorage, storeKey: string, manifest: Manifest): Promise<void> {
  await storage.put(manifestKey(storeKey), jsonDocument(manifest));
}
