/**
 * What the point reader remembers between lookups of one product: the last
 * point (grid index, 2×2 neighbourhood, bilinear weights, chunk and in-chunk
 * offsets of the four neighbours) and the last two time brackets. A request
 * asks the same point at the same instant several times (Free fields, trend,
 * Developer inputs), and "now" and "three hours back" alternate, so these
 * small memos turn most lookups' geometry into three comparisons.
 * Each memo belongs to one version: a new version never matches.
 */
import { gridIndexOf, type GridDef } from '../../geo/grid.js';
import { bilinearNeighbourhood, bracketTime, newNeighbourhood, newTimeBracket } from './interpolate.js';
import { cellDistancesKm } from './point-rules.js';

/** The version a point is located in (./version-state.ts): its grid, chunk edges, and whether it has masked variables. */
interface PointVersion {
  readonly grid: GridDef;
  readonly cy: number;
  readonly cx: number;
  /** Chunks along x. */
  readonly ncx: number;
  readonly maskVar: object | null;
}

/** The version a time is bracketed in: its valid times, ms. */
interface TimeVersion {
  readonly timesMs: Float64Array;
}

export class PointMemo {
  private vs: PointVersion | null = null;
  /** The point, degrees. */
  lat = NaN;
  lon = NaN;
  private readonly nb = newNeighbourhood();
  /** Bilinear weights of neighbours (i0,j0), (i1,j0), (i0,j1), (i1,j1). */
  readonly weights = this.nb.w;
  /** Per neighbour: index of its chunk in the version's chunk grid. */
  readonly chunkIdx = new Int32Array(4);
  /** Per neighbour: offset of its cell within a chunk's [y][x] plane. */
  readonly cellOff = new Int32Array(4);
  /** Per neighbour: flat index j × nx + i of its cell in the grid. */
  readonly cellFlat = new Int32Array(4);
  /** The neighbours by decreasing bilinear weight (nearest first; ties by index): for 'nearest' variables and masks. */
  readonly order = new Int8Array(4);
  /**
   * Per neighbour: great-circle distance (km) from the point to its cell's centre, for the masks' search radius;
   * computed on demand (distancesKm): only neighbours of a mask's kind need one.
   */
  private readonly cellKm = new Float64Array(4);
  /** Bit k: cellKm[k] is computed for this point. */
  private kmReady = 0;
  /** All four neighbours in one chunk (most points: the chunk edge is 32 cells). */
  oneChunk = false;

  /**
   * The distances (km) from the point to its neighbours' cell centres, those of the neighbours in `need` (bit k)
   * computed (the others are not to be read). A random point in a masked store needs those of one kind only, often
   * none of the sea's inland; the four haversines per located point were 0.3 to 0.7 µs of a lookup (sample dataset).
   */
  distancesKm(grid: GridDef, need: number): Float64Array {
    const missing = need & ~this.kmReady;
    if (missing !== 0) {
      cellDistancesKm(grid, this.lat, this.lon, this.cellFlat, missing, this.cellKm);
      this.kmReady |= missing;
    }
    return this.cellKm;
  }

  /** True when the memo is already at (lat, lon) of `vs`. */
  holds(vs: PointVersion, lat: number, lon: number): boolean {
    return this.vs === vs && this.lat === lat && this.lon === lon;
  }

  /** Move to (lat, lon) of `vs`; false (memo unchanged) when the point is outside the grid. */
  locate(vs: PointVersion, lat: number, lon: number): boolean {
    const idx = gridIndexOf(vs.grid, lat, lon);
    if (!idx) return false;
    const nb = bilinearNeighbourhood(idx.x, idx.y, vs.grid.nx, vs.grid.ny, this.nb);
    const { cy, cx, ncx } = vs;
    for (let k = 0; k < 4; k++) {
      const i = k & 1 ? nb.i1 : nb.i0;
      const j = k & 2 ? nb.j1 : nb.j0;
      const ty = (j / cy) | 0;
      const tx = (i / cx) | 0;
      this.chunkIdx[k] = ty * ncx + tx;
      this.cellOff[k] = (j - ty * cy) * cx + (i - tx * cx);
      this.cellFlat[k] = j * vs.grid.nx + i;
    }
    this.kmReady = 0;
    sortByWeight(this.weights, this.order);
    const c = this.chunkIdx;
    this.oneChunk = c[0] === c[1] && c[0] === c[2] && c[0] === c[3];
    this.vs = vs;
    this.lat = lat;
    this.lon = lon;
    return true;
  }
}

/**
 * `order` = 0..3 sorted by decreasing w (stable: equal weights keep index order). Each neighbour's place is the
 * number of those before it, from the six pairwise comparisons: the same order as an insertion sort, without its
 * data-dependent loop, whose branches a random point mispredicts (measured: see docs/benchmarks-journal.md).
 */
export function sortByWeight(w: Float64Array, order: Int8Array): void {
  const w0 = w[0]!;
  const w1 = w[1]!;
  const w2 = w[2]!;
  const w3 = w[3]!;
  // NaN weights (a NaN point) compare false both ways: the insertion sort keeps them in place.
  if (w0 !== w0 || w1 !== w1 || w2 !== w2 || w3 !== w3) return insertionOrder(w, order);
  // Neighbour j goes before i when its weight is larger, or equal and j < i.
  const b01 = w0 >= w1 ? 1 : 0;
  const b02 = w0 >= w2 ? 1 : 0;
  const b03 = w0 >= w3 ? 1 : 0;
  const b12 = w1 >= w2 ? 1 : 0;
  const b13 = w1 >= w3 ? 1 : 0;
  const b23 = w2 >= w3 ? 1 : 0;
  order[3 - b01 - b02 - b03] = 0;
  order[2 + b01 - b12 - b13] = 1;
  order[1 + b02 + b12 - b23] = 2;
  order[b03 + b13 + b23] = 3;
}

/** The insertion sort sortByWeight stands for (NaN weights). */
export function insertionOrder(w: Float64Array, order: Int8Array): void {
  for (let k = 0; k < 4; k++) order[k] = k;
  for (let a = 1; a < 4; a++) {
    const o = order[a]!;
    let b = a - 1;
    while (b >= 0 && w[order[b]!]! < w[o]!) {
      order[b + 1] = order[b]!;
      b--;
    }
    order[b + 1] = o;
  }
}

/** The last two time brackets: the bracketing steps and the weight of the later one. */
export class TimeMemo {
  /** Result of the last holds()/bracket(): value = (1 − w)·v[k0] + w·v[k1]. */
  k0 = 0;
  k1 = 0;
  w = 0;
  private readonly tb = newTimeBracket();
  private vsA: TimeVersion | null = null;
  private msA = NaN;
  private k0A = 0;
  private k1A = 0;
  private wA = 0;
  private vsB: TimeVersion | null = null;
  private msB = NaN;
  private k0B = 0;
  private k1B = 0;
  private wB = 0;

  /** True (and k0, k1, w set) when `timeMs` of `vs` is remembered. */
  holds(vs: TimeVersion, timeMs: number): boolean {
    if (this.msA === timeMs && this.vsA === vs) {
      this.k0 = this.k0A;
      this.k1 = this.k1A;
      this.w = this.wA;
      return true;
    }
    if (this.msB === timeMs && this.vsB === vs) {
      this.k0 = this.k0B;
      this.k1 = this.k1B;
      this.w = this.wB;
      return true;
    }
    return false;
  }

  /** Bracket `timeMs` in `vs` (k0, k1, w set, remembered); false when outside its time axis. */
  bracket(vs: TimeVersion, timeMs: number): boolean {
    const tb = this.tb;
    if (!bracketTime(vs.timesMs, timeMs, tb)) return false;
    this.k0 = tb.k0;
    this.k1 = tb.k1;
    this.w = tb.w;
    // The older entry gives way.
    this.vsB = this.vsA;
    this.msB = this.msA;
    this.k0B = this.k0A;
    this.k1B = this.k1A;
    this.wB = this.wA;
    this.vsA = vs;
    this.msA = timeMs;
    this.k0A = this.k0;
    this.k1A = this.k1;
    this.wA = this.w;
    return true;
  }
}
