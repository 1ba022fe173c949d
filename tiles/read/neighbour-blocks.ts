/**
 * Where a point lookup's blocks come from: for each block kind the list
 * reads, the blocks holding the four neighbours, taken from the version's
 * front table, else the chunk cache (then kept in the table), else the blocks
 * a pending load already brought; when none has one, a load request is
 * queued. Holds the scratch array the gather pass (./point-values.ts) reads.
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

  constructor(private readonly cache: ChunkCache) {}

  /** Room for every kind of `vs`. */
  reserve(nKinds: number): void {
    if (this.blocks.length < 4 * nKinds) this.blocks = new Array<ChunkData | undefined>(4 * nKinds).fill(undefined);
  }

  /** blocks[4·kind + k] = the block of neighbour k; false when one is not available (requests queued with `missing`). */
  fill(vs: VersionState, kind: number, pt: PointMemo, missing: BlockRequest[] | null, loaded: Map<number, ChunkData> | null): boolean {
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
    if (data === undefined && missing && !missing.some((r) => r.id === id)) missing.push(blockRequest(vs, kind, c, id));
    return data;
  }
}

/** The load request of block (kind, spatial chunk c) of a version: its members' chunk files. */
function blockRequest(vs: VersionState, kind: number, c: number, id: number): BlockRequest {
  const ty = Math.floor(c / vs.ncx);
  const tx = c - ty * vs.ncx;
  const { isStatic, int16 } = vs.kinds[kind]!;
  const key = isStatic ? `${ty}.${tx}` : `0.${ty}.${tx}`;
  return {
    id,
    int16,
    files: vs.members[kind]!.map((v) => ({ key: `${v.key}/${key}`, file: v.dir === null ? null : join(v.dir, key), zstd: v.zstd, shuffle: v.shuffle })),
    steps: isStatic ? 1 : vs.nTimes,
    plane: vs.cy * vs.cx,
  };
}
