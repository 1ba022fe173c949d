/**
 * `TileStore`: the fast point reader. `trySample` is synchronous and only
 * does arithmetic over cached chunks (no promise, no file, no JSON on the hot
 * path); `sample` loads what is missing, then answers through the same code.
 *
 * Version switches are atomic for readers: each lookup resolves the manifest
 * once and reads only that version's chunks. current.json is re-checked (one
 * stat) at most every `manifestCheckMs`.
 */
import { statSync } from 'node:fs';
import { join } from 'node:path';
import { productDir } from '../config/paths.js';
import { gridIndexOf } from '../geo/grid.js';
import type { Manifest } from './manifest.js';
import { TileError, type PointSample } from './types.js';
import { readManifestSync } from './manifest-file.js';
import { MANIFEST_FILE } from './layout.js';
import { versionState, idSpan, type VersionState, type VarState } from './version-state.js';
import { ChunkCache, DEFAULT_CACHE_BYTES, type ChunkData, type ChunkRequest } from './chunk-cache.js';
import {
  bilinearNeighbourhood, bracketTime, combineNeighbours, lerpTime, newNeighbourhood, newTimeBracket,
} from './interpolate.js';
import { INT16_FILL } from './packing.js';

export interface TileStoreOptions {
  /** Chunk cache budget in bytes (default 256 MiB). */
  cacheBytes?: number;
  /** Minimum interval between two checks of a product's current.json (default 1000 ms). */
  manifestCheckMs?: number;
}

interface ProductEntry {
  state: VersionState | null;
  checkedAt: number;
  /** ino:mtime:size of the current.json the state came from. */
  stamp: string;
}

const PRODUCT_NAME = /^[a-z0-9][a-z0-9_-]*$/;
const MAX_LOAD_ROUNDS = 4;

export class TileStore {
  private readonly cache: ChunkCache;
  private readonly checkMs: number;
  private readonly products = new Map<string, ProductEntry>();
  private nextId = 0;
  // Scratch for the hot path (lookups are synchronous, so one set suffices).
  private readonly nb = newNeighbourhood();
  private readonly tb = newTimeBracket();
  private readonly chunkIdx = new Int32Array(4);
  private readonly cellOff = new Int32Array(4);
  private readonly chunks: (ChunkData | undefined)[] = [undefined, undefined, undefined, undefined];

  constructor(readonly root: string, opts: TileStoreOptions = {}) {
    this.cache = new ChunkCache(opts.cacheBytes ?? DEFAULT_CACHE_BYTES);
    this.checkMs = opts.manifestCheckMs ?? 1000;
  }

  /** The live manifest of `product`, or null when none is published. */
  manifest(product: string): Manifest | null {
    return this.versionOf(product)?.manifest ?? null;
  }

  /** Decoded bytes and chunks held in the cache (for /healthz and the benchmark). */
  cacheStats(): { bytes: number; chunks: number } {
    return { bytes: this.cache.bytes, chunks: this.cache.size };
  }

  /**
   * Interpolated values at (lat, lon) and `timeMs` (null: static variables
   * only), or undefined when a chunk it needs is not cached yet.
   * `variables` defaults to all of the store's (static ones when timeMs is
   * null); a name the store does not carry comes back as null.
   */
  trySample(product: string, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): PointSample | undefined {
    return this.lookup(product, lat, lon, timeMs, variables, null, null);
  }

  /** As trySample, loading missing chunks first. */
  async sample(product: string, lat: number, lon: number, timeMs: number | null, variables?: readonly string[]): Promise<PointSample> {
    const loaded = new Map<number, ChunkData>();
    for (let round = 0; round < MAX_LOAD_ROUNDS; round++) {
      const missing: ChunkRequest[] = [];
      const r = this.lookup(product, lat, lon, timeMs, variables, missing, loaded);
      if (r) return r;
      try {
        const got = await Promise.all(missing.map((req) => this.cache.load(req)));
        missing.forEach((req, k) => loaded.set(req.id, got[k]!));
      } catch (err) {
        // A vanished chunk file means the version was replaced and removed: re-read the manifest and retry.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
        const e = this.products.get(product);
        if (e) e.checkedAt = -Infinity;
      }
    }
    throw new Error(`tiles/${product}: chunks kept disappearing while loading (the product is being republished and cleaned up faster than it can be read)`);
  }

  private versionOf(product: string): VersionState | null {
    const now = Date.now();
    let e = this.products.get(product);
    if (e && now - e.checkedAt < this.checkMs) return e.state;
    if (!PRODUCT_NAME.test(product)) return null;
    const dir = productDir(this.root, product);
    const st = statSync(join(dir, MANIFEST_FILE), { throwIfNoEntry: false });
    const stamp = st ? `${st.ino}:${st.mtimeMs}:${st.size}` : '';
    if (!e) {
      e = { state: null, checkedAt: now, stamp: '-' };
      this.products.set(product, e);
    }
    e.checkedAt = now;
    if (stamp === e.stamp) return e.state;
    let m = st ? readManifestSync(dir) : null;
    e.stamp = stamp;
    if (!m) {
      e.state = null;
    } else if (!e.state || e.state.version !== m.version) {
      let vs: VersionState;
      try {
        vs = versionState(dir, m, this.nextId);
      } catch (err) {
        // The version named a moment ago was replaced and removed meanwhile: take the newer manifest.
        if ((err as NodeJS.ErrnoException).code !== 'ENOENT' || !(m = readManifestSync(dir))) throw err;
        e.stamp = '-';
        vs = versionState(dir, m, this.nextId);
      }
      e.state = vs;
      this.nextId += idSpan(vs);
    }
    return e.state;
  }

  private lookup(
    product: string, lat: number, lon: number, timeMs: number | null, variables: readonly string[] | undefined,
    missing: ChunkRequest[] | null, loaded: Map<number, ChunkData> | null,
  ): PointSample | undefined {
    const vs = this.versionOf(product);
    if (!vs) throw new TileError('PRODUCT_NOT_PUBLISHED', `no data published yet for product '${product}'`, { product });
    const idx = gridIndexOf(vs.grid, lat, lon);
    if (!idx) throw new TileError('OUTSIDE_GRID', `point ${lat}, ${lon} is outside the ${product} grid`, { product });
    const tb = this.tb;
    if (timeMs !== null && !bracketTime(vs.timesMs, timeMs, tb)) {
      const t = vs.manifest.times;
      const range = t.length ? `${t[0]} to ${t[t.length - 1]}` : 'no times';
      throw new TileError('TIME_OUT_OF_RANGE', `time ${isoOrRaw(timeMs)} is outside the ${product} data (${range})`, { product, from: t[0], to: t[t.length - 1] });
    }
    const nb = bilinearNeighbourhood(idx.x, idx.y, vs.grid.nx, vs.grid.ny, this.nb);
    const { cy, cx, ncx } = vs;
    const plane = cy * cx;
    const ci = this.chunkIdx;
    const off = this.cellOff;
    for (let k = 0; k < 4; k++) {
      const i = k & 1 ? nb.i1 : nb.i0;
      const j = k & 2 ? nb.j1 : nb.j0;
      const ty = (j / cy) | 0;
      const tx = (i / cx) | 0;
      ci[k] = ty * ncx + tx;
      off[k] = (j - ty * cy) * cx + (i - tx * cx);
    }

    const names = variables ?? (timeMs === null ? vs.staticNames : vs.allNames);
    const values: Record<string, number | null> = {};
    let complete = true;
    for (let n = 0; n < names.length; n++) {
      const name = names[n]!;
      const v = vs.vars.get(name);
      if (!v) {
        values[name] = null;
        continue;
      }
      if (!v.isStatic && timeMs === null) throw new RangeError(`tiles/${product}: '${name}' varies in time, a time is required`);
      if (!this.resolveChunks(vs, v, missing, loaded)) {
        complete = false;
        if (!missing) return undefined;
        continue;
      }
      values[name] = v.isStatic ? this.interpolate(v, 0, 0, 0) : this.interpolate(v, tb.k0 * plane, tb.k1 * plane, tb.w);
    }
    if (!complete) return undefined;
    return { time: timeMs === null ? (vs.manifest.times[0] ?? vs.manifest.published) : new Date(timeMs).toISOString(), values };
  }

  /** Fill this.chunks for the four neighbours; false (and requests queued) when one is not cached. */
  private resolveChunks(vs: VersionState, v: VarState, missing: ChunkRequest[] | null, loaded: Map<number, ChunkData> | null): boolean {
    const base = vs.idBase + v.index * vs.nChunks;
    let ok = true;
    for (let k = 0; k < 4; k++) {
      const c = this.chunkIdx[k]!;
      let data: ChunkData | undefined;
      for (let p = 0; p < k; p++) if (this.chunkIdx[p] === c) data = this.chunks[p];
      if (!data) {
        const id = base + c;
        data = this.cache.get(id) ?? loaded?.get(id);
        if (!data) {
          ok = false;
          if (!missing) return false;
          if (!missing.some((r) => r.id === id)) missing.push(this.request(vs, v, c, id));
        }
      }
      this.chunks[k] = data;
    }
    return ok;
  }

  private request(vs: VersionState, v: VarState, c: number, id: number): ChunkRequest {
    const ty = Math.floor(c / vs.ncx);
    const tx = c - ty * vs.ncx;
    const key = v.isStatic ? `${ty}.${tx}` : `0.${ty}.${tx}`;
    return { id, file: join(v.dir, key), int16: v.int16, length: (v.isStatic ? 1 : vs.nTimes) * vs.cy * vs.cx, zstd: v.zstd, shuffle: v.shuffle };
  }

  /** Bilinear + linear-in-time value from this.chunks; o0/o1 are the plane offsets of the bracketing steps. */
  private interpolate(v: VarState, o0: number, o1: number, w: number): number | null {
    const ch = this.chunks;
    const off = this.cellOff;
    const a0 = cell(ch[0]!, o0 + off[0]!, o1 + off[0]!, w, v);
    const a1 = cell(ch[1]!, o0 + off[1]!, o1 + off[1]!, w, v);
    const a2 = cell(ch[2]!, o0 + off[2]!, o1 + off[2]!, w, v);
    const a3 = cell(ch[3]!, o0 + off[3]!, o1 + off[3]!, w, v);
    return combineNeighbours(a0, a1, a2, a3, this.nb.w);
  }
}

/** One neighbour's unpacked, time-interpolated value; NaN when missing. */
function cell(data: ChunkData, p0: number, p1: number, w: number, v: VarState): number {
  const r0 = data[p0]!;
  const r1 = w === 0 ? r0 : data[p1]!;
  if (v.int16) {
    if (r0 === INT16_FILL || r1 === INT16_FILL) return NaN;
    return lerpTime(r0 * v.scale + v.offset, r1 * v.scale + v.offset, w);
  }
  return lerpTime(r0, r1, w);
}

function isoOrRaw(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
