/**
 * Canonical fields on one grid → the stack of a product version: the time
 * axis is the sorted union of valid times; where several files give the same
 * variable at the same valid time, the newest run (reference time) wins, and
 * among equals the file given last. A variable missing at a time is NaN
 * there. Static variables (elevation) keep their newest field. Amounts and
 * means carry their interval (./mapping/intervals.ts); a store of past
 * periods starts where the first of them does.
 */
import type { GridDef } from '../geo/grid.js';
import type { ProductVersionInput, VariableInput } from '../tiles/types.js';
import type { CanonicalField } from './mapping/map-fields.js';
import { seriesIntervals } from './mapping/intervals.js';
import type { Product, VariableStack } from './products/product.js';
import { productMeta, variableMeta } from './products/store-meta.js';

/**
 * `opts.continues`: the fields follow an earlier part of the same series
 * (a streamed ingest's later group of files), so the first interval's start
 * is that part's last step, not a step of this one.
 */
export function assembleStack(product: Product, grid: GridDef, fields: readonly CanonicalField[], opts: { continues?: boolean } = {}): VariableStack {
  const cells = grid.nx * grid.ny;
  const statics = new Map<string, Float32Array>();
  const bestStatic = new Map<string, CanonicalField>();
  // variable → valid time (ms) → winning field
  const timed = new Map<string, Map<number, CanonicalField>>();
  const allTimes = new Set<number>();

  fields.forEach((f) => {
    if (f.aggregation === 'static' || product.static) {
      const cur = bestStatic.get(f.variable);
      if (!cur || newer(f, cur)) bestStatic.set(f.variable, f);
      return;
    }
    const t = f.validTime.getTime();
    allTimes.add(t);
    let byTime = timed.get(f.variable);
    if (!byTime) timed.set(f.variable, (byTime = new Map()));
    const cur = byTime.get(t);
    if (!cur || newer(f, cur)) byTime.set(t, f);
  });
  for (const [v, f] of bestStatic) statics.set(v, f.values);

  // In a store of past periods a statistic's first interval starts on the axis (missing there), so the day
  // it covers is inside the store. A forecast starts at its first step: the hour before it belongs to the
  // version it replaces (ingest/carry-over.ts), and a first hour of nulls would pass for data now.
  const sem = seriesIntervals(fields);
  if (!opts.continues && sem.firstStartMs !== null && product.layout === 'periods' && sem.firstStartMs < Math.min(...allTimes)) allTimes.add(sem.firstStartMs);
  const timesMs = [...allTimes].sort((a, b) => a - b);
  const series = new Map<string, Float32Array[]>();
  for (const [v, byTime] of timed) {
    series.set(v, timesMs.map((t) => byTime.get(t)?.values ?? new Float32Array(cells).fill(NaN)));
  }
  return {
    grid, times: timesMs.map((t) => new Date(t)), series, statics,
    intervals: sem.intervals, ...(sem.stateInterval ? { stateInterval: sem.stateInterval } : {}),
  };
}

/** Later reference time wins; on a tie, the later field in input order (fields are in file order). */
function newer(candidate: CanonicalField, current: CanonicalField): boolean {
  return candidate.referenceTime.getTime() >= current.referenceTime.getTime();
}

/** The tile writer's input: the product's stored variables only (auxiliary inputs are left out). */
export function toWriterInput(product: Product, stack: VariableStack, source: ProductVersionInput['source']): ProductVersionInput {
  const variables: Record<string, VariableInput> = {};
  for (const [name, spec] of Object.entries(product.variables)) {
    const meta = variableMeta(spec, product.searchRadiusKm);
    const stat = stack.statics.get(name);
    const ser = stack.series.get(name);
    // What `complete` derived from states given as means (a dew point from daily means) is such a mean too.
    const interval = stack.intervals?.get(name) ?? (spec.aggregation === 'instant' ? stack.stateInterval : undefined);
    if (stat) variables[name] = { ...meta, values: [stat], static: true };
    else if (ser) variables[name] = { ...meta, values: ser, ...(interval ? { interval } : {}) };
  }
  return { product: product.name, grid: stack.grid, times: product.static ? [] : stack.times, variables, source, meta: productMeta(product) };
}
