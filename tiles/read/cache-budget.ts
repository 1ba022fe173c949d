/**
 * The point reader's default cache budget, sized from what is published:
 * requests spread over the whole country touch every chunk of the stores
 * they read, and a cache smaller than that thrashes (each miss decodes a
 * whole chunk). So the default is the decoded size of every live store
 * except period stores (reanalysis years: rare requests, tens of GB in all),
 * plus a quarter for the overlap of an old and a new version during a
 * publish, at least {@link MIN_CACHE_BYTES} and at most half the machine's
 * memory. METEOPUNTO_TILE_CACHE_MB overrides it.
 */
import { readdirSync } from 'node:fs';
import { totalmem } from 'node:os';
import type { Manifest } from '../manifest.js';
import { readManifestView } from '../manifest-file.js';
import { tileStorage, type TilesAt } from '../storage/open.js';

export const MIN_CACHE_BYTES = 256 * 1024 * 1024;
const HEADROOM = 1.25;

/** Bytes the reader's cache holds for a whole store decoded (int16 2 bytes, float32 4, per cell and step). */
export function decodedBytes(m: Manifest): number {
  const cells = m.grid.nx * m.grid.ny;
  let bytes = 0;
  for (const v of Object.values(m.variables)) bytes += cells * (v.static ? 1 : m.times.length) * (v.dtype === 'int16' ? 2 : 4);
  return bytes;
}

/**
 * The default budget for the stores live under `root` now. A bucket cannot
 * be listed without a promise: its stores count as none (the minimum; the
 * variable sets it).
 */
export function autoCacheBytes(root: TilesAt, memoryBytes = totalmem()): number {
  const storage = tileStorage(root);
  let sum = 0;
  let names: string[] = [];
  try {
    if (storage.localPath) names = readdirSync(storage.location);
  } catch {
    // nothing published yet
  }
  for (const name of names) {
    try {
      const m = readManifestView(storage.sync, name, storage.location);
      if (m && m.layout !== 'periods') sum += decodedBytes(m);
    } catch {
      // an unreadable manifest is reported where it is read; it adds nothing here
    }
  }
  return Math.round(Math.min(memoryBytes / 2, Math.max(MIN_CACHE_BYTES, sum * HEADROOM)));
}
