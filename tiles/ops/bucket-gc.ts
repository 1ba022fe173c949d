/**
 * Clean-up of a store in a bucket, run by every publish there and by
 * `tiles gc`. A bucket has no temp directories (a version is built in a
 * local staging directory, ./gc.ts cleans those) and no rename: a writer
 * killed while uploading leaves a partial `<version>.zarr/` prefix that no
 * manifest names, and a replaced version stays whole until removed.
 *
 * A version other than the live one is removed once it has been unusable for
 * the grace period ({@link DEFAULT_GRACE_MS}, far above the readers' 1 s
 * re-check), judged by object ages (LastModified), since a bucket keeps no
 * other clock of ours:
 * - it stopped being live when the next version's upload finished (the
 *   newest object of the first version named after it): a replaced version
 *   goes a grace period after its successor arrived;
 * - a version named after every other (a partial upload, or a writer that lost
 *   the race for the manifest) goes a grace period after its own newest
 *   object, so a writer still uploading is never disturbed.
 */
import type { TileStorage } from '../storage/types.js';
import { readManifest } from '../manifest-file.js';
import { VERSION_NAME } from '../layout.js';
import { DEFAULT_GRACE_MS } from './gc.js';

export interface BucketVersion {
  name: string;
  bytes: number;
  objects: number;
  /** LastModified of its newest object, ms. */
  newestMs: number;
  live: boolean;
}

/** The versions under a store's prefix (`nwp/`, `reanalysis/1950/`), by name, with their sizes and ages. */
export async function bucketVersions(storage: TileStorage, storeKey: string, live: string | null): Promise<BucketVersion[]> {
  const byName = new Map<string, BucketVersion>();
  const base = `${storeKey}/`;
  for (const o of await storage.list(base)) {
    const name = o.key.slice(base.length).split('/')[0]!;
    if (!VERSION_NAME.test(name) || o.key.length === base.length + name.length) continue;
    let v = byName.get(name);
    if (!v) byName.set(name, (v = { name, bytes: 0, objects: 0, newestMs: 0, live: name === live }));
    v.bytes += o.size;
    v.objects++;
    v.newestMs = Math.max(v.newestMs, o.modifiedMs);
  }
  return [...byName.values()].sort((a, b) => (a.name < b.name ? -1 : 1));
}

export interface BucketGcAction {
  name: string;
  bytes: number;
  why: string;
}

/** What may go now (see the module comment); nothing when the manifest is unreadable. */
export async function planBucketGc(storage: TileStorage, storeKey: string, now = Date.now(), graceMs = DEFAULT_GRACE_MS): Promise<BucketGcAction[]> {
  let live: string | null;
  try {
    live = (await readManifest(storage, storeKey))?.version ?? null;
  } catch {
    return []; // an unreadable manifest: no version is provably unused
  }
  const versions = await bucketVersions(storage, storeKey, live);
  const out: BucketGcAction[] = [];
  versions.forEach((v, i) => {
    if (v.live) return;
    const next = versions.slice(i + 1);
    const replacedAt = next.length ? Math.min(...next.map((w) => w.newestMs)) : v.newestMs;
    const idle = now - Math.max(v.newestMs, replacedAt);
    if (idle <= graceMs) return;
    const mins = Math.round(idle / 60_000);
    out.push({ name: v.name, bytes: v.bytes, why: next.length ? `replaced ${mins} min ago` : `not published (partial upload or a writer that lost the race), untouched for ${mins} min` });
  });
  return out;
}

/** Remove what planBucketGc found; returns the names removed. */
export async function collectBucketGarbage(storage: TileStorage, storeKey: string, opts: { now?: number; graceMs?: number } = {}): Promise<string[]> {
  const actions = await planBucketGc(storage, storeKey, opts.now, opts.graceMs);
  for (const a of actions) await storage.deletePrefix(`${storeKey}/${a.name}/`);
  return actions.map((a) => a.name);
}
