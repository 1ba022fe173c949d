/**
 * The sea- or land-masked variables of one lookup (manifest `mask`,
 * ../masks.ts): from the raw values the point reader gathered (./point-values.ts;
 * the list's helpers land_sea_mask and the nearest-cell indices after its own
 * variables), the neighbours of the right kind are chosen (./point-rules.ts
 * maskChoice) and each masked variable is read over them. Returns, per mask
 * kind used, how far the cell read is (null: none within the search radius).
 */
import type { PointMemo } from './point-memo.js';
import { isKind } from '../masks.js';
import { maskChoice, maskedValue, unpack, type MaskChoice, type MaskInputs } from './point-rules.js';
import type { PointSample } from '../types.js';
import type { VariableList } from './variable-list.js';
import { MASK_LAND, MASK_SEA } from './var-state.js';
import type { VersionState } from './version-state.js';

/** Scratch of one kind's choice (maskChoice reads them during the call only): no arrays or object per lookup. */
const OF_KIND = [false, false, false, false];
const NEAREST_CELL = [NaN, NaN, NaN, NaN];
const INPUTS: MaskInputs = {
  grid: { kind: 'regular_ll', nx: 1, ny: 1, x0: 0, y0: 0, dx: 1, dy: 1 }, lat: NaN, lon: NaN, weights: new Float64Array(4), order: new Int8Array(4),
  cellKm: new Float64Array(4), ofKind: OF_KIND, nearestCell: NEAREST_CELL, searchRadiusKm: NaN,
};
const NONE: MaskChoice = { mode: 'none' };

/** The masked variables of `list` written into `values` (in list order); returns the distance per kind used. */
export function applyMasks(
  vs: VersionState, list: VariableList, pt: PointMemo, w: number, raw: Float64Array, values: (number | null)[],
): NonNullable<PointSample['distanceKm']> {
  const out: NonNullable<PointSample['distanceKm']> = {};
  if ((list.masks & (1 << MASK_SEA)) !== 0) out.sea = applyKind(MASK_SEA, 'sea', vs, list, pt, w, raw, values);
  if ((list.masks & (1 << MASK_LAND)) !== 0) out.land = applyKind(MASK_LAND, 'land', vs, list, pt, w, raw, values);
  return out;
}

/** The variables masked to one kind; returns how far the cell read is (null: none within the search radius). */
function applyKind(
  code: number, kind: 'sea' | 'land', vs: VersionState, list: VariableList, pt: PointMemo, w: number, raw: Float64Array,
  values: (number | null)[],
): number | null {
  const auxAt = 8 * list.vars.length;
  let choice: MaskChoice = NONE;
  const maskVar = vs.maskVar;
  if (maskVar && list.aux[code]) {
    const nearestVar = list.aux[code]!;
    // maskChoice reads the distance of the neighbours of the kind with weight only.
    let need = 0;
    for (let k = 0; k < 4; k++) {
      const m = unpack(raw[auxAt + 2 * k]!, maskVar);
      const of = m === m && isKind(m, kind);
      OF_KIND[k] = of;
      if (of && pt.weights[k]! > 0) need |= 1 << k;
      NEAREST_CELL[k] = unpack(raw[auxAt + 8 * code + 2 * k]!, nearestVar);
    }
    const m = INPUTS;
    m.grid = vs.grid;
    m.lat = pt.lat;
    m.lon = pt.lon;
    m.weights = pt.weights;
    m.order = pt.order;
    m.cellKm = pt.distancesKm(vs.grid, need);
    m.searchRadiusKm = vs.searchRadiusKm[code]!;
    choice = maskChoice(m);
  }
  for (let n = 0; n < list.vars.length; n++) {
    const v = list.vars[n]!;
    if (v === null || v.mask !== code) continue;
    values[n] = maskedValue(raw, 8 * n, v.isStatic || v.interval ? 0 : w, v, v.nearest, choice, pt.order);
  }
  return choice.mode === 'none' ? null : Math.round(choice.distanceKm * 1000) / 1000;
}
