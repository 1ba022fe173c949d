/**
 * Embedded key store: `$METEOPUNTO_DATA/keys.json`, for one API process
 * without Redis. The CLI writes it atomically (temporary file, fsync, rename,
 * mode 0600); the server re-reads it when it changes, checking at most once
 * per second, so `keys revoke` reaches a running server within a second.
 *
 * Every change is a read-modify-write under an exclusive lock on the file
 * (proper-lockfile: a `keys.json.lock` directory, stale after 10 s), so
 * parallel CLI processes and a running server never drop each other's keys
 * or undo a revocation (issue 16).
 */
import { open, readFile, rename, stat, mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import lockfile from 'proper-lockfile';
import type { KeyRecord, KeyStore, KeyUpdate } from './key-store.js';

interface KeysFile {
  version: 1;
  keys: KeyRecord[];
}

/** How stale the in-memory copy may get before the file is checked again, ms. */
const RECHECK_MS = 1000;

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

  /** Runs a read-modify-write holding the file's lock (across processes). */
  private async locked<T>(fn: () => Promise<T>): Promise<T> {
    await mkdir(dirname(this.location), { recursive: true });
    const release = await lockfile.lock(this.location, {
      realpath: false, // the file may not exist yet
      stale: 10_000,
      retries: { retries: 200, minTimeout: 5, maxTimeout: 100, randomize: true },
    });
    try {
      return await fn();
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
    await mkdir(dirname(this.location), { recursive: true });
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
