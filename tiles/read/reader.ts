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
 * per-version array in front of the LRU; the per-type kernels in
 * ./interpolate.ts keep element loads monomorphic and gather every
 * variable's raw values before computing any.
 */
import { join } from 'node:path';
import type { Manifest } from '../manifest.js';
import { TileError } from '../errors.js';
import type { PointSample } from '../types.js';
import { LiveVersions, type StoreEntry } from './live-versions.js';
import { MASK_ANY, type VarState } from './var-state.js';
import type { VersionState } from './version-state.js';
import { variableList, type VariableList } from './variable-list.js';
import { threadDecoder } from './decode-pool.js';
import { ChunkCache, type BlockRequest, type ChunkData } from './chunk-cache.js';
import { autoCacheBytes } from './cache-budget.js';
import type { PointMemo } from './point-memo.js';
import { gatherFloat32, gatherInt16, rawToValueFloat32, rawToValueInt16 } from './interpolate.js';
import { nearestValue } from './point-rules.js';
import { applyMasks } from './masked-values.js';

export interface TileStoreOptions {
  /** Chunk cache budget in bytes (default: sized from the stores published when the store opens, ./cache-budget.ts). */
  cacheBytes?: number;
  /** Minimum interval between two checks of a store's current.json (default 1000 ms). */
  manifestCheckMs?: number;
  /** Threads decoding cold blocks off the event loop (./decode-pool.ts); 0 or absent: on the calling thread. */
  decodeThreads?: number;
}

/** A store's version as pinned for one request (opaque to callers: pass it back to the `…In` methods). */
export type PinnedVersion = VersionState;

const MAX_LOAD_ROUNDS = 4;

export class TileStore {
  private readonly cache: ChunkCache;
  private readonly versions: LiveVersions;
  /** Date.now() / 1000 of the current lookup, whole seconds: chunk recency is refreshed at most once a second. */
  private nowS = 0;
  // Scratch of the synchronous lookup: neighbour blocks per kind, gathered raw values (8 per variable).
  private blocks: (ChunkData | undefined)[] = [];
  private raw = new Float64Array(8 * 32);
  // Computed values in list order, before the list builds its result object.
  private out: (number | null)[] = [];
  // The last two ISO strings made for sample times (now and three hours back alternate).
  private isoMs0 = NaN;
  private iso0 = '';
  private isoMs1 = NaN;
  private iso1 = '';

  constructor(readonly root: string, opts: TileStoreOptions = {}) {
    const threads = opts.decodeThreads ?? 0;
    this.cache = new ChunkCache(opts.cacheBytes ?? autoCacheBytes(root), (id) => this.dropSlot(id), threads > 0 ? threadDecoder(threads) : undefined);
    this.versions = new LiveVersions(root, opts.manifestCheckMs ?? 1000);
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
    for (let round = 0; ; round++) {
      try {
        return await this.sampleIn(this.pinOrThrow(key), lat, lon, timeMs, variables);
      } catch (err) {
        // A vanished chunk file means the version was replaced and removed: re-read the manifest and retry.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || round >= MAX_LOAD_ROUNDS) throw err;
        this.versions.recheck(key);
      }
    }
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
    this.nowS = Math.floor(now / 1000);
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

    // The blocks of the four neighbours, for each kind the list reads.
    if (this.blocks.length < 4 * vs.kinds.length) this.blocks = new Array<ChunkData | undefined>(4 * vs.kinds.length).fill(undefined);
    let complete = true;
    for (let kind = 0; kind < vs.kinds.length; kind++) {
      if ((list.kinds & (1 << kind)) === 0) continue;
      if (!this.neighbourBlocks(vs, kind, pt, missing, loaded)) {
        complete = false;
        if (!missing) return undefined;
      }
    }
    if (!complete) return undefined;

    // Pass 1: gather the raw values of every variable (the loads overlap); pass 2: compute.
    // Each pass is its own small method: inside one large function V8 stops
    // inlining the per-value helpers, which cost 0.5 µs of a 2 µs lookup.
    // An amount or mean over an interval comes from the one step whose interval (t_k−1, t_k] holds the time.
    const kI = w > 0 ? k1 : k0;
    this.gatherAll(vs, list, pt, k0, k1, w, kI);
    const values = list.masks === 0 && !list.anyNearest && !list.anyInterval ? this.plainValues(list, w, pt.weights) : this.ruledValues(list, w, pt);
    const time = timeMs === null ? (vs.manifest.times[0] ?? vs.manifest.published) : this.isoOf(timeMs);
    const distanceKm = list.masks === 0 ? undefined : applyMasks(vs, list, pt, w, this.raw, values);
    if (list.anyInterval && timeMs !== null) outsideIntervals(list, vs.timesMs[kI]! - timeMs, values);
    return distanceKm === undefined ? { time, values } : { time, values, distanceKm };
  }

  private gatherAll(vs: VersionState, list: VariableList, pt: PointMemo, k0: number, k1: number, w: number, kI: number): void {
    const vars = list.vars;
    const nAll = vars.length + list.aux.length;
    if (this.raw.length < 8 * nAll) this.raw = new Float64Array(8 * nAll);
    for (let n = 0; n < vars.length; n++) {
      const v = vars[n]!;
      if (v !== null && v.interval) this.gather(vs, v, pt, kI, kI, 0, 8 * n);
      else this.gather(vs, v, pt, k0, k1, w, 8 * n);
    }
    for (let a = 0; a < list.aux.length; a++) this.gather(vs, list.aux[a]!, pt, 0, 0, 0, 8 * (vars.length + a));
  }

  private valuesOut(n: number): (number | null)[] {
    const out = this.out;
    while (out.length < n) out.push(null);
    return out;
  }

  /** Every variable bilinear over any neighbour (no mask, no nearest): the common case. */
  private plainValues(list: VariableList, w: number, nw: Float64Array): Record<string, number | null> {
    const raw = this.raw;
    const vars = list.vars;
    const out = this.valuesOut(vars.length);
    for (let n = 0; n < vars.length; n++) {
      const v = vars[n]!;
      if (v === null) out[n] = null;
      else out[n] = v.int16 ? rawToValueInt16(raw, 8 * n, v.isStatic ? 0 : w, v.scale, v.offset, nw) : rawToValueFloat32(raw, 8 * n, v.isStatic ? 0 : w, nw);
    }
    return list.build(out);
  }

  /** The unmasked variables by their rule (bilinear or nearest); masked ones are left for applyMasks (./masked-values.ts). */
  private ruledValues(list: VariableList, w: number, pt: PointMemo): Record<string, number | null> {
    const raw = this.raw;
    const vars = list.vars;
    const out = this.valuesOut(vars.length);
    for (let n = 0; n < vars.length; n++) {
      const v = vars[n]!;
      const wt = v === null || v.isStatic || v.interval ? 0 : w;
      if (v === null || v.mask !== MASK_ANY) out[n] = null;
      else if (v.nearest) out[n] = nearestValue(raw, 8 * n, wt, v, pt.order);
      else out[n] = v.int16 ? rawToValueInt16(raw, 8 * n, wt, v.scale, v.offset, pt.weights) : rawToValueFloat32(raw, 8 * n, wt, pt.weights);
    }
    return list.build(out);
  }

  /** Raw values of variable `v` at the four neighbours (and both steps) into raw[at..at+8). */
  private gather(vs: VersionState, v: VarState | null, pt: PointMemo, k0: number, k1: number, w: number, at: number): void {
    if (v === null) return;
    const bl = this.blocks;
    const off = pt.cellOff;
    const b = 4 * v.kind;
    const nm = vs.members[v.kind]!.length;
    const m = v.member;
    const nT = vs.nTimes;
    if (v.int16) {
      if (v.isStatic) gatherInt16(bl[b] as Int16Array, bl[b + 1] as Int16Array, bl[b + 2] as Int16Array, bl[b + 3] as Int16Array, off, nm, m, m, 0, this.raw, at);
      else gatherInt16(bl[b] as Int16Array, bl[b + 1] as Int16Array, bl[b + 2] as Int16Array, bl[b + 3] as Int16Array, off, nT * nm, k0 * nm + m, k1 * nm + m, w, this.raw, at);
    } else if (v.isStatic) {
      gatherFloat32(bl[b] as Float32Array, bl[b + 1] as Float32Array, bl[b + 2] as Float32Array, bl[b + 3] as Float32Array, off, nm, m, m, 0, this.raw, at);
    } else {
      gatherFloat32(bl[b] as Float32Array, bl[b + 1] as Float32Array, bl[b + 2] as Float32Array, bl[b + 3] as Float32Array, off, nT * nm, k0 * nm + m, k1 * nm + m, w, this.raw, at);
    }
  }

  /** this.blocks[4·kind + k] = the block of neighbour k; false when one is not available (requests queued with `missing`). */
  private neighbourBlocks(vs: VersionState, kind: number, pt: PointMemo, missing: BlockRequest[] | null, loaded: Map<number, ChunkData> | null): boolean {
    const ci = pt.chunkIdx;
    const bl = this.blocks;
    const b = 4 * kind;
    const d0 = this.block(vs, kind, ci[0]!, missing, loaded);
    if (pt.oneChunk) {
      bl[b] = bl[b + 1] = bl[b + 2] = bl[b + 3] = d0;
      return d0 !== undefined;
    }
    const d1 = ci[1] === ci[0] ? d0 : this.block(vs, kind, ci[1]!, missing, loaded);
    const d2 = ci[2] === ci[0] ? d0 : this.block(vs, kind, ci[2]!, missing, loaded);
    const d3 = ci[3] === ci[2] ? d2 : ci[3] === ci[1] ? d1 : this.block(vs, kind, ci[3]!, missing, loaded);
    bl[b] = d0;
    bl[b + 1] = d1;
    bl[b + 2] = d2;
    bl[b + 3] = d3;
    return d0 !== undefined && d1 !== undefined && d2 !== undefined && d3 !== undefined;
  }

  /**
   * Block (kind, spatial chunk c): from the version's front table, else the
   * cache (then kept in the table), else this load's `loaded`; when none has
   * it, undefined and (with `missing`) a load request queued. While loading,
   * every block found is pinned in `loaded`, so the loads of one round cannot
   * evict what the round found in the cache.
   */
  private block(vs: VersionState, kind: number, c: number, missing: BlockRequest[] | null, loaded: Map<number, ChunkData> | null): ChunkData | undefined {
    const slot = kind * vs.nChunks + c;
    const id = vs.idBase + slot;
    let data = vs.slots[slot];
    if (data !== undefined) {
      // Keep the LRU's order meaningful without updating it on every read: once a second per block.
      if (vs.slotTouchedS[slot] !== this.nowS) {
        vs.slotTouchedS[slot] = this.nowS;
        this.cache.get(id);
      }
    } else {
      data = this.cache.get(id);
      if (data !== undefined) {
        vs.slots[slot] = data;
        vs.slotTouchedS[slot] = this.nowS;
      }
    }
    if (loaded === null) return data;
    if (data !== undefined) {
      loaded.set(id, data);
      return data;
    }
    data = loaded.get(id);
    if (data === undefined && missing && !missing.some((r) => r.id === id)) missing.push(this.request(vs, kind, c, id));
    return data;
  }

  /** The cache dropped block `id`: clear its slot in the live version holding it (replaced versions go with their state). */
  private dropSlot(id: number): void {
    const vs = this.versions.holding(id);
    if (vs) vs.slots[id - vs.idBase] = undefined;
  }

  private request(vs: VersionState, kind: number, c: number, id: number): BlockRequest {
    const ty = Math.floor(c / vs.ncx);
    const tx = c - ty * vs.ncx;
    const { isStatic, int16 } = vs.kinds[kind]!;
    const key = isStatic ? `${ty}.${tx}` : `0.${ty}.${tx}`;
    return {
      id,
      int16,
      files: vs.members[kind]!.map((v) => ({ file: join(v.dir, key), zstd: v.zstd, shuffle: v.shuffle })),
      steps: isStatic ? 1 : vs.nTimes,
      plane: vs.cy * vs.cx,
    };
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

/** Interval variables whose fixed interval ends before the asked time is reached (`gapMs` before their step): null, not another interval's value. */
function outsideIntervals(list: VariableList, gapMs: number, values: Record<string, number | null>): void {
  for (let n = 0; n < list.vars.length; n++) {
    const v = list.vars[n]!;
    if (v !== null && v.interval && gapMs >= v.intervalMs) values[list.names[n]!] = null;
  }
}

function isoOrRaw(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
