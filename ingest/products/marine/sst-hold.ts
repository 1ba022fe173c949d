/**
 * Daily SST on an hourly axis. The L4 SST analyses are daily fields of the
 * *foundation* temperature (GHRSST GDS 2.0: the temperature below the
 * diurnal warm layer, which by definition does not follow the day's cycle),
 * stamped at 00 UTC of their day. Ingested with hourly waves, the assembled
 * axis is hourly and the SST is NaN at every hour but 00 UTC. Between two of
 * its own steps it is interpolated linearly (cams/time-gaps.ts, the reader's
 * own rule, as for every marine variable); after its last step it is held
 * for 24 h (HOLD_MS), not beyond: a stale day would otherwise look current.
 */
import { bridgeTimeGaps } from '../cams/time-gaps.js';
import type { VariableStack } from '../product.js';

/** How long the last daily SST stands after its nominal time. */
export const HOLD_MS = 24 * 3600_000;

/**
 * The marine stack's time gaps: every variable's interior gaps bridged
 * linearly (≤ 24 h), then the SST held after its last step. In place; notes.
 */
export function completeMarine(stack: VariableStack, name = 'sea_surface_temperature'): string[] {
  const notes = bridgeTimeGaps(stack);
  const steps = stack.series.get(name);
  if (!steps) return notes;
  const t = stack.times.map((d) => d.getTime());
  let held = 0;
  const cells = steps[0]?.length ?? 0;
  for (let c = 0; c < cells; c++) {
    let last = -1;
    for (let k = steps.length - 1; k >= 0; k--) {
      if (steps[k]![c] === steps[k]![c]) {
        last = k;
        break;
      }
    }
    if (last < 0) continue;
    const v = steps[last]![c]!;
    for (let m = last + 1; m < steps.length && t[m]! - t[last]! < HOLD_MS; m++) {
      steps[m]![c] = v;
      held++;
    }
  }
  if (held > 0) notes.push(`${name}: ${held} cell-steps after its last step held at that value for up to ${HOLD_MS / 3600_000} h (daily foundation SST)`);
  return notes;
}

