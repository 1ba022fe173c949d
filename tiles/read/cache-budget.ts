/**
 * The point reader's default cache budget, sized from what is published:
 * requests spread over the whole country touch every chunk of the stores
 * they read, and a cache smaller than that thrashes (each miss decodes a
 * whole chunk). So the default is the decoded size of every live store
 * except period stores (reanalysis years: rare requests, tens of GB in all),
 * plus the largest of them again: a server warming a new version before it
 * answers (./warm.ts) holds it beside the live one until the switch; at
 * least {@link MIN_CACHE_BYTES} and at most half the machine's memory.
 * METEOPUNTO_TILE_CACHE_MB overrides it.
 */
import { readdirSync } from 'node:fs';
import { totalmem } from 'node:os';
import type { Manifest } from '../manifest.js';
import { readManifestView } from '../manifest-file.js';
import { tileStorage, type TilesAt } from '../storage/open.js';

export const MIN_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * Bytes the reader's cache holds for a whole store decoded (int16 2 bytes, float32 4, per cell and step): chunks
 * are whole, so the cells are the grid's rounded up to whole chunks.
 */
export function decodedBytes(m: Manifest): number {
  const cells = Math.ceil(m.grid.nx / m.chunk.x) * m.chunk.x * Math.ceil(m.grid.ny / m.chunk.y) * m.chunk.y;
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
  let largest = 0;
  let names: string[] = [];
  try {
    if (storage.localPath) names = readdirSync(storage.location);
  } catch {
    // nothing published yet
  }
  for (const name of names) {
    try {
      const m = readManifestView(storage.sync, name, storage.location);
      if (m && m.layout !== 'periods') {
        sum += decodedBytes(m);
        largest = Math.max(largest, decodedBytes(m));
      }
    } catch {
      // an unreadable manifest is reported where it is read; it adds nothing here
    }
  }
  return Math.round(Math.min(memoryBytes / 2, Math.max(MIN_CACHE_BYTES, sum + largest)));
}
