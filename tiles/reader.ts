/**
 * `TileStore`: the fast point reader. `trySample` is synchronous and only
 * does arithmetic over cached chunks (no promise, no file, no JSON on the hot
 * path); `sample` loads what is missing, then answers through the same code.
 *
 * Version switches are atomic for readers: each lookup resolves the manifest
 * once and reads only that version's chunks. current.json is re-checked (one
 * stat) at most every `manifestCheckMs` (./live-versions.ts).
 *
 * Hot-path shape (measured with `npm run bench`): a request asks the same
 * point several times (now, three hours back, the Developer inputs), so the
 * grid index, neighbourhood and chunk offsets of the last point and the time
 * bracket of the last two times are kept per product (./point-memo.ts);
 * variable lists are resolved once per version (./variable-list.ts); the
 * cache holds blocks interleaving all variables of a spatial chunk
 * (./block.ts), read through a per-version array in front of the LRU; the
 * per-type kernels in ./interpolate.ts keep element loads monomorphic and
 * gather every variable's raw values before computing any.
 */
import { join } from 'node:path';
import type { Manifest } from './manifest.js';
import { TileError, type PointSample } from './types.js';
import { LiveVersions, type ProductEntry } from './live-versions.js';
import type { VersionState } from './version-state.js';
import { variableList } from './variable-list.js';
import { BLOCK_KINDS, kindIsInt16, kindIsStatic } from './block.js';
import { ChunkCache, DEFAULT_CACHE_BYTES, type BlockRequest, type ChunkData } from './chunk-cache.js';
import type { PointMemo } from './point-memo.js';
import { gatherFloat32, gatherInt16, rawToValueFloat32, rawToValueInt16 } from './interpolate.js';

export interface TileStoreOptions {
  /** Chunk cache budget in bytes (default 256 MiB). */
  cacheBytes?: number;
  /** Minimum interval between two checks of a product's current.json (default 1000 ms). */
  manifestCheckMs?: number;
}

const MAX_LOAD_ROUNDS = 4;

export class TileStore {
  private readonly cache: ChunkCache;
  private readonly versions: LiveVersions;
  /** Date.now() / 1000 of the current lookup, whole seconds: chunk recency is refreshed at most once a second. */
  private nowS = 0;
  // Scratch of the synchronous lookup: neighbour blocks per kind, gathered raw values (8 per variable).
  private readonly blocks: (ChunkData | undefined)[] = new Array<ChunkData | undefined>(4 * BLOCK_KINDS).fill(undefined);
  private raw = new Float64Array(8 * 32);
  // The last two ISO strings made for sample times (now and three hours back alternate).
  private isoMs0 = NaN;
  private iso0 = '';
  private isoMs1 = NaN;
  private iso1 = '';

  constructor(readonly root: string, opts: TileStoreOptions = {}) {
    this.cache = new ChunkCache(opts.cacheBytes ?? DEFAULT_CACHE_BYTES, (id) => this.dropSlot(id));
    this.versions = new LiveVersions(root, opts.manifestCheckMs ?? 1000);
  }

  /** The live manifest of `product`, or null when none is published. */
  manifest(product: string): Manifest | null {
    return this.entryOf(product)?.state?.manifest ?? null;
  }

  /**
   * The live version's valid times, ms since the epoch, ascending (parsed once
   * per version; the array is shared with the reader: read it, do not change
   * it); null when nothing is published. For callers that would otherwise
   * parse `manifest(product).times` on every request.
   */
  timesMs(product: string): Float64Array | null {
    return this.entryOf(product)?.state?.timesMs ?? null;
  }

  /** Decoded bytes and blocks held in the cache (for /healthz and the benchmark). */
  cacheStats(): { bytes: number; chunks: number } {
    return { bytes: this.cache.bytes, chunks: this.cache.size };
  }

  /**
   * Interpolated values at (lat, lon) and `timeMs` (null: static variables
   * only), or undefined when a chunk it needs is not cached yet.
   * `variables` defaults to all of the store's (static ones when timeMs is
   * null); a name the store does not carry comes back as null. Passing the
   * same array on every call (a module constant) lets the store resolve the
   * names once per version.
   */
  trySample(product: string, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): PointSample | undefined {
    return this.lookup(product, lat, lon, timeMs, variables, null, null);
  }

  /** As trySample, loading missing chunks first. */
  async sample(product: string, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): Promise<PointSample> {
    const loaded = new Map<number, ChunkData>();
    for (let round = 0; round < MAX_LOAD_ROUNDS; round++) {
      const missing: BlockRequest[] = [];
      const r = this.lookup(product, lat, lon, timeMs, variables, missing, loaded);
      if (r) return r;
      try {
        const got = await Promise.all(missing.map((req) => this.cache.load(req)));
        missing.forEach((req, k) => loaded.set(req.id, got[k]!));
      } catch (err) {
        // A vanished chunk file means the version was replaced and removed: re-read the manifest and retry.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        this.versions.recheck(product);
      }
    }
    throw new Error(`tiles/${product}: chunks kept disappearing while loading (the product is being republished and cleaned up faster than it can be read)`);
  }

  /** The product's entry with its live version; undefined for an invalid name. */
  private entryOf(product: string): ProductEntry | undefined {
    const now = Date.now();
    this.nowS = Math.floor(now / 1000);
    return this.versions.entryOf(product, now);
  }

  private lookup(
    product: string, lat: number, lon: number, timeMs: number | null, variables: readonly string[] | undefined,
    missing: BlockRequest[] | null, loaded: Map<number, ChunkData> | null,
  ): PointSample | undefined {
    const e = this.entryOf(product);
    const vs = e?.state;
    if (!e || !vs) throw new TileError('PRODUCT_NOT_PUBLISHED', `no data published yet for product '${product}'`, { product });
    const pt = e.point;
    if (!pt.holds(vs, lat, lon) && !pt.locate(vs, lat, lon)) {
      throw new TileError('OUTSIDE_GRID', `point ${lat}, ${lon} is outside the ${product} grid`, { product });
    }
    const list = variableList(vs, variables ?? (timeMs === null ? vs.staticNames : vs.allNames));
    let k0 = 0;
    let k1 = 0;
    let w = 0;
    if (timeMs !== null) {
      const tm = e.time;
      if (!tm.holds(vs, timeMs) && !tm.bracket(vs, timeMs)) {
        const t = vs.manifest.times;
        const range = t.length ? `${t[0]} to ${t[t.length - 1]}` : 'no times';
        throw new TileError('TIME_OUT_OF_RANGE', `time ${isoOrRaw(timeMs)} is outside the ${product} data (${range})`, { product, from: t[0], to: t[t.length - 1] });
      }
      k0 = tm.k0;
      k1 = tm.k1;
      w = tm.w;
    } else if (list.firstTimeVarying !== null) {
      throw new RangeError(`tiles/${product}: '${list.firstTimeVarying}' varies in time, a time is required`);
    }

    // The blocks of the four neighbours, for each kind the list reads.
    const bl = this.blocks;
    let complete = true;
    for (let kind = 0; kind < BLOCK_KINDS; kind++) {
      if ((list.kinds & (1 << kind)) === 0) continue;
      if (!this.neighbourBlocks(vs, kind, pt, missing, loaded)) {
        complete = false;
        if (!missing) return undefined;
      }
    }
    if (!complete) return undefined;

    // Pass 1: gather the raw values of every variable (the loads overlap); pass 2: compute.
    const names = list.names;
    const vars = list.vars;
    const off = pt.cellOff;
    if (this.raw.length < 8 * vars.length) this.raw = new Float64Array(8 * vars.length);
    const raw = this.raw;
    const nT = vs.nTimes;
    for (let n = 0; n < vars.length; n++) {
      const v = vars[n]!;
      if (v === null) continue;
      const b = 4 * v.kind;
      const nm = vs.members[v.kind]!.length;
      const m = v.member;
      if (v.int16) {
        if (v.isStatic) gatherInt16(bl[b] as Int16Array, bl[b + 1] as Int16Array, bl[b + 2] as Int16Array, bl[b + 3] as Int16Array, off, nm, m, m, 0, raw, 8 * n);
        else gatherInt16(bl[b] as Int16Array, bl[b + 1] as Int16Array, bl[b + 2] as Int16Array, bl[b + 3] as Int16Array, off, nT * nm, k0 * nm + m, k1 * nm + m, w, raw, 8 * n);
      } else if (v.isStatic) {
        gatherFloat32(bl[b] as Float32Array, bl[b + 1] as Float32Array, bl[b + 2] as Float32Array, bl[b + 3] as Float32Array, off, nm, m, m, 0, raw, 8 * n);
      } else {
        gatherFloat32(bl[b] as Float32Array, bl[b + 1] as Float32Array, bl[b + 2] as Float32Array, bl[b + 3] as Float32Array, off, nT * nm, k0 * nm + m, k1 * nm + m, w, raw, 8 * n);
      }
    }
    const values = { ...list.template };
    const nw = pt.weights;
    for (let n = 0; n < vars.length; n++) {
      const v = vars[n]!;
      if (v === null) continue;
      const wt = v.isStatic ? 0 : w;
      values[names[n]!] = v.int16 ? rawToValueInt16(raw, 8 * n, wt, v.scale, v.offset, nw) : rawToValueFloat32(raw, 8 * n, wt, nw);
    }
    return { time: timeMs === null ? (vs.manifest.times[0] ?? vs.manifest.published) : this.isoOf(timeMs), values };
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
    const isStatic = kindIsStatic(kind);
    const key = isStatic ? `${ty}.${tx}` : `0.${ty}.${tx}`;
    return {
      id,
      int16: kindIsInt16(kind),
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

function isoOrRaw(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
