/**
 * `TileStore`: the fast point reader. `trySample` is synchronous and only
 * does arithmetic over cached chunks (./point-lookup.ts: how a lookup reads
 * each variable, and the hot path's shape); `sample` loads what is missing,
 * then answers through the same code.
 *
 * Version switches are atomic for readers: `pin(key)` resolves a store's live
 * version once (current.json is re-checked, one stat, at most every
 * `manifestCheckMs`: ./live-versions.ts), and the `…In` forms read only that
 * version's chunks, so a request that pins its versions first reads one
 * consistent set whatever is published meanwhile.
 */
import { availableParallelism } from 'node:os';
import type { Manifest } from '../manifest.js';
import { TileError } from '../errors.js';
import type { PointSample } from '../types.js';
import { LiveVersions, type StoreEntry } from './live-versions.js';
import type { VersionState } from './version-state.js';
import { prefaultInThread, threadDecoder } from './decode-pool.js';
import { WarmMemory } from './warm-memory.js';
import { fetchingDecoder, readBlock } from './block-read.js';
import { manifestKey } from '../manifest-file.js';
import { PERIOD_INDEX_FILE } from '../layout.js';
import { readPeriodIndexView } from '../period-index.js';
import { ChunkCache, type BlockRequest, type ChunkData } from './chunk-cache.js';
import { autoCacheBytes, HISTORY_CACHE_BYTES } from './cache-budget.js';
import { PointLookup } from './point-lookup.js';
import { tileStorage, type TilesAt } from '../storage/open.js';
import type { TileStorage } from '../storage/types.js';
import { VersionWarmer, type WarmPlan, type WarmReport } from './warm.js';

export interface TileStoreOptions {
  /** Chunk cache budget in bytes (default: sized from the stores published when the store opens, ./cache-budget.ts). */
  cacheBytes?: number;
  /** The period stores' (reanalysis years') own cache budget in bytes (default {@link HISTORY_CACHE_BYTES}). */
  historyCacheBytes?: number;
  /** Minimum interval between two checks of a store's current.json (default 1000 ms). */
  manifestCheckMs?: number;
  /** Threads decoding cold blocks off the event loop (./decode-pool.ts); 0 or absent: on the calling thread. */
  decodeThreads?: number;
  /**
   * Warm a new version before it answers (./warm.ts): the variables to warm per store. Absent: a new version
   * answers as soon as current.json names it, cold.
   */
  warm?: WarmPlan;
  /** Each finished warm (the server logs it). */
  onWarm?: (r: WarmReport) => void;
}

/** What a cache holds and has done. */
export interface CacheStats {
  bytes: number;
  chunks: number;
  maxBytes: number;
  hits: number;
  misses: number;
}

function statsOf(c: ChunkCache): CacheStats {
  return { bytes: c.bytes, chunks: c.size, maxBytes: c.maxBytes, hits: c.hits, misses: c.misses };
}

/** A store's version as pinned for one request (opaque to callers: pass it back to the `…In` methods). */
export type PinnedVersion = VersionState;

const MAX_LOAD_ROUNDS = 4;

export class TileStore {
  private readonly cache: ChunkCache;
  /** Period stores' blocks, in a budget of their own (./cache-budget.ts): `time=` at random hours never evicts the forecast's. */
  private readonly history: ChunkCache;
  private readonly versions: LiveVersions;
  private readonly warmer: VersionWarmer | undefined;
  /** The warms' slabs and spares (./warm-memory.ts). */
  private readonly warmMemory: WarmMemory | undefined;
  /** The start's warm (warmLive) while it runs. */
  private starting: Promise<WarmReport[]> | null = null;
  /** The synchronous lookup (./point-lookup.ts) and its scratch. */
  private readonly points: PointLookup;

  /** Where the stores are read from. */
  readonly storage: TileStorage;
  /** The data directory given (a storage given: its location). */
  readonly root: string;

  /** `root`: a data directory (its tiles are in `<root>/tiles`) or a tile storage (tiles/storage/). */
  constructor(root: TilesAt, opts: TileStoreOptions = {}) {
    const threads = opts.decodeThreads ?? 0;
    this.storage = tileStorage(root);
    this.root = typeof root === 'string' ? root : this.storage.location;
    // Warms decode in threads whatever decodeThreads says: the event loop keeps answering from the live version
    // (the warm pool's threads, at a lower priority: ./decode-pool.ts).
    const lanes = availableParallelism();
    const warmDecode = opts.warm ? this.loader(threadDecoder(lanes, true)) : undefined;
    const decode = this.loader(threads > 0 ? threadDecoder(threads) : readBlock);
    this.cache = new ChunkCache(opts.cacheBytes ?? autoCacheBytes(this.storage), (id) => this.dropSlot(id), decode);
    this.history = new ChunkCache(opts.historyCacheBytes ?? HISTORY_CACHE_BYTES, (id) => this.dropSlot(id), decode);
    if (opts.warm && warmDecode) {
      const memory = new WarmMemory((buffer) => prefaultInThread(lanes, buffer));
      this.warmMemory = memory;
      const w = new VersionWarmer(this.cache, opts.warm, warmDecode, opts.onWarm, lanes, memory);
      this.warmer = w;
      this.versions = new LiveVersions(this.storage, opts.manifestCheckMs ?? 1000, (key, e, vs) => w.adopt(key, e, vs));
    } else {
      this.versions = new LiveVersions(this.storage, opts.manifestCheckMs ?? 1000);
    }
    this.points = new PointLookup(this.cache, this.history);
  }

  /**
   * Warm the live versions of `keys` now (a starting server: ./warm.ts); resolves with what was warmed. Until
   * then `warming()` is true. Without a warm plan, nothing is warmed.
   */
  warmLive(keys: readonly string[]): Promise<WarmReport[]> {
    const w = this.warmer;
    if (!w) return Promise.resolve([]);
    const entries: Array<[string, StoreEntry]> = [];
    for (const key of keys) {
      const e = this.entryOf(key);
      if (e) entries.push([key, e]);
    }
    const p = w.warmLive(entries);
    this.starting = p;
    void p.finally(() => {
      if (this.starting === p) this.starting = null;
    });
    return p;
  }

  /** Read the manifests of `keys` again now (a publish was announced: tiles/publish-channel.ts), staging what is new. */
  refresh(keys: readonly string[]): void {
    const now = () => {
      for (const key of keys) {
        this.versions.recheck(key);
        this.entryOf(key);
      }
    };
    // A bucket's view is re-read first (its poller would see the new manifest within a second anyway).
    if (this.storage.prime) void this.storage.prime(keys.map(manifestKey)).then(now, () => undefined);
    else now();
  }

  /**
   * Every store published, loaded into a bucket's synchronous view (a
   * starting server, the CLI): the products, their manifests and period
   * indexes, each period's manifest. A directory needs nothing.
   */
  async readyAll(): Promise<void> {
    const storage = this.storage;
    if (!storage.prime) return;
    const { dirs } = await storage.children('');
    await storage.prime(dirs.flatMap((d) => [manifestKey(d), `${d}/${PERIOD_INDEX_FILE}`]), ['']);
    const periods = dirs.flatMap((d) => Object.keys(readPeriodIndexView(storage.sync, d)?.periods ?? {}).map((p) => `${d}/${p}`));
    if (periods.length) await storage.prime(periods.map(manifestKey));
    for (const d of [...dirs, ...periods]) this.versions.recheck(d);
  }

  /** Whether the start's warm (warmLive) is still running (/healthz: not ready). */
  warming(): boolean {
    return this.starting !== null;
  }

  /** How blocks are loaded: a directory's chunk files are read by path (in threads too); a bucket's are fetched here first. */
  private loader(decode: (req: BlockRequest) => Promise<ChunkData>): (req: BlockRequest) => Promise<ChunkData> {
    return this.storage.localPath ? decode : fetchingDecoder(decode, this.storage);
  }

  /** The live manifest of a store (`nwp`, `reanalysis/1950`), or null when none is published. */
  manifest(key: string): Manifest | null {
    return this.entryOf(key)?.state?.manifest ?? null;
  }

  /** The store's live version, to read several times consistently; null when none is published. `nowMs`: the caller's clock reading, if it has one. */
  pin(key: string, nowMs?: number): PinnedVersion | null {
    return this.entryOf(key, nowMs)?.state ?? null;
  }

  /**
   * The live version's valid times, ms since the epoch, ascending (parsed once
   * per version; the array is shared with the reader: read it, do not change
   * it); null when nothing is published.
   */
  timesMs(key: string): Float64Array | null {
    return this.entryOf(key)?.state?.timesMs ?? null;
  }

  /** Bytes held resident for the next warms (./warm-memory.ts): after a start, the largest store's warm. */
  warmSpareBytes(): number {
    return this.warmMemory?.spareBytes ?? 0;
  }

  /** Decoded bytes and blocks held in the caches, budgets and counts (for /healthz and the benchmark): both caches, and the period stores' alone. */
  cacheStats(): CacheStats & { history: CacheStats } {
    const f = statsOf(this.cache);
    const h = statsOf(this.history);
    return { bytes: f.bytes + h.bytes, chunks: f.chunks + h.chunks, maxBytes: f.maxBytes + h.maxBytes, hits: f.hits + h.hits, misses: f.misses + h.misses, history: h };
  }

  /**
   * Values at (lat, lon) and `timeMs` (null: static variables only), each by
   * its rule, or undefined when a chunk it needs is not cached yet.
   * `variables` defaults to all of the store's (static ones when timeMs is
   * null); a name the store does not carry comes back as null. Passing the
   * same array on every call (a module constant) lets the store resolve the
   * names once per version.
   */
  trySample(key: string, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): PointSample | undefined {
    return this.points.run(this.pinOrThrow(key), lat, lon, timeMs, variables, null, null);
  }

  /** As trySample, loading missing chunks first. */
  async sample(key: string, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): Promise<PointSample> {
    if (this.storage.prime && !this.pin(key)) await this.ready([key]);
    for (let round = 0; ; round++) {
      try {
        return await this.sampleIn(this.pinOrThrow(key), lat, lon, timeMs, variables);
      } catch (err) {
        // A vanished chunk file means the version was replaced and removed: re-read the manifest and retry.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || round >= MAX_LOAD_ROUNDS) throw err;
        if (this.storage.prime) await this.storage.prime([manifestKey(key)]);
        this.versions.recheck(key);
      }
    }
  }

  /**
   * Load the manifests of `keys` now (a bucket: into its synchronous view,
   * which then keeps them fresh in the background; a directory: nothing to
   * load), so that the synchronous methods answer for them at once.
   */
  async ready(keys: readonly string[]): Promise<void> {
    if (!this.storage.prime) return;
    await this.storage.prime(keys.map(manifestKey));
    for (const k of keys) this.versions.recheck(k);
  }

  /** trySample on a pinned version. */
  trySampleIn(vs: PinnedVersion, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): PointSample | undefined {
    return this.points.run(vs, lat, lon, timeMs, variables, null, null);
  }

  /** sample on a pinned version (a chunk file removed under it rejects with ENOENT). */
  async sampleIn(vs: PinnedVersion, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): Promise<PointSample> {
    const loaded = new Map<number, ChunkData>();
    for (;;) {
      const missing: BlockRequest[] = [];
      const r = this.points.run(vs, lat, lon, timeMs, variables, missing, loaded);
      if (r) return r;
      const cache = vs.period ? this.history : this.cache;
      const got = await Promise.all(missing.map((req) => cache.load(req)));
      missing.forEach((req, k) => loaded.set(req.id, got[k]!));
    }
  }

  private pinOrThrow(key: string): PinnedVersion {
    const vs = this.pin(key);
    if (!vs) throw new TileError('PRODUCT_NOT_PUBLISHED', `no data published yet for product '${key}'`, { product: key });
    return vs;
  }

  /** The store's entry with its live version; undefined for an invalid key. */
  private entryOf(key: string, now = Date.now()): StoreEntry | undefined {
    this.points.setNow(now);
    return this.versions.entryOf(key, now);
  }

  /** The cache dropped block `id`: clear its slot in the live version holding it (replaced versions go with their state). */
  private dropSlot(id: number): void {
    const vs = this.versions.holding(id);
    if (vs) vs.slots[id - vs.idBase] = undefined;
  }
}
