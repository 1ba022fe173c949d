/**
 * Check `finite-fraction`: each stored variable has a finite value on at
 * least {@link MIN_FINITE_FRACTION} of the cells that should have data
 * (./own-cells.ts: sea-only and land-only variables on their own cells),
 * counted over the time steps at which it has any finite value: a variable
 * may be missing at whole steps (sources of different cadences in one
 * version, the first step of an accumulation). NaN (missing) and ±Inf both
 * count as not finite; a variable with no finite value at any step, or a
 * product with no cell of the kind its variables need, is refused.
 */
import type { FiniteTally, Finding, GateCheck, GateContext } from './check.js';
import { cellKind, dataVariables, ownCells } from './own-cells.js';

/**
 * Smallest share of finite values. Real files sit far above it: land-only
 * sources (ERA5-Land) fill about half an Italian domain; a broken field is
 * near zero.
 */
export const MIN_FINITE_FRACTION = 0.2;

/** Count `steps` into `into` (a new tally when absent). */
export function tallyFinite(steps: readonly Float32Array[], own: Uint8Array | null, into: FiniteTally = { cells: 0, n: 0, finite: 0 }): FiniteTally {
  // Cells counted per step: the same for every step of one length (a store's steps all have the grid's).
  let countedFor = -1;
  let counted = 0;
  for (const a of steps) {
    if (a.length !== countedFor) {
      countedFor = a.length;
      counted = own ? countOwn(own, a.length) : a.length;
    }
    // x − x is 0 for a finite x, NaN for NaN and ±Inf: one subtraction per value (a year is 33 M values per variable).
    let stepFinite = 0;
    if (own) {
      for (let c = 0; c < a.length; c++) {
        const x = a[c]!;
        if (own[c] && x - x === 0) stepFinite++;
      }
    } else {
      for (let c = 0; c < a.length; c++) {
        const x = a[c]!;
        if (x - x === 0) stepFinite++;
      }
    }
    into.cells = Math.max(into.cells, counted);
    if (stepFinite === 0) continue;
    into.n += counted;
    into.finite += stepFinite;
  }
  return into;
}

/** The finite share of a tally: NaN when no cell is judged, 0 when no step has a finite value. */
export function fractionOf(t: FiniteTally): number {
  if (t.cells === 0) return NaN;
  return t.n === 0 ? 0 : t.finite / t.n;
}

/**
 * Finite share over the cells of `own` (all cells when null) of the steps
 * that have a finite value there; 0 when none has, NaN when there are no
 * such cells.
 */
export function finiteFraction(steps: readonly Float32Array[], own: Uint8Array | null): number {
  return fractionOf(tallyFinite(steps, own));
}

function countOwn(own: Uint8Array, length: number): number {
  let k = 0;
  for (let c = 0; c < length; c++) if (own[c]) k++;
  return k;
}

export const finiteFractionCheck: GateCheck = {
  name: 'finite-fraction',
  run(ctx: GateContext): Finding[] {
    const out: Finding[] = [];
    for (const name of dataVariables(ctx.input)) {
      if (ctx.product.variables[name]?.gateExempt?.checks.includes('finite-fraction')) continue;
      const own = ownCells(ctx.product, ctx.input, name);
      const f = fractionOf(ctx.tallies?.finite.get(name) ?? tallyFinite(ctx.input.variables[name]!.values, own));
      const kind = cellKind(ctx.product, name);
      if (Number.isNaN(f)) out.push({ check: 'finite-fraction', message: `${name}: no ${kind} in the domain to hold it` });
      else if (f < MIN_FINITE_FRACTION) {
        out.push({ check: 'finite-fraction', message: `${name}: ${(f * 100).toFixed(1)}% of its values on ${kind} are finite (at least ${MIN_FINITE_FRACTION * 100}% needed)` });
      }
    }
    return out;
  },
};
