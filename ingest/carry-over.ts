/**
 * A forecast run covers only its own steps, so in the first hours after a
 * new run is published the time three hours back (weather.php's 3-hour
 * trend) would lie before its first step and the trend would vanish. Before
 * a new version of a forecast product is written, the steps of the live
 * version that precede the new first step by at most the product's
 * `carryHours` are prepended to it (all variables, as they were published),
 * when both versions share one grid. So the trend exists whenever data three
 * hours back was ever published.
 */
import { sameGrid } from '../geo/grid.js';
import { openLiveVersion, readFieldSteps } from '../tiles/read/field-reader.js';
import type { ProductVersionInput } from '../tiles/types.js';
import type { Product } from './products/product.js';

/** Prepend the previous version's earlier steps to `input` (in place); a note for the report, or null when nothing was carried. */
export async function carryOverEarlierSteps(root: string, product: Product, input: ProductVersionInput): Promise<string | null> {
  const hours = product.carryHours ?? 0;
  if (product.layout !== 'forecast' || hours <= 0 || input.times.length === 0) return null;
  const prev = await openLiveVersion(root, product.name);
  if (!prev) return null;
  if (!sameGrid(prev.manifest.grid, input.grid)) return `earlier steps not carried over from ${prev.manifest.version}: it is on another grid`;
  const first = input.times[0]!.getTime();
  const from = first - hours * 3_600_000;
  const steps: number[] = [];
  prev.state.timesMs.forEach((t, k) => {
    if (t >= from && t < first) steps.push(k);
  });
  if (steps.length === 0) return null;
  const cells = input.grid.nx * input.grid.ny;
  for (const [name, v] of Object.entries(input.variables)) {
    if (v.static) continue;
    const old = prev.state.vars.get(name);
    const carried = old && !old.isStatic ? await readFieldSteps(prev, name, steps) : steps.map(() => new Float32Array(cells).fill(NaN));
    v.values = [...carried, ...v.values];
  }
  const times = steps.map((k) => new Date(prev.state.timesMs[k]!));
  input.times = [...times, ...input.times];
  return `kept ${steps.length} earlier step(s) (${times[0]!.toISOString()} to ${times[times.length - 1]!.toISOString()}) from ${prev.manifest.version} for the ${hours}-hour trend`;
}
