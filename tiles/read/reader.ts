/**
 * `TileStore`: the fast point reader. `trySample` is synchronous and only
 * does arithmetic over cached chunks (no promise, no file, no JSON on the hot
 * path); `sample` loads what is missing, then answers through the same code.
 *
 * Version switches are atomic for readers: `pin(key)` resolves a store's live
 * version once (current.json is re-checked, one stat, at most every
 * `manifestCheckMs`: ./live-versions.ts), and the `…In` forms read only that
 * version's chunks, so a request that pins its versions first reads one
 * consistent set whatever is published meanwhile.
 *
 * Each variable is read by its manifest rule: bilinear in the grid's own
 * coordinates and linear in time, or nearest cell and step (categories); an
 * amount or mean over an interval from the step whose interval holds the
 * time, never blended (manifest `interval`); sea
 * or land masks pick neighbours of that kind (./masked-values.ts, ./point-rules.ts).
 * A list of static variables answers at any time (a DEM has no time axis).
 *
 * Hot-path shape (measured with `npm run bench`): a request asks the same
 * point several times (now, three hours back), so the grid index,
 * neighbourhood and chunk offsets of the last point and the time bracket of
 * the last two times are kept per version (./point-memo.ts); variable lists
 * are resolved once per version (./variable-list.ts); the cache holds blocks
 * interleaving the variables of a cache group (./block.ts), read through a
 * per-version array in front of the LRU (./neighbour-blocks.ts); the
 * per-type kernels in ./interpolate.ts keep element loads monomorphic, and
 * every variable's raw values are gathered before any is computed
 * (./point-values.ts).
 */
import { availableParallelism } from 'node:os';
import type { Manifest } from '../manifest.js';
import { TileError } from '../errors.js';
import type { PointSample } from '../types.js';
import { LiveVersions, type StoreEntry } from './live-versions.js';
import type { VersionState } from './version-state.js';
import { variableList } from './variable-list.js';
import { threadDecoder } from './decode-pool.js';
import { fetchingDecoder, readBlock } from './block-read.js';
import { manifestKey } from '../manifest-file.js';
import { PERIOD_INDEX_FILE } from '../layout.js';
import { readPeriodIndexView } from '../period-index.js';
import { ChunkCache, type BlockRequest, type ChunkData } from './chunk-cache.js';
import { autoCacheBytes } from './cache-budget.js';
import { NeighbourBlocks } from './neighbour-blocks.js';
import { PointValues, outsideIntervals } from './point-values.js';
import { applyMasks } from './masked-values.js';
import { tileStorage, type TilesAt } from '../storage/open.js';
import type { TileStorage } from '../storage/types.js';
import { VersionWarmer, type WarmPlan, type WarmReport } from './warm.js';

export interface TileStoreOptions {
  /** Chunk cache budget in bytes (default: sized from the stores published when the store opens, ./cache-budget.ts). */
  cacheBytes?: number;
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

/** A store's version as pinned for one request (opaque to callers: pass it back to the `…In` methods). */
export type PinnedVersion = VersionState;

const MAX_LOAD_ROUNDS = 4;

export class TileStore {
  private readonly cache: ChunkCache;
  private readonly versions: LiveVersions;
  private readonly warmer: VersionWarmer | undefined;
  /** The start's warm (warmLive) while it runs. */
  private starting: Promise<WarmReport[]> | null = null;
  // Scratch of the synchronous lookup: neighbour blocks per kind (with the clock of the lookup), gathered raw and computed values.
  private readonly nb: NeighbourBlocks;
  private readonly pv = new PointValues();
  // The last two ISO strings made for sample times (now and three hours back alternate).
  private isoMs0 = NaN;
  private iso0 = '';
  private isoMs1 = NaN;
  private iso1 = '';

  /** Where the stores are read from. */
  readonly storage: TileStorage;
  /** The data directory given (a storage given: its location). */
  readonly root: string;

  /** `root`: a data directory (its tiles are in `<root>/tiles`) or a tile storage (tiles/storage/). */
  constructor(root: TilesAt, opts: TileStoreOptions = {}) {
    const threads = opts.decodeThreads ?? 0;
    this.storage = tileStorage(root);
    this.root = typeof root === 'string' ? root : this.storage.location;
    // Warms decode in threads whatever decodeThreads says: the event loop keeps answering from the live version.
    // The larger pool first: the process-wide pool is replaced when a larger one is asked for (./decode-pool.ts).
    const lanes = Math.max(1, threads, availableParallelism());
    const warmDecode = opts.warm ? this.loader(threadDecoder(lanes)) : undefined;
    this.cache = new ChunkCache(opts.cacheBytes ?? autoCacheBytes(this.storage), (id) => this.dropSlot(id), this.loader(threads > 0 ? threadDecoder(threads) : readBlock));
    if (opts.warm && warmDecode) {
      const w = new VersionWarmer(this.cache, opts.warm, warmDecode, opts.onWarm, lanes);
      this.warmer = w;
      this.versions = new LiveVersions(this.storage, opts.manifestCheckMs ?? 1000, (key, e, vs) => w.adopt(key, e, vs));
    } else {
      this.versions = new LiveVersions(this.storage, opts.manifestCheckMs ?? 1000);
    }
    this.nb = new NeighbourBlocks(this.cache);
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

  /** Decoded bytes and blocks held in the cache (for /healthz and the benchmark). */
  cacheStats(): { bytes: number; chunks: number; maxBytes: number; hits: number; misses: number } {
    return { bytes: this.cache.bytes, chunks: this.cache.size, maxBytes: this.cache.maxBytes, hits: this.cache.hits, misses: this.cache.misses };
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
    return this.lookup(this.pinOrThrow(key), lat, lon, timeMs, variables, null, null);
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
    return this.lookup(vs, lat, lon, timeMs, variables, null, null);
  }

  /** sample on a pinned version (a chunk file removed under it rejects with ENOENT). */
  async sampleIn(vs: PinnedVersion, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): Promise<PointSample> {
    const loaded = new Map<number, ChunkData>();
    for (;;) {
      const missing: BlockRequest[] = [];
      const r = this.lookup(vs, lat, lon, timeMs, variables, missing, loaded);
      if (r) return r;
      const got = await Promise.all(missing.map((req) => this.cache.load(req)));
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
    this.nb.nowS = Math.floor(now / 1000);
    return this.versions.entryOf(key, now);
  }

  private lookup(
    vs: VersionState, lat: number, lon: number, timeMs: number | null, variables: readonly string[] | undefined,
    missing: BlockRequest[] | null, loaded: Map<number, ChunkData> | null,
  ): PointSample | undefined {
    const pt = vs.point;
    if (!pt.holds(vs, lat, lon) && !pt.locate(vs, lat, lon)) {
      throw new TileError('OUTSIDE_GRID', `point ${lat}, ${lon} is outside the ${vs.key} grid`, { product: vs.key });
    }
    const list = variableList(vs, variables ?? (timeMs === null ? vs.staticNames : vs.allNames));
    let k0 = 0;
    let k1 = 0;
    let w = 0;
    if (list.firstTimeVarying !== null) {
      if (timeMs === null) throw new RangeError(`tiles/${vs.key}: '${list.firstTimeVarying}' varies in time, a time is required`);
      const tm = vs.time;
      if (!tm.holds(vs, timeMs) && !tm.bracket(vs, timeMs)) {
        const t = vs.manifest.times;
        const range = t.length ? `${t[0]} to ${t[t.length - 1]}` : 'no times';
        throw new TileError('TIME_OUT_OF_RANGE', `time ${isoOrRaw(timeMs)} is outside the ${vs.key} data (${range})`, { product: vs.key, from: t[0], to: t[t.length - 1] });
      }
      k0 = tm.k0;
      k1 = tm.k1;
      w = tm.w;
    }

    // The time window holding both bracketing steps (./neighbour-blocks.ts): the whole axis, a time chunk, or the
    // bridge across two; k0, k1 then count from its first step.
    let win = 0;
    let base = 0;
    let steps = vs.nTimes;
    if (vs.nWin > 1) {
      const c0 = Math.floor(k0 / vs.ct);
      if (Math.floor(k1 / vs.ct) === c0) {
        win = 2 * c0;
        base = c0 * vs.ct;
        steps = vs.ct;
      } else {
        win = 2 * c0 + 1;
        base = k0;
        steps = 2;
      }
    }

    // The blocks of the four neighbours, for each kind the list reads.
    const nb = this.nb;
    nb.reserve(vs.kinds.length);
    let complete = true;
    for (let kind = 0; kind < vs.kinds.length; kind++) {
      if ((list.kinds & (1 << kind)) === 0) continue;
      if (!nb.fill(vs, kind, vs.kinds[kind]!.isStatic ? 0 : win, pt, missing, loaded)) {
        complete = false;
        if (!missing) return undefined;
      }
    }
    if (!complete) return undefined;

    // An amount or mean over an interval comes from the one step whose interval (t_k−1, t_k] holds the time.
    const kI = w > 0 ? k1 : k0;
    const pv = this.pv;
    pv.gatherAll(nb.blocks, vs, list, pt, k0 - base, k1 - base, w, kI - base, steps);
    const values = list.masks === 0 && !list.anyNearest && !list.anyInterval ? pv.plainValues(list, w, pt.weights) : pv.ruledValues(list, w, pt);
    const time = timeMs === null ? (vs.manifest.times[0] ?? vs.manifest.published) : this.isoOf(timeMs);
    const distanceKm = list.masks === 0 ? undefined : applyMasks(vs, list, pt, w, pv.raw, values);
    if (list.anyInterval && timeMs !== null) outsideIntervals(list, vs.timesMs[kI]! - timeMs, values);
    return distanceKm === undefined ? { time, values } : { time, values, distanceKm };
  }

  /** The cache dropped block `id`: clear its slot in the live version holding it (replaced versions go with their state). */
  private dropSlot(id: number): void {
    const vs = this.versions.holding(id);
    if (vs) vs.slots[id - vs.idBase] = undefined;
  }

  /** ISO 8601 of a sample time, remembering the last two. */
  private isoOf(ms: number): string {
    if (ms === this.isoMs0) return this.iso0;
    if (ms === this.isoMs1) return this.iso1;
    this.isoMs1 = this.isoMs0;
    this.iso1 = this.iso0;
    this.isoMs0 = ms;
    this.iso0 = new Date(ms).toISOString();
    return this.iso0;
  }
}

function isoOrRaw(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
