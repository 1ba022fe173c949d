/**
 * The synchronous view of a bucket (tiles/storage/types.ts, SyncView): the
 * point reader checks manifests without a promise, so a bucket's manifests
 * are polled in the background and the hot path reads the last state seen.
 *
 * - A key asked for the first time is "wanted": a manifest or an index (the
 *   only objects replaced in place) is then polled every `pollMs` (HEAD, and
 *   GET when its ETag changed); any other object is fetched once (a version's
 *   objects never change).
 * - A changed manifest is exposed only after the `.zmetadata` of the version it
 *   names is loaded too, so the reader can build the version's state at once.
 * - A listing asked for (`dirs`) is refreshed at every poll too.
 * - When the bucket does not answer, the last state stays (answers from what
 *   is cached go on) and `health()` says since when it failed.
 */
import type { ObjectStamp, SyncView } from './types.js';

interface Doc {
  tag: string;
  text: string | null;
}

/** What the view needs of its storage. */
export interface ViewSource {
  head(key: string): Promise<ObjectStamp | null>;
  get(key: string): Promise<Uint8Array | null>;
  children(prefix: string): Promise<{ dirs: string[] }>;
}

/** Objects replaced in place: polled. */
function mutable(key: string): boolean {
  return key.endsWith('/current.json') || key.endsWith('/index.json');
}

export class BucketView implements SyncView {
  private readonly docs = new Map<string, Doc>();
  private readonly polled = new Set<string>();
  private readonly pending = new Set<string>();
  private readonly listings = new Map<string, string[] | null>();
  private timer: NodeJS.Timeout | undefined;
  private round: Promise<void> | undefined;
  private closed = false;
  /** Last poll that reached the bucket, and the error of the last that did not (null: it answered). */
  lastOkMs = 0;
  lastError: string | null = null;

  constructor(
    private readonly source: ViewSource,
    private readonly pollMs: number,
  ) {}

  stamp(key: string): string {
    const d = this.docs.get(key);
    if (d === undefined) this.want(key);
    return d?.tag ?? '';
  }

  text(key: string): string | null {
    const d = this.docs.get(key);
    if (d === undefined) this.want(key);
    return d?.text ?? null;
  }

  dirs(prefix: string): string[] {
    const d = this.listings.get(prefix);
    if (d === undefined) {
      this.listings.set(prefix, null);
      if (!this.round) this.round = this.poll();
    }
    return d ?? [];
  }

  /** Load `keys` now and keep them fresh; resolves when they are in the view (or the bucket failed: rejects). */
  async prime(keys: readonly string[], listings: readonly string[] = []): Promise<void> {
    for (const k of keys) if (mutable(k)) this.polled.add(k);
    await Promise.all([...keys.map((k) => this.refresh(k, true)), ...listings.map((p) => this.list(p, true))]);
    this.schedule();
  }

  health(): { lastOkMs: number; lastError: string | null } {
    return { lastOkMs: this.lastOkMs, lastError: this.lastError };
  }

  close(): void {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  private want(key: string): void {
    if (mutable(key)) this.polled.add(key);
    else this.pending.add(key);
    // A first ask is served at the next round, right away.
    if (!this.round) this.round = this.poll();
  }

  private schedule(): void {
    if (this.closed || this.timer || this.polled.size + this.pending.size + this.listings.size === 0) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (!this.round) this.round = this.poll();
    }, this.pollMs);
    this.timer.unref();
  }

  private async poll(): Promise<void> {
    try {
      const keys = [...this.polled, ...this.pending];
      this.pending.clear();
      await Promise.all([...keys.map((k) => this.refresh(k, false)), ...[...this.listings.keys()].map((p) => this.list(p, false))]);
    } finally {
      this.round = undefined;
      this.schedule();
    }
  }

  private async list(prefix: string, raise: boolean): Promise<void> {
    try {
      this.listings.set(prefix, (await this.source.children(prefix)).dirs);
    } catch (err) {
      this.lastError = (err as Error).message;
      if (raise) throw err;
    }
  }

  /** Bring one key up to date; errors are recorded (or thrown when `raise`). */
  private async refresh(key: string, raise: boolean): Promise<void> {
    try {
      const had = this.docs.get(key);
      if (!mutable(key)) {
        if (had) return;
        const bytes = await this.source.get(key);
        this.docs.set(key, { tag: bytes === null ? '' : 'immutable', text: bytes === null ? null : Buffer.from(bytes).toString('utf8') });
      } else {
        const st = await this.source.head(key);
        if (st === null) {
          this.docs.set(key, { tag: '', text: null });
        } else if (st.tag !== had?.tag) {
          const bytes = await this.source.get(key);
          const text = bytes === null ? null : Buffer.from(bytes).toString('utf8');
          if (text !== null && key.endsWith('/current.json')) await this.loadVersionMeta(key, text, had?.text ?? null);
          this.docs.set(key, { tag: bytes === null ? '' : st.tag, text });
        }
      }
      this.lastOkMs = Date.now();
      this.lastError = null;
    } catch (err) {
      this.lastError = (err as Error).message;
      if (raise) throw err;
    }
  }

  /** The `.zmetadata` of the version a manifest names, before the manifest is exposed; the replaced version's is dropped. */
  private async loadVersionMeta(manifestKey: string, text: string, previous: string | null): Promise<void> {
    const store = manifestKey.slice(0, -'/current.json'.length);
    const version = versionOf(text);
    if (version === null) return; // not a manifest: the reader reports it when it parses it
    const metaKey = `${store}/${version}/.zmetadata`;
    if (!this.docs.get(metaKey)?.text) await this.refresh(metaKey, true);
    const old = previous === null ? null : versionOf(previous);
    if (old !== null && old !== version) this.docs.delete(`${store}/${old}/.zmetadata`);
  }
}

function versionOf(manifestText: string): string | null {
  try {
    const v = (JSON.parse(manifestText) as { version?: unknown }).version;
    return typeof v === 'string' && /^[\w.-]+$/.test(v) ? v : null;
  } catch {
    return null;
  }
}
