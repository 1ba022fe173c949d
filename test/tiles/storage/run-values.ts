/** The values of the deployment tests' ICON-2I run number `k` (./deployment.ts), shared with the feed's child process (./children/feed-run.ts). */
import type { IconValues } from '../../support/emulators/icon-content.js';
import { ICON2I } from '../../support/italy-live/content.js';

/**
 * ICON-2I values of run number `k`, run k being k hours after run 0: at every valid time its 2 m temperature and
 * dew point are exactly k K above run 0's. Run k's step h is run 0's step h + k, so the live suite's values, which
 * change with the step (0.2 K an hour), are taken at h + k: without that, run k would read 0.8 k K above run 0 and
 * run 3 (2.4 K) would pass for run 2.
 */
export function runValues(k: number): IconValues {
  return { ...ICON2I, T_2M: (z, h) => ICON2I.T_2M!(z, h + k) + k, TD_2M: (z, h) => ICON2I.TD_2M!(z, h + k) + k };
}
