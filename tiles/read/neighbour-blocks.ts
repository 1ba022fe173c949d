/**
 * Where a point lookup's blocks come from: for each block kind the list
 * reads, the blocks holding the four neighbours, taken from the version's
 * front table, else the chunk cache (then kept in the table), else the blocks
 * a pending load already brought; when none has one, a load request is
 * queued. Holds the scratch array the gather pass (./point-values.ts) reads.
 *
 * A store chunked along time (long axes, tiles/write/chunking.ts) has one
 * block per kind, *time window* and tile (./version-state.ts `nWin`): window
 * 2w is time chunk w; a time whose two bracketing steps lie in chunks w and
 * w + 1 reads window 2w + 1, a two-step bridge block, so the gather pass
 * always finds both steps in one block.
 */
import { join } from 'node:path';
import type { ChunkCache, BlockRequest, ChunkData } from './chunk-cache.js';
import type { PointMemo } from './point-memo.js';
import type { VersionState } from './version-state.js';

export class NeighbourBlocks {
  /** blocks[4·kind + k]: the block of neighbour k for that kind (the lookup's scratch, reused). */
  blocks: (ChunkData | undefined)[] = [];
  /** Date.now() / 1000 of the current lookup, whole seconds: chunk recency is refreshed at most once a second. */
  nowS = 0;

  /** `history`: the period stores' cache (VersionState `period`), `cache` the others'. */
  constructor(
    private readonly cache: ChunkCache,
    private readonly history: ChunkCache,
  ) {}

  /** Room for every kind of `vs`. */
  reserve(nKinds: number): void {
    if (this.blocks.length < 4 * nKinds) this.blocks = new Array<ChunkData | undefined>(4 * nKinds).fill(undefined);
  }

  /** blocks[4·kind + k] = the block of neighbour k in time window `win`; false when one is not available (requests queued with `missing`). */
  fill(vs: VersionState, kind: number, win: number, pt: PointMemo, missing: BlockRequest[] | null, loaded: Map<number, ChunkData> | null): boolean {
    const ci = pt.chunkIdx;
    const bl = this.blocks;
    const b = 4 * kind;
    const wk = kind * vs.nWin + win;
    const d0 = this.block(vs, wk, ci[0]!, missing, loaded);
    if (pt.oneChunk) {
      bl[b] = bl[b + 1] = bl[b + 2] = bl[b + 3] = d0;
      return d0 !== undefined;
    }
    const d1 = ci[1] === ci[0] ? d0 : this.block(vs, wk, ci[1]!, missing, loaded);
    const d2 = ci[2] === ci[0] ? d0 : this.block(vs, wk, ci[2]!, missing, loaded);
    const d3 = ci[3] === ci[2] ? d2 : ci[3] === ci[1] ? d1 : this.block(vs, wk, ci[3]!, missing, loaded);
    bl[b] = d0;
    bl[b + 1] = d1;
    bl[b + 2] = d2;
    bl[b + 3] = d3;
    return d0 !== undefined && d1 !== undefined && d2 !== undefined && d3 !== undefined;
  }

  /**
   * Block (kind and window `wk` = kind × nWin + window, spatial chunk c): from the version's front table, else the
   * cache (then kept in the table), else this load's `loaded`; when none has
   * it, undefined and (with `missing`) a load request queued. While loading,
   * every block found is pinned in `loaded`, so the loads of one round cannot
   * evict what the round found in the cache.
   */
  private block(vs: VersionState, wk: number, c: number, missing: BlockRequest[] | null, loaded: Map<number, ChunkData> | null): ChunkData | undefined {
    const slot = wk * vs.nChunks + c;
    const id = vs.idBase + slot;
    const cache = vs.period ? this.history : this.cache;
    let data = vs.slots[slot];
    if (data !== undefined) {
      // Keep the LRU's order meaningful without updating it on every read: once a second per block.
      if (vs.slotTouchedS[slot] !== this.nowS) {
        vs.slotTouchedS[slot] = this.nowS;
        cache.get(id);
      }
    } else {
      data = cache.get(id);
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
    if (data === undefined && missing && !missing.some((r) => r.id === id)) missing.push(blockRequest(vs, wk, c, id));
    return data;
  }
}

/** The load request of block (kind and window `wk`, spatial chunk c) of a version: its members' chunk files. */
export function blockRequest(vs: VersionState, wk: number, c: number, id: number): BlockRequest {
  const kind = Math.floor(wk / vs.nWin);
  const win = wk - kind * vs.nWin;
  const ty = Math.floor(c / vs.ncx);
  const tx = c - ty * vs.ncx;
  const { isStatic, int16 } = vs.kinds[kind]!;
  const members = vs.members[kind]!;
  const plane = vs.cy * vs.cx;
  const files = (key: string) => members.map((v) => ({ key: `${v.key}/${key}`, file: v.dir === null ? null : join(v.dir, key), zstd: v.zstd, shuffle: v.shuffle }));
  const planar = vs.planar;
  if (isStatic) return { id, int16, files: files(`${ty}.${tx}`), steps: 1, plane, planar };
  const tc = win >> 1;
  if ((win & 1) === 0) return { id, int16, files: files(`${tc}.${ty}.${tx}`), steps: vs.ct, plane, planar };
  return { id, int16, files: files(`${tc}.${ty}.${tx}`), next: files(`${tc + 1}.${ty}.${tx}`), steps: 2, chunkSteps: vs.ct, plane, planar };
}
