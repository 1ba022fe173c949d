/**
 * Which version of each product is live, for the point reader: current.json
 * is re-checked (one stat) at most every `checkMs`, and a changed manifest
 * naming a new version gets a fresh VersionState with its own range of block
 * ids. Each product also carries the reader's memos of its last point and
 * times (./point-memo.ts).
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { productDir } from '../config/paths.js';
import { readManifestSync } from './manifest-file.js';
import { MANIFEST_FILE } from './layout.js';
import { PointMemo, TimeMemo } from './point-memo.js';
import { idSpan, versionState, type VersionState } from './version-state.js';

export interface ProductEntry {
  state: VersionState | null;
  checkedAt: number;
  /** ino:mtime:size of the current.json the state came from. */
  stamp: string;
  /** The last point and times looked up in `state`. */
  point: PointMemo;
  time: TimeMemo;
}

const PRODUCT_NAME = /^[a-z0-9][a-z0-9_-]*$/;

export class LiveVersions {
  private readonly products = new Map<string, ProductEntry>();
  private nextId = 0;

  constructor(
    private readonly root: string,
    private readonly checkMs: number,
  ) {}

  /** The product's entry with its live version at `nowMs`; undefined for an invalid name. */
  entryOf(product: string, nowMs: number): ProductEntry | undefined {
    let e = this.products.get(product);
    if (e && nowMs - e.checkedAt < this.checkMs) return e;
    if (!PRODUCT_NAME.test(product)) return undefined;
    const dir = productDir(this.root, product);
    const st = statSync(join(dir, MANIFEST_FILE), { throwIfNoEntry: false });
    const stamp = st ? `${st.ino}:${st.mtimeMs}:${st.size}` : '';
    if (!e) {
      e = { state: null, checkedAt: nowMs, stamp: '-', point: new PointMemo(), time: new TimeMemo() };
      this.products.set(product, e);
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
        vs = versionState(dir, m, this.nextId);
      } catch (err) {
        // The version named a moment ago was replaced and removed meanwhile: take the newer manifest.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !(m = readManifestSync(dir))) throw err;
        e.stamp = '-';
        vs = versionState(dir, m, this.nextId);
      }
      e.state = vs;
      this.nextId += idSpan(vs);
    }
    return e;
  }

  /** Check the product's manifest again at the next lookup (its chunk files vanished: replaced version). */
  recheck(product: string): void {
    const e = this.products.get(product);
    if (e) e.checkedAt = -Infinity;
  }

  /** The live version whose block ids include `id`, if any. */
  holding(id: number): VersionState | undefined {
    for (const e of this.products.values()) {
      const vs = e.state;
      if (vs && id >= vs.idBase && id < vs.idBase + vs.slots.length) return vs;
    }
    return undefined;
  }
}
