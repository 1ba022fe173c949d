/**
 * The point reader's per-variable rules beyond plain bilinear + linear in
 * time (./interpolate.ts): `nearest` for categories, and sea/land masks
 * (../masks.ts). Pure functions over the gathered raw values: for variable n,
 * raw[8n + 2k] and raw[8n + 2k + 1] hold neighbour k at the two bracketing
 * steps (the second only when the time weight w ≠ 0).
 */
import { cellLatLon, type GridDef } from '../../geo/grid.js';
import { lerpTime } from './interpolate.js';
import { INT16_FILL } from '../codecs/packing.js';

/** How a variable's raw values unpack: value = raw × scale + offset (int16, INT16_FILL missing) or as is (float32, NaN missing). */
export interface Unpack {
  int16: boolean;
  scale: number;
  offset: number;
}

/** A gathered raw value unpacked (NaN when missing). */
export function unpack(r: number, u: Unpack): number {
  if (!u.int16) return r;
  return r === INT16_FILL ? NaN : r * u.scale + u.offset;
}

/** Neighbour k, linear in time (NaN when a step it needs is missing). */
export function cellLinear(raw: Float64Array, at: number, k: number, w: number, u: Unpack): number {
  const a = unpack(raw[at + 2 * k]!, u);
  return w === 0 ? a : lerpTime(a, unpack(raw[at + 2 * k + 1]!, u), w);
}

/**
 * Neighbour k at the nearest step: the earlier one when w < 0.5, else the
 * later one. At exactly half-way the later step wins: a categorical field
 * (WMO 4677 present weather) describes the step ending at its time.
 */
export function cellNearestStep(raw: Float64Array, at: number, k: number, w: number, u: Unpack): number {
  return unpack(raw[at + 2 * k + (w >= 0.5 ? 1 : 0)]!, u);
}

/**
 * A `nearest` variable: the value of the nearest neighbour (by bilinear
 * weight, i.e. grid distance) that has one, at the nearest step; null when
 * none has. Only neighbours with `allowed[k]` count (masks; all by default).
 */
export function nearestValue(raw: Float64Array, at: number, w: number, u: Unpack, order: Int8Array, allowed?: readonly boolean[]): number | null {
  for (let r = 0; r < 4; r++) {
    const k = order[r]!;
    if (allowed && !allowed[k]) continue;
    const v = cellNearestStep(raw, at, k, w, u);
    if (v === v) return v;
  }
  return null;
}

/** Bilinear over the neighbours with weight `nw[k]` > 0 (0 = excluded), linear in time, weights renormalised over present values. */
export function bilinearValue(raw: Float64Array, at: number, w: number, u: Unpack, nw: Float64Array): number | null {
  let sum = 0;
  let wsum = 0;
  for (let k = 0; k < 4; k++) {
    const wk = nw[k]!;
    if (!(wk > 0)) continue;
    const v = cellLinear(raw, at, k, w, u);
    if (v !== v) continue;
    sum += wk * v;
    wsum += wk;
  }
  return wsum > 0 ? sum / wsum : null;
}

/** How the masked variables of one kind are read at a point. */
export type MaskChoice =
  /** Some neighbours within the radius are of the kind: bilinear over them (weights), distance to the nearest of them (0 when it is the point's own cell). */
  | { mode: 'bilinear'; weights: Float64Array; allowed: boolean[]; distanceKm: number }
  /** None is: the copy held by neighbour k (ingest/masks.ts) of the cell `distanceKm` away. */
  | { mode: 'copy'; k: number; distanceKm: number }
  /** Nothing of the kind within the search radius. */
  | { mode: 'none' };

export interface MaskInputs {
  grid: GridDef;
  lat: number;
  lon: number;
  /** Bilinear weights and the neighbours by decreasing weight. */
  weights: Float64Array;
  order: Int8Array;
  /**
   * Per neighbour: the distance (km) from the point to its cell's centre (read only for neighbours of the kind with
   * weight: the others need not be computed), and whether it is of the kind.
   */
  cellKm: Float64Array;
  ofKind: readonly boolean[];
  /** Per neighbour: the flat index of the nearest cell of the kind (NaN: none within the radius). */
  nearestCell: readonly number[];
  /** The kind's search radius (manifest): a cell of the kind farther than this from the point does not count. */
  searchRadiusKm: number;
}

/** Great-circle distance (km) from the point to the centre of flat cell `flat`. */
export function distanceToCellKm(grid: GridDef, lat: number, lon: number, flat: number): number {
  const j = Math.floor(flat / grid.nx);
  const c = cellLatLon(grid, flat - j * grid.nx, j);
  return haversineKm(lat, lon, c.lat, c.lon);
}

/**
 * haversineKm from the point to the centres of the neighbours in `need` (bit k: flat cell flat[k]) into out[k], each
 * bit for bit as haversineKm computes it: the terms that depend on the point alone are computed once, and those of a
 * cell's latitude or longitude once per value (a 2 × 2 neighbourhood has two of each on a regular grid), so the
 * four distances cost 12 to 15 calls of Math's sin, cos, pow, sqrt and atan2 instead of 36.
 */
export function cellDistancesKm(grid: GridDef, lat: number, lon: number, flat: Int32Array, need: number, out: Float64Array): void {
  const cosLat1 = Math.cos((lat % 360) * Math.PI / 180);
  // The last two latitudes and longitudes met, with their terms (=== on the degrees: equal inputs, equal bits).
  let la0 = NaN;
  let la1 = NaN;
  let sinLa0 = 0;
  let sinLa1 = 0;
  let cosLa0 = 0;
  let cosLa1 = 0;
  let lo0 = NaN;
  let lo1 = NaN;
  let sinLo0 = 0;
  let sinLo1 = 0;
  for (let k = 0; k < 4; k++) {
    if ((need & (1 << k)) === 0) continue;
    const f = flat[k]!;
    const j = Math.floor(f / grid.nx);
    const c = cellLatLon(grid, f - j * grid.nx, j);
    let sinLa: number;
    let cosLa: number;
    if (c.lat === la0) {
      sinLa = sinLa0;
      cosLa = cosLa0;
    } else if (c.lat === la1) {
      sinLa = sinLa1;
      cosLa = cosLa1;
    } else {
      const dLat = ((c.lat - lat) % 360) * Math.PI / 180;
      sinLa = Math.pow(Math.sin(dLat / 2), 2);
      cosLa = Math.cos((c.lat % 360) * Math.PI / 180);
      la1 = la0;
      sinLa1 = sinLa0;
      cosLa1 = cosLa0;
      la0 = c.lat;
      sinLa0 = sinLa;
      cosLa0 = cosLa;
    }
    let sinLo: number;
    if (c.lon === lo0) sinLo = sinLo0;
    else if (c.lon === lo1) sinLo = sinLo1;
    else {
      const dLon = ((c.lon - lon) % 360) * Math.PI / 180;
      sinLo = Math.pow(Math.sin(dLon / 2), 2);
      lo1 = lo0;
      sinLo1 = sinLo0;
      lo0 = c.lon;
      sinLo0 = sinLo;
    }
    const a = sinLa + sinLo * cosLat1 * cosLa;
    out[k] = 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)) * EARTH_RADIUS_KM;
  }
}

/** Mean Earth radius, km: @turf/helpers' earthRadius (6371008.8 m) / 1000, as its 'kilometers' factor. */
const EARTH_RADIUS_KM = 6371008.8 / 1e3;

/**
 * @turf/distance's haversine written out, operation for operation (the same bits, so the search radius and
 * distance_km agree with ingest/masks.ts, which calls turf): without its two coordinate arrays, option object and
 * GeoJSON checks, which were most of a masked lookup's locate (4 neighbours per point moved).
 */
export function haversineKm(lat1Deg: number, lon1Deg: number, lat2Deg: number, lon2Deg: number): number {
  const dLat = ((lat2Deg - lat1Deg) % 360) * Math.PI / 180;
  const dLon = ((lon2Deg - lon1Deg) % 360) * Math.PI / 180;
  const lat1 = (lat1Deg % 360) * Math.PI / 180;
  const lat2 = (lat2Deg % 360) * Math.PI / 180;
  const a = Math.pow(Math.sin(dLat / 2), 2) + Math.pow(Math.sin(dLon / 2), 2) * Math.cos(lat1) * Math.cos(lat2);
  return 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a)) * EARTH_RADIUS_KM;
}

/** A 'bilinear' choice's weights and neighbours: scratch, valid until the next maskChoice (the reader uses a choice at once). */
const CHOICE_WEIGHTS = new Float64Array(4);
const CHOICE_ALLOWED = [false, false, false, false];

/**
 * How the masked variables of one kind are read at this point. A 'bilinear' choice's arrays are shared scratch,
 * overwritten by the next call: read them before choosing again.
 */
export function maskChoice(m: MaskInputs): MaskChoice {
  // Only neighbours that carry bilinear weight count (a point on a land cell's centre has its sea neighbours at
  // weight 0), and only within the radius: on a coarse grid a neighbour of the kind can lie far beyond it.
  const weights = CHOICE_WEIGHTS;
  const allowed = CHOICE_ALLOWED;
  let any = false;
  for (let k = 0; k < 4; k++) {
    if (m.ofKind[k] && m.weights[k]! > 0 && m.cellKm[k]! <= m.searchRadiusKm) {
      weights[k] = m.weights[k]!;
      allowed[k] = true;
      any = true;
    } else {
      weights[k] = 0;
      allowed[k] = false;
    }
  }
  if (any) {
    // 0 when the point's own cell (the neighbour of largest weight) is of the kind, else the
    // nearest in km of those read: by weight, a cell a degree-step away east can come before a nearer one north.
    let distanceKm = 0;
    if (!allowed[m.order[0]!]) {
      distanceKm = Infinity;
      for (let k = 0; k < 4; k++) if (allowed[k] && m.cellKm[k]! < distanceKm) distanceKm = m.cellKm[k]!;
    }
    return { mode: 'bilinear', weights, allowed, distanceKm };
  }
  for (let r = 0; r < 4; r++) {
    const k = m.order[r]!;
    const src = m.nearestCell[k]!;
    if (!(src >= 0)) continue;
    const distanceKm = distanceToCellKm(m.grid, m.lat, m.lon, src);
    return distanceKm <= m.searchRadiusKm ? { mode: 'copy', k, distanceKm } : { mode: 'none' };
  }
  return { mode: 'none' };
}

/** One masked variable under its kind's choice. */
export function maskedValue(raw: Float64Array, at: number, w: number, u: Unpack, nearest: boolean, c: MaskChoice, order: Int8Array): number | null {
  if (c.mode === 'none') return null;
  if (c.mode === 'copy') {
    const v = nearest ? cellNearestStep(raw, at, c.k, w, u) : cellLinear(raw, at, c.k, w, u);
    return v === v ? v : null;
  }
  return nearest ? nearestValue(raw, at, w, u, order, c.allowed) : bilinearValue(raw, at, w, u, c.weights);
}
