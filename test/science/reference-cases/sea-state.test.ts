/**
 * The 'sea_state' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * Sea state: the WMO 3700 code and its Italian and English names from the significant wave
 * height.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark } from './harness.js';

quantity('sea_state', (c) => {
  const s = d.seaState(c.inputs.hs_m)!;
  expect(s.code).toBe(c.expected.wmo_code);
  expect(s.label).toBe(c.expected.it);
  expect(d.SEA_STATE_TABLE[s.code]!.en).toBe(c.expected.en);
  mark('sea_state', c, 'wmo_code', 'it', 'en');
});
