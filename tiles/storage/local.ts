/**
 * The tile storage on a local directory (`$METEOPUNTO_DATA/tiles`): keys are
 * paths below it. Writes are durable and atomic as the store has always
 * made them (tiles/write/durable-fs.ts): a private temp file, fsync, rename
 * over, fsync of the directory; a finished version directory is renamed
 * into place in one step.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { link, mkdir, open, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises';
import { dirname, join, relative, sep } from 'node:path';
import { randomBytes } from 'node:crypto';
import lockfile from 'proper-lockfile';
import { fsyncDir, writeFileSynced } from '../write/durable-fs.js';
import type { Children, ObjectInfo, ObjectStamp, SyncView, TileStorage } from './types.js';
import { MANIFEST_FILE, SWITCH_LOCK } from '../layout.js';

/**
 * The switch lock (proper-lockfile: a lock directory whose mtime its holder
 * refreshes every UPDATE_MS): a switch takes milliseconds, so a lock not
 * refreshed for STALE_MS belongs to a dead holder and is taken over; a
 * writer waits up to about a minute behind a live one.
 */
const SWITCH_LOCK_STALE_MS = 10_000;
const SWITCH_LOCK_UPDATE_MS = 2_000;
const SWITCH_LOCK_RETRIES = { retries: 300, minTimeout: 20, maxTimeout: 200 };

function missing(err: unknown): boolean {
  const code = (err as NodeJS.ErrnoException).code;
  return code === 'ENOENT' || code === 'ENOTDIR';
}

/** inode:mtime:size: a replaced file (rename over) changes at least the inode. */
function tagOf(st: { ino: number; mtimeMs: number; size: number }): string {
  return `${st.ino}:${st.mtimeMs}:${st.size}`;
}

function checkKey(key: string): string {
  if (key.startsWith('/') || key.split('/').includes('..')) throw new RangeError(`invalid tile storage key '${key}'`);
  return key;
}

export class LocalStorage implements TileStorage {
  readonly kind = 'local' as const;
  readonly sync: SyncView;

  constructor(readonly location: string) {
    this.sync = {
      stamp: (key) => {
        const st = statSync(this.localPath(key), { throwIfNoEntry: false });
        return st ? tagOf(st) : '';
      },
      text: (key) => {
        try {
          return readFileSync(this.localPath(key), 'utf8');
        } catch (err) {
          if (missing(err)) return null;
          throw err;
        }
      },
      dirs: (prefix) => {
        try {
          return readdirSync(this.localPath(prefix), { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name).sort();
        } catch (err) {
          if (missing(err)) return [];
          throw err;
        }
      },
    };
  }

  localPath(key: string): string {
    return join(this.location, checkKey(key));
  }

  async get(key: string): Promise<Uint8Array | null> {
    try {
      return await readFile(this.localPath(key));
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async getRange(key: string, offset: number, length: number): Promise<Uint8Array | null> {
    let fh;
    try {
      fh = await open(this.localPath(key), 'r');
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
    try {
      const buf = Buffer.alloc(length);
      const { bytesRead } = await fh.read(buf, 0, length, offset);
      return buf.subarray(0, bytesRead);
    } finally {
      await fh.close();
    }
  }

  /** A private temp file beside the target, `.name.<pid>.<hex>.tmp` (tiles/ops/gc.ts removes stale ones). */
  private async writeTemp(key: string, data: Uint8Array | string): Promise<{ tmp: string; target: string; dir: string }> {
    const target = this.localPath(key);
    const dir = dirname(target);
    await mkdir(dir, { recursive: true });
    const name = target.slice(dir.length + 1);
    const tmp = join(dir, `.${name}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`);
    await writeFileSynced(tmp, data);
    return { tmp, target, dir };
  }

  async put(key: string, data: Uint8Array | string): Promise<void> {
    const { tmp, target, dir } = await this.writeTemp(key, data);
    try {
      await rename(tmp, target);
    } catch (err) {
      await unlink(tmp).catch(() => undefined);
      throw err;
    }
    await fsyncDir(dir);
  }

  /**
   * Put-if-absent is atomic across processes (link(2) fails on an existing
   * name); the If-Match form compares and renames, atomic only within one
   * process: writers on one machine share the directory's last-rename-wins
   * rule, as before the storage layer.
   */
  async putIf(key: string, data: Uint8Array | string, expected: string | null): Promise<boolean> {
    const { tmp, target, dir } = await this.writeTemp(key, data);
    try {
      if (expected === null) {
        try {
          await link(tmp, target);
        } catch (err) {
          if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
          throw err;
        }
      } else {
        if ((await this.head(key))?.tag !== expected) return false;
        await rename(tmp, target);
      }
    } finally {
      await unlink(tmp).catch(() => undefined);
    }
    await fsyncDir(dir);
    return true;
  }

  async head(key: string): Promise<ObjectStamp | null> {
    try {
      const st = await stat(this.localPath(key));
      return st.isFile() ? { tag: tagOf(st), size: st.size, modifiedMs: st.mtimeMs } : null;
    } catch (err) {
      if (missing(err)) return null;
      throw err;
    }
  }

  async list(prefix: string): Promise<ObjectInfo[]> {
    // Walk from the deepest directory the prefix names, then filter by the rest of it.
    const base = prefix.includes('/') ? prefix.slice(0, prefix.lastIndexOf('/')) : '';
    const root = this.localPath(base);
    let entries;
    try {
      entries = await readdir(root, { recursive: true, withFileTypes: true });
    } catch (err) {
      if (missing(err)) return [];
      throw err;
    }
    const out: ObjectInfo[] = [];
    for (const e of entries) {
      if (!e.isFile()) continue;
      const path = join(e.parentPath, e.name);
      const key = relative(this.location, path).split(sep).join('/');
      if (!key.startsWith(prefix)) continue;
      const st = await stat(path).catch(() => null);
      if (st) out.push({ key, size: st.size, modifiedMs: st.mtimeMs });
    }
    return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  }

  async children(prefix: string): Promise<Children> {
    const out: Children = { files: [], dirs: [] };
    let entries;
    try {
      entries = await readdir(this.localPath(prefix), { withFileTypes: true });
    } catch (err) {
      if (missing(err)) return out;
      throw err;
    }
    for (const e of entries) {
      if (e.isDirectory()) out.dirs.push(e.name);
      else if (e.isFile()) {
        const st = await stat(join(e.parentPath, e.name)).catch(() => null);
        if (st) out.files.push({ key: prefix + e.name, size: st.size, modifiedMs: st.mtimeMs });
      }
    }
    out.dirs.sort();
    out.files.sort((a, b) => (a.key < b.key ? -1 : 1));
    return out;
  }

  async delete(key: string): Promise<void> {
    await unlink(this.localPath(key)).catch((err: unknown) => {
      if (!missing(err)) throw err;
    });
  }

  async deletePrefix(prefix: string): Promise<number> {
    if (!prefix.endsWith('/')) throw new RangeError(`deletePrefix needs a prefix ending in '/', got '${prefix}'`);
    const n = (await this.list(prefix)).length;
    await rm(this.localPath(prefix), { recursive: true, force: true });
    return n;
  }

  async commitDir(dir: string, prefix: string): Promise<void> {
    if (!prefix.endsWith('/')) throw new RangeError(`commitDir needs a prefix ending in '/', got '${prefix}'`);
    const target = this.localPath(prefix.slice(0, -1));
    await fsyncDir(dir);
    // rename(2) onto an existing non-empty directory fails: a version name is never reused.
    await rename(dir, target);
    await fsyncDir(dirname(target));
  }

  stagingDir(storeKey: string): string {
    return this.localPath(storeKey);
  }

  async lockSwitch(storeKey: string): Promise<() => Promise<void>> {
    const dir = this.localPath(storeKey);
    await mkdir(dir, { recursive: true });
    // Locked under current.json's name: proper-lockfile keys its holders by that path, and reanalysis/years.ts holds the directory's.
    const release = await lockfile.lock(join(dir, MANIFEST_FILE), {
      lockfilePath: join(dir, SWITCH_LOCK), realpath: false, stale: SWITCH_LOCK_STALE_MS, update: SWITCH_LOCK_UPDATE_MS, retries: SWITCH_LOCK_RETRIES,
      // Compromised (its directory removed or taken over after a stall longer than STALE_MS): the switch is done or
      // lost by then; proper-lockfile's default would throw from a timer and end the process.
      onCompromised: () => undefined,
    });
    return () => release().catch(() => undefined);
  }
}
