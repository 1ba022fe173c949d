/**
 * The 'pollen' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * Pollen: the risk class (Italian label) and the family of each species' concentration.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark } from './harness.js';

quantity('pollen', (c) => {
  const r = d.pollenRisk(c.inputs.variable, c.inputs.concentration_grains_m3);
  expect(r.label).toBe(c.expected.class_it);
  expect((c.expected.aia_family as string).split(' (')[0]).toBe(r.family);
  mark('pollen', c, 'class_it', 'aia_family');
});
