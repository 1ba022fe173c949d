/**
 * `tiles gc`: what an operator's clean-up may remove now, then removing it.
 * The same rules as the clean-up every publish runs (./gc.ts), with one
 * addition: a version that is not live is unusable by any reader once the
 * live version has been published for longer than the grace period (readers
 * re-check current.json every second, so none can still hold an older one),
 * whether or not a publish got to mark it retired.
 */
import { rm, unlink } from 'node:fs/promises';
import { join } from 'node:path';
import { DEFAULT_GRACE_MS, STALE_TEMP_MS, tempDirIsDead } from './gc.js';
import { retiredMarker } from '../layout.js';
import { diskBytes, type StoreOnDisk } from './inventory.js';
import { statSync } from 'node:fs';

/** The UTC second a version name was stamped with; versions of the same second cannot be ordered by name (random suffix). */
function stamp(version: string): string {
  return version.slice(0, 'YYYYMMDDTHHMMSSZ'.length);
}

export interface GcAction {
  store: string;
  /** Path relative to the store directory. */
  name: string;
  kind: 'version' | 'temp';
  bytes: number;
  why: string;
}

export function planGc(s: StoreOnDisk, now: number, graceMs = DEFAULT_GRACE_MS, staleTempMs = STALE_TEMP_MS): Promise<GcAction[]> {
  return (async () => {
    const out: GcAction[] = [];
    for (const t of s.temps) {
      if (await tempDirIsDead(join(s.dir, t.name), now, staleTempMs)) {
        out.push({ store: s.key, name: t.name, kind: 'temp', bytes: t.bytes, why: 'temp directory of an interrupted ingest' });
      }
    }
    // Unreadable or absent manifest: no version is provably unused.
    if (!s.manifest) return out;
    const liveSince = now - Date.parse(s.manifest.published);
    for (const v of s.versions) {
      if (v.live) continue;
      const markedAt = statSync(retiredMarker(s.dir, v.name), { throwIfNoEntry: false })?.mtimeMs;
      if (markedAt !== undefined && now - markedAt > graceMs) {
        out.push({ store: s.key, name: v.name, kind: 'version', bytes: v.bytes, why: `retired ${Math.round((now - markedAt) / 60_000)} min ago` });
      } else if (stamp(v.name) < stamp(s.manifest.version) && liveSince > graceMs) {
        out.push({ store: s.key, name: v.name, kind: 'version', bytes: v.bytes, why: `replaced by ${s.manifest.version}, live for ${Math.round(liveSince / 60_000)} min` });
      }
    }
    return out;
  })();
}

/** Remove what `planGc` found; returns the bytes freed. */
export async function applyGc(s: StoreOnDisk, actions: GcAction[]): Promise<number> {
  let freed = 0;
  for (const a of actions) {
    const path = join(s.dir, a.name);
    const bytes = diskBytes(path);
    await rm(path, { recursive: true, force: true });
    if (a.kind === 'version') await unlink(retiredMarker(s.dir, a.name)).catch(() => undefined);
    freed += bytes;
  }
  return freed;
}
