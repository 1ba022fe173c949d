/**
 * Turns an opened NetCDF dataset into SourceFields: one per variable × time
 * step × level (× reference time × forecast period when the file has those
 * dimensions). Raw data are read in blocks along the first dimension (at most
 * BLOCK_BYTES at a time) so that a large file never needs a second full copy
 * in the HDF5 wasm heap.
 */
import type { SourceField } from '../field.js';
import type { NcDataset } from './model.js';
import { attrText } from './model.js';
import { packingOf, toDecodable } from './cf-packing.js';
import { dailyStepType, intervalsOf, isDailyAxis, stepTypeOf, type TimeInterval } from './cf-step.js';
import { coordRole } from './cf-coords.js';
import { CoordCache } from './coord-values.js';
import { levelOf, planVariable, referencedNames, type DimPlan, type VariablePlan } from './field-plan.js';
import { gatherField } from './slab.js';
import { planWindow, type Box } from './window.js';

/** Raw values per read block: 16 M (at most 128 MB once widened to float64). */
const BLOCK_VALUES = 16 * 1024 * 1024;

export interface PlannedDataset {
  plans: VariablePlan[];
  /** Why candidate variables were not usable (for the error when no field remains). */
  skipped: string[];
}

export function planDataset(ds: NcDataset, cache: CoordCache): PlannedDataset {
  const referenced = referencedNames(ds);
  const plans: VariablePlan[] = [];
  const skipped: string[] = [];
  for (const v of ds.variables) {
    const r = planVariable(ds, v, referenced, cache);
    if ('plan' in r) plans.push(r.plan);
    else if ('skip' in r) skipped.push(r.skip);
  }
  return { plans, skipped };
}

/**
 * Valid time for variables that have none (static fields such as
 * orography): see docs/readers.md. Null when the file holds no time at all:
 * the field is then marked `timeless` (SourceField).
 */
function fallbackTimeMs(ds: NcDataset, cache: CoordCache): number | null {
  const ref = ds.variables.find((v) => coordRole(v) === 'reftime');
  if (ref) return cache.time(ref).ms[0] ?? null;
  const t = ds.variables.find((v) => coordRole(v) === 'time' && v.shape.length <= 1);
  return t ? (cache.time(t).ms[0] ?? null) : null;
}

/** A variable with a dimension of length 0 (an unlimited time axis no record was written to). */
export class EmptyDimensionError extends Error {
  override name = 'EmptyDimensionError';
}

/** Epoch placeholder of a timeless field's valid time (SourceField.timeless). */
const NO_TIME_MS = 0;

export function fieldsOf(plan: VariablePlan, cache: CoordCache, staticTimeMs: () => number | null, blockValues = BLOCK_VALUES, box?: Box): SourceField[] {
  const { v, dims } = plan;
  // Only the window the ingest needs (./window.ts): a hyperslab where the backend reads one, else gathered from blocks.
  const win = box ? planWindow(plan, box) : null;
  const slab = win !== null && v.readWindow !== undefined;
  const grid = win ? win.grid : plan.grid;
  const geometry = win ? (slab ? win.geometry : win.wholeGeometry) : plan.geometry;
  const strideOf = new Map(dims.map((d, k) => [d, slab ? win!.strides[k]! : d.stride]));
  const packing = packingOf(v);
  const find = (role: string) => dims.find((d) => d.role === role);
  const timeDim = find('time');
  const refDim = find('reftime');
  const periodDim = find('period');
  const levelDim = find('level');
  const refs = refDim ? cache.time(refDim.coord!).ms : undefined;
  const periods = periodDim ? cache.periodMs(periodDim.coord!) : undefined;
  const levels = levelDim ? cache.values(levelDim.coord!) : undefined;
  const tc = timeDim ? cache.time(timeDim.coord!) : undefined;
  const declared = stepTypeOf(attrText(v, 'cell_methods'), [timeDim?.name, periodDim?.name]);
  const daily = tc ? isDailyAxis(tc.ms, attrText(timeDim!.coord!, 'units')) : false;
  const stepType = dailyStepType(declared, daily, tc?.boundsMs);
  const timeIntervals = tc ? intervalsOf(tc.ms, stepType, tc.boundsMs, daily) : undefined;
  const scalarIntervals = plan.scalarTime ? intervalsOf(plan.scalarTime.ms, stepType, plan.scalarTime.boundsMs) : undefined;
  const periodIntervals = new Map<number, TimeInterval[]>();

  // A dimension of length 0 (a time axis with no records) holds no field.
  const empty = dims.find((d) => d.len === 0);
  if (empty) throw new EmptyDimensionError(`${v.name}: its dimension '${empty.name}' has no records (length 0): the file holds no values for it`);

  const interval = (idx: Map<DimPlan, number>, refMs: number | undefined): TimeInterval | null => {
    if (timeDim) return timeIntervals![idx.get(timeDim)!]!;
    if (periodDim && refMs !== undefined) {
      const ri = refDim ? idx.get(refDim)! : -1;
      let list = periodIntervals.get(ri);
      if (!list) {
        list = intervalsOf(periods!.map((p) => refMs + p), stepType);
        periodIntervals.set(ri, list);
      }
      return list[idx.get(periodDim)!]!;
    }
    if (scalarIntervals) return scalarIntervals[0]!;
    if (refMs !== undefined) return { validMs: refMs };
    const ms = staticTimeMs();
    return ms === null ? null : { validMs: ms };
  };

  const iterDims = dims.filter((d) => d.role !== 'x' && d.role !== 'y');
  const lead = dims[0]!;
  const blockByFirst = lead.role !== 'x' && lead.role !== 'y' && lead.len > 1;
  const leadStride = strideOf.get(lead)!;
  const blockLen = blockByFirst ? Math.max(1, Math.floor(blockValues / leadStride)) : lead.len;

  const out: SourceField[] = [];
  const base = {
    name: v.name,
    units: attrText(v, 'units') ?? '',
    longName: attrText(v, 'long_name'),
    standardName: attrText(v, 'standard_name'),
    vectorAxes: cfVectorAxes(attrText(v, 'standard_name')),
  };
  for (let start = 0; start < (blockByFirst ? lead.len : 1); start += blockLen) {
    const count = blockByFirst ? Math.min(blockLen, lead.len - start) : undefined;
    const raw = toDecodable(slab ? v.readWindow!(win!.ranges.map((r, k) => (k === 0 && blockByFirst ? [start, start + count!] : r))) : blockByFirst ? v.read(start, count) : v.read(), packing);
    const offset0 = blockByFirst ? start * leadStride : 0;
    // Odometer over the non-spatial dimensions (the lead one restricted to this block).
    const idx = new Map<DimPlan, number>(iterDims.map((d) => [d, d === lead && blockByFirst ? start : 0]));
    for (;;) {
      let rawBase = -offset0;
      for (const [d, i] of idx) rawBase += i * strideOf.get(d)!;
      const refMs = refDim ? refs![idx.get(refDim)!] : plan.scalarRefMs;
      const found = interval(idx, refMs);
      const iv = found ?? { validMs: NO_TIME_MS };
      const level = levelDim ? levelOf(levelDim.coord!, levels![idx.get(levelDim)!]!) : plan.scalarLevel;
      out.push({
        ...base,
        ...(level ? { level } : {}),
        referenceTime: new Date(refMs ?? iv.validMs),
        validTime: new Date(iv.validMs),
        ...(found === null ? { timeless: true as const } : {}),
        stepType,
        ...(iv.startMs !== undefined ? { intervalStart: new Date(iv.startMs) } : {}),
        grid,
        values: gatherField(raw, rawBase, geometry, packing),
      });
      // Advance the odometer, last dimension fastest.
      let k = iterDims.length - 1;
      for (; k >= 0; k--) {
        const d = iterDims[k]!;
        const limit = d === lead && blockByFirst ? start + count! : d.len;
        const next = idx.get(d)! + 1;
        if (next < limit) {
          idx.set(d, next);
          break;
        }
        idx.set(d, d === lead && blockByFirst ? start : 0);
      }
      if (k < 0) break;
    }
  }
  return out;
}

/**
 * All fields of a dataset; `blockValues` bounds the raw values read at once (tests lower it); with `box`, fields on
 * regular latitude/longitude grids cover only that area plus the crop margin (./window.ts).
 */
export function readFields(ds: NcDataset, blockValues = BLOCK_VALUES, box?: Box): { fields: SourceField[]; skipped: string[] } {
  const cache = new CoordCache(ds);
  const { plans, skipped } = planDataset(ds, cache);
  let staticMs: number | null | undefined;
  const staticTimeMs = () => (staticMs === undefined ? (staticMs = fallbackTimeMs(ds, cache)) : staticMs);
  const fields = plans.flatMap((p) => fieldsOf(p, cache, staticTimeMs, blockValues, box));
  return { fields, skipped };
}

/** CF standard names of vector components: grid-relative (x_wind, grid_eastward_wind...) or earth-relative. */
function cfVectorAxes(standardName: string | undefined): 'grid' | 'earth' | undefined {
  if (standardName === undefined) return undefined;
  if (/^(x_wind|y_wind|grid_eastward_wind|grid_northward_wind)$/.test(standardName)) return 'grid';
  if (/^(eastward_wind|northward_wind)$/.test(standardName)) return 'earth';
  return undefined;
}
