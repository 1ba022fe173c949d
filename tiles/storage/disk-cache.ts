/**
 * A bounded local disk cache of a bucket's immutable objects (a version's
 * chunks and metadata), `METEOPUNTO_CACHE_DIR`: a replica that restarts, or
 * whose memory cache dropped a block, reads it from its own disk instead of
 * the bucket. Least recently used first out once the files pass `maxBytes`.
 * One file per object, named by the SHA-256 of its key; written to a temp
 * name and renamed, so a crash leaves no half object (no fsync: a lost file
 * is fetched again). Recency survives a restart through the files' mtimes.
 */
import { mkdirSync, readdirSync, statSync } from 'node:fs';
import { readFile, rename, unlink, utimes, writeFile } from 'node:fs/promises';
import { createHash, randomBytes } from 'node:crypto';
import { join } from 'node:path';

export class DiskCache {
  /** File name → size, least recently used first (a Map keeps insertion order; a hit re-inserts). */
  private readonly files = new Map<string, number>();
  private total = 0;

  constructor(
    readonly dir: string,
    readonly maxBytes: number,
  ) {
    mkdirSync(dir, { recursive: true });
    const found = readdirSync(dir)
      .filter((n) => /^[0-9a-f]{64}$/.test(n))
      .map((n) => ({ n, st: statSync(join(dir, n), { throwIfNoEntry: false }) }))
      .filter((f) => f.st)
      .sort((a, b) => a.st!.mtimeMs - b.st!.mtimeMs);
    for (const f of found) this.add(f.n, f.st!.size);
  }

  get bytes(): number {
    return this.total;
  }

  private name(key: string): string {
    return createHash('sha256').update(key).digest('hex');
  }

  private add(name: string, size: number): void {
    const had = this.files.get(name);
    if (had !== undefined) {
      this.files.delete(name);
      this.total -= had;
    }
    this.files.set(name, size);
    this.total += size;
  }

  async get(key: string): Promise<Uint8Array | null> {
    const name = this.name(key);
    const size = this.files.get(name);
    if (size === undefined) return null;
    try {
      const bytes = await readFile(join(this.dir, name));
      this.add(name, size);
      const now = new Date();
      void utimes(join(this.dir, name), now, now).catch(() => undefined);
      return bytes;
    } catch {
      this.files.delete(name);
      this.total -= size;
      return null;
    }
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    if (bytes.byteLength > this.maxBytes) return;
    const name = this.name(key);
    const tmp = join(this.dir, `.${name}.${randomBytes(4).toString('hex')}.tmp`);
    await writeFile(tmp, bytes);
    await rename(tmp, join(this.dir, name));
    this.add(name, bytes.byteLength);
    for (const [old, size] of this.files) {
      if (this.total <= this.maxBytes) break;
      this.files.delete(old);
      this.total -= size;
      await unlink(join(this.dir, old)).catch(() => undefined);
    }
  }
}
