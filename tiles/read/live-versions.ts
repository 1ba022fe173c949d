/**
 * Which version of each store is live, for the point reader: current.json
 * is re-checked at most every `checkMs` through the storage's synchronous
 * view (a directory: one stat; tiles/storage/), and a changed manifest
 * naming a new version gets a fresh VersionState with its own range of block
 * ids. Stores are keyed by product, or `<product>/<period>` for period
 * products (tiles/layout.ts).
 */
import { manifestKey, readManifestView } from '../manifest-file.js';
import type { TileStorage } from '../storage/types.js';
import { idSpan, versionState, type VersionState } from './version-state.js';

export interface StoreEntry {
  state: VersionState | null;
  checkedAt: number;
  /** The storage's stamp of the current.json the state came from (a directory: ino:mtime:size). */
  stamp: string;
  /** Its storage key. */
  manifestKey: string;
  /** A newer version being warmed before it replaces `state` (./warm.ts). */
  pending?: VersionState | null;
}

/**
 * Make `vs` the entry's live version (null: the store was withdrawn); every switch goes through here. The
 * version replaced has its front table (`slots`) emptied: the cache's drop hook clears only live versions'
 * tables, and a replaced version outlives its switch in the service's recent lookup plans
 * (api/weather/lookup-plan.ts), so its table would hold every block it had read, a version's decoded memory per
 * publish (docs/benchmarks-journal.md, "The publish window's collector"). A request still reading it meets the
 * cache (a hit, or its miss path), as for an evicted block.
 */
export function setLive(e: StoreEntry, vs: VersionState | null): void {
  const old = e.state;
  e.state = vs;
  if (old && old !== vs) old.slots.fill(undefined);
}

/** What to do with a new version found for a store: by default it answers at once; ./warm.ts stages it. */
export type AdoptVersion = (key: string, e: StoreEntry, vs: VersionState) => void;

/** `nwp`, `reanalysis/1950`. */
export const STORE_KEY = /^[a-z0-9][a-z0-9_-]*(\/\d{4})?$/;

export class LiveVersions {
  private readonly stores = new Map<string, StoreEntry>();
  private nextId = 0;

  constructor(
    private readonly storage: TileStorage,
    private readonly checkMs: number,
    private readonly adopt: AdoptVersion = (_key, e, vs) => setLive(e, vs),
  ) {}

  /** The store's entry with its live version at `nowMs`; undefined for an invalid key. */
  entryOf(key: string, nowMs: number): StoreEntry | undefined {
    let e = this.stores.get(key);
    if (e && nowMs - e.checkedAt < this.checkMs) return e;
    if (!e) {
      if (!STORE_KEY.test(key)) return undefined;
      e = { state: null, checkedAt: nowMs, stamp: '-', manifestKey: manifestKey(key) };
      this.stores.set(key, e);
    }
    const view = this.storage.sync;
    const stamp = view.stamp(e.manifestKey);
    e.checkedAt = nowMs;
    if (stamp === e.stamp) return e;
    let m = stamp !== '' ? readManifestView(view, key, this.storage.location) : null;
    e.stamp = stamp;
    if (!m || e.state?.version === m.version) {
      // Withdrawn, or back to the live version: a version being warmed is not switched to.
      if (!m) setLive(e, null);
      e.pending = null;
    } else if (e.pending?.version !== m.version) {
      let vs: VersionState;
      try {
        vs = versionState(key, this.storage, m, this.nextId);
      } catch (err) {
        // The version named a moment ago was replaced and removed meanwhile: take the newer manifest.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !(m = readManifestView(view, key, this.storage.location))) throw err;
        e.stamp = '-';
        vs = versionState(key, this.storage, m, this.nextId);
      }
      this.nextId += idSpan(vs);
      this.adopt(key, e, vs);
    }
    return e;
  }

  /** Check the store's manifest again at the next lookup (its chunk files vanished: replaced version). */
  recheck(key: string): void {
    const e = this.stores.get(key);
    if (e) e.checkedAt = -Infinity;
  }

  /** The live version whose block ids include `id`, if any. */
  holding(id: number): VersionState | undefined {
    for (const e of this.stores.values()) {
      const vs = e.state;
      if (vs && id >= vs.idBase && id < vs.idBase + vs.slots.length) return vs;
    }
    return undefined;
  }
}
