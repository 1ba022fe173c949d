/**
 * Steps a variable does not have on the product's time axis. Files of one
 * CAMS ingest may have different cadences (the Jaén pollen file: daily 00
 * UTC; its analysis file: 12 and 15 UTC), so the assembled axis is their
 * union and each variable is NaN at the others' steps, where the point reader
 * would answer null. Filling such a step by linear interpolation in time
 * between the variable's own neighbouring steps (per cell) gives exactly the
 * answer the reader's "linear in time" gives on the variable's own axis: the
 * piecewise-linear series is unchanged. Only interior gaps up to MAX_GAP_MS
 * are filled; nothing is extrapolated past a variable's first or last step.
 */
import type { VariableStack } from '../product.js';

/** Longest gap between a variable's own steps bridged: one day (daily CAMS pollen products). */
export const MAX_GAP_MS = 24 * 3600_000;

/** Fill each variable's interior gaps in place; returns one note per variable filled. */
export function bridgeTimeGaps(stack: VariableStack, maxGapMs = MAX_GAP_MS): string[] {
  const notes: string[] = [];
  const t = stack.times.map((d) => d.getTime());
  for (const [name, steps] of stack.series) {
    let filled = 0;
    const cells = steps[0]?.length ?? 0;
    for (let c = 0; c < cells; c++) {
      let prev = -1;
      for (let k = 0; k < steps.length; k++) {
        const v = steps[k]![c]!;
        if (Number.isNaN(v)) continue;
        if (prev >= 0 && k - prev > 1 && t[k]! - t[prev]! <= maxGapMs) {
          const a = steps[prev]![c]!;
          for (let m = prev + 1; m < k; m++) {
            const w = (t[m]! - t[prev]!) / (t[k]! - t[prev]!);
            steps[m]![c] = a + w * (v - a);
            filled++;
          }
        }
        prev = k;
      }
    }
    if (filled > 0) notes.push(`${name}: ${filled} cell-steps between its own steps (≤ ${maxGapMs / 3600_000} h apart) filled linearly in time, as the point reader would interpolate`);
  }
  return notes;
}
