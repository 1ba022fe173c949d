/**
 * One synchronous point lookup in a pinned version: locate the point, bracket
 * the time, find the four neighbours' blocks of each kind the variable list
 * reads, then compute every variable by its manifest rule. It only does
 * arithmetic over cached blocks (no promise, no file, no JSON); a block not
 * cached makes it return undefined, with a load request queued when the
 * caller collects them (tiles/read/reader.ts loads and runs it again).
 *
 * Each variable is read by its manifest rule: bilinear in the grid's own
 * coordinates and linear in time, or nearest cell and step (categories); an
 * amount or mean over an interval from the step whose interval holds the
 * time, never blended (manifest `interval`); sea or land masks pick
 * neighbours of that kind (./masked-values.ts, ./point-rules.ts). A list of
 * static variables answers at any time (a DEM has no time axis).
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
import { TileError } from '../errors.js';
import type { PointSample } from '../types.js';
import type { BlockRequest, ChunkCache, ChunkData } from './chunk-cache.js';
import { applyMasks } from './masked-values.js';
import { NeighbourBlocks } from './neighbour-blocks.js';
import { PointValues, outsideIntervals } from './point-values.js';
import { SampleTimes } from './sample-time.js';
import { variableList } from './variable-list.js';
import type { VersionState } from './version-state.js';

export class PointLookup {
  // Scratch of the lookup: neighbour blocks per kind (with the clock of the lookup), gathered raw and computed values.
  private readonly nb: NeighbourBlocks;
  private readonly pv = new PointValues();
  /** The samples' time texts (now and three hours back alternate). */
  private readonly times = new SampleTimes();

  /** `history`: the period stores' cache, `cache` the others'. */
  constructor(cache: ChunkCache, history: ChunkCache) {
    this.nb = new NeighbourBlocks(cache, history);
  }

  /** The caller's clock, ms: block recency in the cache is refreshed by it at most once a second. */
  setNow(nowMs: number): void {
    this.nb.nowS = Math.floor(nowMs / 1000);
  }

  /**
   * Values at (lat, lon) and `timeMs` (null: static variables only) in `vs`; undefined when a block is not
   * cached. With `missing`, the blocks to load are queued there, and `loaded` holds those loaded so far.
   */
  run(
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
    const time = timeMs === null ? (vs.manifest.times[0] ?? vs.manifest.published) : this.times.iso(timeMs);
    if (list.masks === 0 && !list.anyNearest && !list.anyInterval) return { time, values: pv.plainValues(list, w, pt.weights) };
    // The other rules amend the values in list order; the list's object is built once they are final.
    const out = pv.ruledValues(list, w, pt);
    const distanceKm = list.masks === 0 ? undefined : applyMasks(vs, list, pt, w, pv.raw, out);
    if (list.anyInterval && timeMs !== null) outsideIntervals(list, vs.timesMs[kI]! - timeMs, out);
    const values = list.build(out);
    return distanceKm === undefined ? { time, values } : { time, values, distanceKm };
  }
}

function isoOrRaw(ms: number): string {
  return Number.isFinite(ms) ? new Date(ms).toISOString() : String(ms);
}
