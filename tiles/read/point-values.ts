/**
 * The values of one point lookup, once its blocks are found
 * (./neighbour-blocks.ts): pass 0 touches one element of each block kind at
 * each neighbour, so that a random point's cache and TLB misses are in flight
 * together rather than met one kind at a time; pass 1 gathers the raw values of every variable
 * at the four neighbours and both steps (the loads overlap), pass 2 computes
 * each by its rule (bilinear or nearest; masked ones are left to
 * ./masked-values.ts). Each pass is its own small method: inside one large
 * function V8 stops inlining the per-value helpers, which cost 0.5 µs of a
 * 2 µs lookup. The scratch arrays are reused from lookup to lookup.
 */
import type { ChunkData } from './chunk-cache.js';
import type { PointMemo } from './point-memo.js';
import { gatherFloat32, gatherInt16, rawToValueFloat32, rawToValueInt16 } from './interpolate.js';
import { nearestValue } from './point-rules.js';
import { MASK_ANY, type VarState } from './var-state.js';
import type { VariableList } from './variable-list.js';
import type { VersionState } from './version-state.js';

export class PointValues {
  /** Gathered raw values, 8 per variable (four neighbours × two steps), then the list's helpers. */
  raw = new Float64Array(8 * 32);
  // Computed values in list order, before the list builds its result object.
  private out: (number | null)[] = [];
  /** Sum of the elements pass 0 touched, kept so that its loads are not optimised away (never read). */
  touched = 0;

  /**
   * Pass 1: raw values of the list's variables and helpers from `bl` (./neighbour-blocks.ts); an interval variable
   * reads step kI alone. Steps k0, k1, kI count from the first step of the time-varying blocks, which hold `steps`.
   */
  gatherAll(bl: (ChunkData | undefined)[], vs: VersionState, list: VariableList, pt: PointMemo, k0: number, k1: number, w: number, kI: number, steps: number): void {
    const vars = list.vars;
    const nAll = vars.length + list.aux.length;
    if (this.raw.length < 8 * nAll) this.raw = new Float64Array(8 * nAll);
    this.touchAll(bl, vs, list.kinds, pt, k0, steps);
    for (let n = 0; n < vars.length; n++) {
      const v = vars[n]!;
      if (v !== null && v.interval) this.gather(bl, vs, v, pt, kI, kI, 0, 8 * n, steps);
      else this.gather(bl, vs, v, pt, k0, k1, w, 8 * n, steps);
    }
    for (let a = 0; a < list.aux.length; a++) this.gather(bl, vs, list.aux[a]!, pt, 0, 0, 0, 8 * (vars.length + a), steps);
  }

  /**
   * Pass 0: one element of each block kind at each neighbour (member 0, step k0), in a loop short enough that the
   * CPU has every load in flight at once: on a random point these are the lookup's cache and TLB misses, which the
   * gather pass would otherwise meet one kind at a time, each stalling it. The loads are written out here: through
   * a helper per element type (not inlined) the answers at random points cost 0.5 µs more.
   */
  private touchAll(bl: (ChunkData | undefined)[], vs: VersionState, kinds: number, pt: PointMemo, k0: number, nT: number): void {
    const off = pt.cellOff;
    let sum = 0;
    for (let kind = 0; kinds >>> kind !== 0; kind++) {
      if ((kinds & (1 << kind)) === 0) continue;
      const k = vs.kinds[kind]!;
      const nm = vs.members[kind]!.length;
      let stride: number;
      let i: number;
      if (vs.planar) {
        stride = 1;
        i = k.isStatic ? 0 : k0 * vs.cy * vs.cx;
      } else {
        stride = k.isStatic ? nm : nT * nm;
        i = k.isStatic ? 0 : k0 * nm;
      }
      const b = 4 * kind;
      const i0 = off[0]! * stride + i;
      const i1 = off[1]! * stride + i;
      const i2 = off[2]! * stride + i;
      const i3 = off[3]! * stride + i;
      if (k.int16) sum += (bl[b] as Int16Array)[i0]! + (bl[b + 1] as Int16Array)[i1]! + (bl[b + 2] as Int16Array)[i2]! + (bl[b + 3] as Int16Array)[i3]!;
      else sum += (bl[b] as Float32Array)[i0]! + (bl[b + 1] as Float32Array)[i1]! + (bl[b + 2] as Float32Array)[i2]! + (bl[b + 3] as Float32Array)[i3]!;
    }
    this.touched = sum;
  }

  /** Pass 2, every variable bilinear over any neighbour (no mask, no nearest): the common case. */
  plainValues(list: VariableList, w: number, nw: Float64Array): Record<string, number | null> {
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

  /**
   * Pass 2, the unmasked variables by their rule (bilinear or nearest), in list order; masked ones are left null for
   * applyMasks (./masked-values.ts), which writes them here before the list builds its object: by index, not by name
   * into the object (a megamorphic keyed store each).
   */
  ruledValues(list: VariableList, w: number, pt: PointMemo): (number | null)[] {
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
    return out;
  }

  private valuesOut(n: number): (number | null)[] {
    const out = this.out;
    while (out.length < n) out.push(null);
    return out;
  }

  /**
   * Raw values of variable `v` at the four neighbours (and both steps) into raw[at..at+8). Element (cell, step t,
   * member m) of a block: interleaved at (cell × nT + t) × members + m, planar at (m × nT + t) × plane + cell
   * (./block.ts); a static block has one step.
   */
  private gather(bl: (ChunkData | undefined)[], vs: VersionState, v: VarState | null, pt: PointMemo, k0: number, k1: number, w: number, at: number, nT: number): void {
    if (v === null) return;
    const off = pt.cellOff;
    const b = 4 * v.kind;
    const nm = vs.members[v.kind]!.length;
    const m = v.member;
    let stride: number;
    let i0: number;
    let i1: number;
    if (vs.planar) {
      const plane = vs.cy * vs.cx;
      const first = v.isStatic ? m * plane : m * nT * plane;
      stride = 1;
      i0 = v.isStatic ? first : first + k0 * plane;
      i1 = v.isStatic ? first : first + k1 * plane;
    } else {
      stride = v.isStatic ? nm : nT * nm;
      i0 = v.isStatic ? m : k0 * nm + m;
      i1 = v.isStatic ? m : k1 * nm + m;
    }
    const wt = v.isStatic ? 0 : w;
    if (v.int16) gatherInt16(bl[b] as Int16Array, bl[b + 1] as Int16Array, bl[b + 2] as Int16Array, bl[b + 3] as Int16Array, off, stride, i0, i1, wt, this.raw, at);
    else gatherFloat32(bl[b] as Float32Array, bl[b + 1] as Float32Array, bl[b + 2] as Float32Array, bl[b + 3] as Float32Array, off, stride, i0, i1, wt, this.raw, at);
  }
}

/** Interval variables whose fixed interval ends before the asked time is reached (`gapMs` before their step): null, not another interval's value. */
export function outsideIntervals(list: VariableList, gapMs: number, values: (number | null)[]): void {
  for (let n = 0; n < list.vars.length; n++) {
    const v = list.vars[n]!;
    if (v !== null && v.interval && gapMs >= v.intervalMs) values[n] = null;
  }
}
