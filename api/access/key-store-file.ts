/**
 * Embedded key store: `$METEOPUNTO_DATA/keys.json`, for one API process
 * without Redis. The CLI writes it atomically (temporary file, fsync, rename,
 * mode 0600); the server re-reads it when it changes, checking at most once
 * per second, so `keys revoke` reaches a running server within a second.
 * Every change is a read-modify-write under an exclusive lock on the file
 * (proper-lockfile: a lock directory beside it, taken over when its holder
 * died), so concurrent `keys` commands and a server never lose each other's
 * writes: no printed key missing, no revocation undone.
 */
import { open, readFile, rename, stat, mkdir, writeFile } from 'node:fs/promises';
import lockfile from 'proper-lockfile';
import { dirname, join } from 'node:path';
import type { KeyRecord, KeyStore, KeyUpdate } from './key-store.js';

interface KeysFile {
  version: 1;
  keys: KeyRecord[];
}

/** How stale the in-memory copy may get before the file is checked again, ms. */
const RECHECK_MS = 1000;
/** Waiting for the lock: retries with backoff, about 10 s in all, then an error naming the file. */
const LOCK_RETRIES = { retries: 40, factor: 1.3, minTimeout: 10, maxTimeout: 500 };
/** A lock not refreshed for this long belongs to a process that died: taken over. */
const LOCK_STALE_MS = 10_000;

export function keysFilePath(dataDir: string): string {
  return join(dataDir, 'keys.json');
}

export class FileKeyStore implements KeyStore {
  readonly kind = 'embedded' as const;
  private records = new Map<string, KeyRecord>();
  /** mtime, size and inode of the file last read; a rename changes the inode. */
  private signature = '';
  private checkedAt = -Infinity;
  private checking: Promise<void> | null = null;

  constructor(readonly location: string) {}

  async get(prefix: string): Promise<KeyRecord | null> {
    if (performance.now() - this.checkedAt >= RECHECK_MS) await this.refresh();
    return this.records.get(prefix) ?? null;
  }

  cached(prefix: string): KeyRecord | undefined {
    // Due for the file's re-check: get() reads it first.
    return performance.now() - this.checkedAt >= RECHECK_MS ? undefined : this.records.get(prefix);
  }

  async insert(record: KeyRecord): Promise<boolean> {
    return this.locked(async () => {
      await this.reload();
      if (this.records.has(record.prefix)) return false;
      this.records.set(record.prefix, record);
      await this.write();
      return true;
    });
  }

  async update(prefix: string, change: KeyUpdate): Promise<KeyRecord | null> {
    return this.locked(async () => {
      await this.reload();
      const current = this.records.get(prefix);
      if (!current) return null;
      const next = { ...current, ...change };
      this.records.set(prefix, next);
      await this.write();
      return next;
    });
  }

  /** Runs `change` holding the file's lock (read, modify and write as one step across processes). */
  private async locked<T>(change: () => Promise<T>): Promise<T> {
    await mkdir(dirname(this.location), { recursive: true });
    // The lock is taken on the file's path, which must exist: an empty keys file is created first (never overwritten).
    await writeFile(this.location, `${JSON.stringify({ version: 1, keys: [] }, null, 2)}\n`, { flag: 'wx', mode: 0o600 }).catch((err: NodeJS.ErrnoException) => {
      if (err.code !== 'EEXIST') throw err;
    });
    let release: () => Promise<void>;
    try {
      release = await lockfile.lock(this.location, { retries: LOCK_RETRIES, stale: LOCK_STALE_MS, realpath: false });
    } catch (err) {
      throw new Error(`${this.location}: another process holds the keys file's lock (${(err as Error).message}); try again`);
    }
    try {
      return await change();
    } finally {
      await release();
    }
  }

  async list(): Promise<KeyRecord[]> {
    await this.reload();
    return [...this.records.values()].sort((a, b) => a.created.localeCompare(b.created));
  }

  async close(): Promise<void> {}

  /** Re-reads the file if it changed; concurrent callers share one check. */
  private refresh(): Promise<void> {
    this.checking ??= this.reloadIfChanged().finally(() => {
      this.checkedAt = performance.now();
      this.checking = null;
    });
    return this.checking;
  }

  private async reloadIfChanged(): Promise<void> {
    try {
      const sig = await this.fileSignature();
      if (sig !== this.signature) await this.reload();
    } catch {
      // The writer renames whole files into place, so this is an operator's
      // hand edit gone wrong: keep serving the last good copy. Start-up
      // (list()) and the CLI report the error.
    }
  }

  private async fileSignature(): Promise<string> {
    try {
      const s = await stat(this.location);
      return `${s.mtimeMs}:${s.size}:${s.ino}`;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 'absent';
      throw err;
    }
  }

  private async reload(): Promise<void> {
    const sig = await this.fileSignature();
    if (sig === 'absent') {
      this.records = new Map();
      this.signature = sig;
      return;
    }
    const text = await readFile(this.location, 'utf8');
    let parsed: KeysFile;
    try {
      parsed = JSON.parse(text) as KeysFile;
    } catch (err) {
      throw new Error(`${this.location}: not valid JSON (${(err as Error).message})`);
    }
    if (parsed?.version !== 1 || !Array.isArray(parsed.keys)) throw new Error(`${this.location}: not a Meteopunto keys file (version 1)`);
    this.records = new Map(parsed.keys.map((r) => [r.prefix, r]));
    this.signature = sig;
  }

  private async write(): Promise<void> {
    const body: KeysFile = { version: 1, keys: [...this.records.values()] };
    const tmp = `${this.location}.${process.pid}.tmp`;
    const fh = await open(tmp, 'w', 0o600);
    try {
      await fh.writeFile(`${JSON.stringify(body, null, 2)}\n`);
      await fh.sync();
    } finally {
      await fh.close();
    }
    await rename(tmp, this.location);
    this.signature = await this.fileSignature();
  }
}
