/**
 * Check `physical-range`: no stored value lies outside its variable's
 * physical bounds (./physical-ranges.ts). ±Inf is out of range; NaN is
 * missing and left to the finite-fraction check.
 */
import type { Finding, GateCheck, GateContext } from './check.js';
import { dataVariables } from './own-cells.js';
import { physicalBounds } from './physical-ranges.js';

export const physicalRange: GateCheck = {
  name: 'physical-range',
  run(ctx: GateContext): Finding[] {
    const out: Finding[] = [];
    for (const name of dataVariables(ctx.input)) {
      const v = ctx.input.variables[name]!;
      const bounds = physicalBounds(name, v.units);
      if (!bounds) continue;
      const [lo, hi] = bounds;
      let n = 0;
      let total = 0;
      let worst = NaN;
      for (const a of v.values) {
        for (let c = 0; c < a.length; c++) {
          const x = a[c]!;
          if (x !== x) continue;
          total++;
          if (x >= lo && x <= hi) continue;
          n++;
          if (!(Math.abs(x) <= Math.abs(worst))) worst = x;
        }
      }
      if (n > 0) {
        out.push({ check: 'physical-range', message: `${name}: ${n} of ${total} values outside ${lo} … ${hi} ${v.units} (e.g. ${Number.isFinite(worst) ? Number(worst.toPrecision(6)) : worst})` });
      }
    }
    return out;
  },
};
