/**
 * Which version of each store is live, for the point reader: current.json
 * is re-checked (one stat) at most every `checkMs`, and a changed manifest
 * naming a new version gets a fresh VersionState with its own range of block
 * ids. Stores are keyed by product, or `<product>/<period>` for period
 * products (tiles/layout.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { productDir } from '../../config/paths.js';
import { readManifestSync } from '../manifest-file.js';
import { MANIFEST_FILE } from '../layout.js';
import { idSpan, versionState, type VersionState } from './version-state.js';

export interface StoreEntry {
  state: VersionState | null;
  checkedAt: number;
  /** ino:mtime:size of the current.json the state came from. */
  stamp: string;
}

/** `nwp`, `reanalysis/1950`. */
export const STORE_KEY = /^[a-z0-9][a-z0-9_-]*(\/\d{4})?$/;

export class LiveVersions {
  private readonly stores = new Map<string, StoreEntry>();
  private nextId = 0;

  constructor(
    private readonly root: string,
    private readonly checkMs: number,
  ) {}

  /** The store's entry with its live version at `nowMs`; undefined for an invalid key. */
  entryOf(key: string, nowMs: number): StoreEntry | undefined {
    let e = this.stores.get(key);
    if (e && nowMs - e.checkedAt < this.checkMs) return e;
    if (!STORE_KEY.test(key)) return undefined;
    const dir = productDir(this.root, key);
    const st = statSync(join(dir, MANIFEST_FILE), { throwIfNoEntry: false });
    const stamp = st ? `${st.ino}:${st.mtimeMs}:${st.size}` : '';
    if (!e) {
      e = { state: null, checkedAt: nowMs, stamp: '-' };
      this.stores.set(key, e);
    }
    e.checkedAt = nowMs;
    if (stamp === e.stamp) return e;
    let m = st ? readManifestSync(dir) : null;
    e.stamp = stamp;
    if (!m) {
      e.state = null;
    } else if (!e.state || e.state.version !== m.version) {
      let vs: VersionState;
      try {
        vs = versionState(key, dir, m, this.nextId);
      } catch (err) {
        // The version named a moment ago was replaced and removed meanwhile: take the newer manifest.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !(m = readManifestSync(dir))) throw err;
        e.stamp = '-';
        vs = versionState(key, dir, m, this.nextId);
      }
      e.state = vs;
      this.nextId += idSpan(vs);
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
