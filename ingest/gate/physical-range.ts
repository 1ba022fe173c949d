/**
 * Check `physical-range`: no stored value lies outside its variable's
 * physical bounds (./physical-ranges.ts). ±Inf is out of range; NaN is
 * missing and left to the finite-fraction check.
 */
import type { Finding, GateCheck, GateContext, RangeTally } from './check.js';
import { dataVariables } from './own-cells.js';
import { physicalBounds } from './physical-ranges.js';

/** Count `steps` into `into` (a new tally when absent); consecutive parts of a series give the whole's tally. */
export function tallyRange(steps: readonly Float32Array[], [lo, hi]: readonly [number, number], into: RangeTally = { n: 0, total: 0, worst: NaN }): RangeTally {
  let { n, total, worst } = into;
  for (const a of steps) {
    for (let c = 0; c < a.length; c++) {
      const x = a[c]!;
      if (x !== x) continue;
      total++;
      if (x >= lo && x <= hi) continue;
      n++;
      if (!(Math.abs(x) <= Math.abs(worst))) worst = x;
    }
  }
  into.n = n;
  into.total = total;
  into.worst = worst;
  return into;
}

export const physicalRange: GateCheck = {
  name: 'physical-range',
  run(ctx: GateContext): Finding[] {
    const out: Finding[] = [];
    for (const name of dataVariables(ctx.input)) {
      const v = ctx.input.variables[name]!;
      const bounds = physicalBounds(name, v.units);
      if (!bounds) continue;
      const [lo, hi] = bounds;
      const { n, total, worst } = ctx.tallies?.range.get(name) ?? tallyRange(v.values, bounds);
      if (n > 0) {
        out.push({ check: 'physical-range', message: `${name}: ${n} of ${total} values outside ${lo} … ${hi} ${v.units} (e.g. ${Number.isFinite(worst) ? Number(worst.toPrecision(6)) : worst})` });
      }
    }
    return out;
  },
};
