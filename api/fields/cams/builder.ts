/**
 * The `cams` builder: `air_quality` and `pollen` (Developer and Business,
 * `fields=cams`) from the product answering feed 'cams'. Reads the CAMS
 * variables the answering version holds; where no product answers (outside
 * its region or time range) both fields are null.
 */
import type { Manifest } from '../../../tiles/manifest.js';
import { airQuality, CAMS_VARIABLES, pollen } from './fields.js';
import { camsResponseProperties } from './schema.js';
import { defineBuilder } from '../contract.js';
import { sourceLabel } from '../source-label.js';

const present = new WeakMap<Manifest, readonly string[]>();
/** The group's variables this version holds (same array per manifest, as FeedRead asks). */
function variablesOf(m: Manifest): readonly string[] {
  let v = present.get(m);
  if (!v) present.set(m, (v = CAMS_VARIABLES.filter((n) => n in m.variables)));
  return v;
}

export const camsBuilder = defineBuilder({
  name: 'cams',
  minPlan: 'developer',
  groups: { cams: ['air_quality', 'pollen'] },
  reads: [{ feed: 'cams', variables: variablesOf }],
  properties: camsResponseProperties,
  required: [],
  build(ctx) {
    const f = ctx.feed('cams');
    if (!f) {
      ctx.out.air_quality = null;
      ctx.out.pollen = null;
      return;
    }
    const source = sourceLabel(f.manifest);
    ctx.out.air_quality = airQuality(f.now.values, source);
    ctx.out.pollen = pollen(f.now.values, source);
  },
});
