/**
 * Check `collapse`: a new version of a forecast store does not lose a field
 * the live version it replaces has. Compared per variable, on the cells that
 * should have data (./own-cells.ts), over up to {@link SAMPLED_STEPS} steps
 * spread evenly over each version:
 *
 * - the finite fraction (./finite-fraction.ts) may not drop by more than {@link MAX_FINITE_DROP}
 *   (e.g. 98% live, 60% new: a field half gone);
 * - the spread (standard deviation over the cells, mean over the steps)
 *   may not drop by more than {@link MAX_SPREAD_DROP} of the live one (a
 *   temperature field gone flat: a constant or a fill value). Only for
 *   continuous, unbounded variables (linear, instantaneous, no `min`):
 *   precipitation, radiation and concentrations can be zero everywhere in
 *   a real forecast.
 *
 * Nothing is compared for a first version, or when the live one is on
 * another grid (another domain spreads differently).
 */
import { sameGrid } from '../../geo/grid.js';
import { openLiveVersion, readFieldSteps } from '../../tiles/read/field-reader.js';
import type { Finding, GateCheck, GateContext } from './check.js';
import { dataVariables, ownCells } from './own-cells.js';
import { finiteFraction } from './finite-fraction.js';

export const SAMPLED_STEPS = 8;
/** Largest drop of the finite fraction, in fraction points. */
export const MAX_FINITE_DROP = 0.25;
/** Largest relative drop of the spread. */
export const MAX_SPREAD_DROP = 0.9;

/** Up to `n` indices spread evenly over 0 … len − 1. */
function sampleSteps(len: number, n: number): number[] {
  if (len <= n) return Array.from({ length: len }, (_, k) => k);
  return Array.from({ length: n }, (_, k) => Math.round((k * (len - 1)) / (n - 1)));
}

/** Mean over the steps of the standard deviation over the finite own cells (steps with fewer than 2 left out); NaN when none. */
export function meanSpread(steps: readonly Float32Array[], own: Uint8Array | null): number {
  let sum = 0;
  let used = 0;
  for (const a of steps) {
    let n = 0;
    let mean = 0;
    let m2 = 0;
    for (let c = 0; c < a.length; c++) {
      const x = a[c]!;
      if ((own && !own[c]) || !Number.isFinite(x)) continue;
      // Welford's running variance (Knuth, TAOCP vol. 2, 4.2.2).
      n++;
      const d = x - mean;
      mean += d / n;
      m2 += d * (x - mean);
    }
    if (n < 2) continue;
    sum += Math.sqrt(m2 / n);
    used++;
  }
  return used === 0 ? NaN : sum / used;
}

export const collapse: GateCheck = {
  name: 'collapse',
  async run(ctx: GateContext): Promise<Finding[]> {
    const { product, input } = ctx;
    if (product.layout !== 'forecast' || input.times.length === 0) return [];
    const live = await openLiveVersion(ctx.root, product.name);
    if (!live || !sameGrid(live.manifest.grid, input.grid)) return [];
    const out: Finding[] = [];
    for (const name of dataVariables(input)) {
      const v = input.variables[name]!;
      const spec = product.variables[name];
      const old = live.state.vars.get(name);
      if (v.static || !spec || !old || old.isStatic || spec.gateExempt?.checks.includes('collapse')) continue;
      const own = ownCells(product, input, name);
      const liveSteps = await readFieldSteps(live, name, sampleSteps(live.state.nTimes, SAMPLED_STEPS));
      const newSteps = sampleSteps(v.values.length, SAMPLED_STEPS).map((k) => v.values[k]!);
      const was = finiteFraction(liveSteps, own);
      const now = finiteFraction(newSteps, own);
      const against = `than the live version ${live.manifest.version}`;
      if (was - now > MAX_FINITE_DROP) {
        out.push({ check: 'collapse', message: `${name}: ${(now * 100).toFixed(1)}% finite, ${((was - now) * 100).toFixed(1)} points fewer ${against} (${(was * 100).toFixed(1)}%; at most ${MAX_FINITE_DROP * 100} allowed)` });
        continue;
      }
      const continuous = spec.interpolation === 'linear' && spec.aggregation === 'instant' && spec.min === undefined;
      if (!continuous) continue;
      const s0 = meanSpread(liveSteps, own);
      const s1 = meanSpread(newSteps, own);
      if (s0 > 0 && !(s1 >= s0 * (1 - MAX_SPREAD_DROP))) {
        out.push({ check: 'collapse', message: `${name}: spread ${fmt(s1)} ${v.units} against ${fmt(s0)} ${v.units} in the live version ${live.manifest.version} (a drop over ${MAX_SPREAD_DROP * 100}%)` });
      }
    }
    return out;
  },
};

const fmt = (x: number) => (Number.isFinite(x) ? x.toPrecision(3) : String(x));
