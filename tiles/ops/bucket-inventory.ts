/**
 * What is in a bucket's tile store, for `tiles ls`, `verify` and `gc`: the
 * same shape as the directory's inventory (./inventory.ts), with sizes
 * summed from the listing. A bucket has no temp directories (versions are
 * built in a local staging directory) and no retired marks (./bucket-gc.ts
 * judges by object ages).
 */
import type { Manifest } from '../manifest.js';
import { readManifest } from '../manifest-file.js';
import { PERIOD_NAME } from '../layout.js';
import type { TileStorage } from '../storage/types.js';
import { bucketVersions } from './bucket-gc.js';
import type { ProductOnDisk, StoreOnDisk } from './inventory.js';

export async function bucketStore(storage: TileStorage, key: string): Promise<StoreOnDisk> {
  let manifest: Manifest | null = null;
  let error: string | undefined;
  try {
    manifest = await readManifest(storage, key);
  } catch (err) {
    error = (err as Error).message;
  }
  const versions = (await bucketVersions(storage, key, manifest?.version ?? null)).map((v) => ({ name: v.name, bytes: v.bytes, live: v.live, retired: false }));
  return { key, dir: `${storage.location}/${key}`, manifest, ...(error ? { error } : {}), versions, temps: [] };
}

/** Every product in the bucket, sorted by name. */
export async function bucketInventory(storage: TileStorage): Promise<ProductOnDisk[]> {
  const products = (await storage.children('')).dirs.filter((d) => !d.startsWith('.'));
  const out: ProductOnDisk[] = [];
  for (const product of products) {
    const periods = (await storage.children(`${product}/`)).dirs.filter((n) => PERIOD_NAME.test(n));
    if (periods.length > 0) out.push({ product, periods: true, stores: await Promise.all(periods.map((p) => bucketStore(storage, `${product}/${p}`))) });
    else out.push({ product, periods: false, stores: [await bucketStore(storage, product)] });
  }
  return out;
}
