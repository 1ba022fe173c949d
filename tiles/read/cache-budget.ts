/**
 * The point reader's default cache budgets, sized from what is published:
 * requests spread over the whole country touch every chunk of the stores
 * they read, and a cache smaller than that thrashes (each miss decodes a
 * whole chunk). So the default is the decoded size of every live store
 * except period stores, plus the largest of them again: a server warming a
 * new version before it answers (./warm.ts) holds it beside the live one
 * until the switch; at least {@link MIN_CACHE_BYTES} and at most half the
 * machine's memory. METEOPUNTO_TILE_CACHE_MB overrides it.
 *
 * Period stores (reanalysis years: `time=` at any hour since 1940, tens of
 * GB decoded in all) have a cache of their own, {@link HISTORY_CACHE_BYTES},
 * so that history traffic never evicts the forecast's blocks: it cannot
 * hold them all whatever its size, and a miss there costs a few ms
 * (docs/benchmarks-journal.md).
 */
import { readdirSync } from 'node:fs';
import { totalmem } from 'node:os';
import type { Manifest } from '../manifest.js';
import { readManifestView } from '../manifest-file.js';
import { tileStorage, type TilesAt } from '../storage/open.js';

export const MIN_CACHE_BYTES = 256 * 1024 * 1024;

/**
 * The period stores' cache: 256 MiB, about a third of an ERA5 year of Italy at 0.25° as a Free request reads
 * it (8 variables × 20 tiles × 69 time chunks × 64 KiB = 690 MiB), so about every other random `time=`
 * of one year is a miss.
 */
export const HISTORY_CACHE_BYTES = 256 * 1024 * 1024;

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
