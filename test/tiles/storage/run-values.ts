/** The values of the deployment tests' ICON-2I run number `k` (./deployment.ts), shared with the feed's child process (./children/feed-run.ts). */
import type { IconValues } from '../../support/emulators/icon-content.js';
import { ICON2I } from '../../support/italy-live/content.js';

/** ICON-2I values of run number `k`: 2 m temperature and dew point k K above the live suite's. */
export function runValues(k: number): IconValues {
  return { ...ICON2I, T_2M: (z, h) => ICON2I.T_2M!(z, h) + k, TD_2M: (z, h) => ICON2I.TD_2M!(z, h) + k };
}
