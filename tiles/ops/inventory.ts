/**
 * What is on disk under `tiles/`, for `tiles ls` and `tiles gc`: per store
 * (a product, or a period of a period product) its live manifest, every
 * version directory with its size, retired marks and temp directories.
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { productDir, tilesDir } from '../../config/paths.js';
import type { Manifest } from '../manifest.js';
import { readManifestSync } from '../manifest-file.js';
import { PERIOD_NAME, TEMP_PREFIX, VERSION_NAME, retiredMarker } from '../layout.js';

export interface VersionOnDisk {
  name: string;
  bytes: number;
  live: boolean;
  /** Marked retired by gc (deleted after the grace period). */
  retired: boolean;
}

export interface StoreOnDisk {
  /** `nwp`, or `reanalysis/1950`. */
  key: string;
  dir: string;
  /** Null when no manifest is published, or it is unreadable (then `error` says why). */
  manifest: Manifest | null;
  error?: string;
  versions: VersionOnDisk[];
  /** Temp directories (ingests under way or interrupted). */
  temps: { name: string; bytes: number }[];
}

export interface ProductOnDisk {
  product: string;
  /** Period products: one store per period; others: one store. */
  periods: boolean;
  stores: StoreOnDisk[];
}

/** Bytes of all files under `path` (a file or a directory). */
export function diskBytes(path: string): number {
  const st = statSync(path, { throwIfNoEntry: false });
  if (!st) return 0;
  if (!st.isDirectory()) return st.size;
  let n = 0;
  for (const e of readdirSync(path, { recursive: true, withFileTypes: true })) {
    if (e.isFile()) n += statSync(join(e.parentPath, e.name), { throwIfNoEntry: false })?.size ?? 0;
  }
  return n;
}

export function storeOnDisk(root: string, key: string): StoreOnDisk {
  const dir = productDir(root, key);
  let manifest: Manifest | null = null;
  let error: string | undefined;
  try {
    manifest = readManifestSync(dir);
  } catch (err) {
    error = (err as Error).message;
  }
  const names = readdirSync(dir);
  const versions = names.filter((n) => VERSION_NAME.test(n)).sort().map((name) => ({
    name,
    bytes: diskBytes(join(dir, name)),
    live: manifest?.version === name,
    retired: existsSync(retiredMarker(dir, name)),
  }));
  const temps = names.filter((n) => n.startsWith(TEMP_PREFIX)).map((name) => ({ name, bytes: diskBytes(join(dir, name)) }));
  return { key, dir, manifest, ...(error ? { error } : {}), versions, temps };
}

/** Every product under `<root>/tiles`, sorted by name. */
export function inventory(root: string): ProductOnDisk[] {
  let names: string[];
  try {
    names = readdirSync(tilesDir(root), { withFileTypes: true }).filter((e) => e.isDirectory() && !e.name.startsWith('.')).map((e) => e.name).sort();
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return names.map((product) => {
    const periods = readdirSync(productDir(root, product)).filter((n) => PERIOD_NAME.test(n)).sort();
    if (periods.length > 0) return { product, periods: true, stores: periods.map((p) => storeOnDisk(root, `${product}/${p}`)) };
    return { product, periods: false, stores: [storeOnDisk(root, product)] };
  });
}

export function humanBytes(n: number): string {
  const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB'];
  let i = 0;
  let v = n;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${i === 0 ? v : v.toFixed(1)} ${units[i]}`;
}
