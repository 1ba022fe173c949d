/**
 * The `soil` builder (Business, `fields=soil`): soil moisture and
 * temperature per layer from the product answering feed 'soil'. Its
 * variables are land-masked, so the tile reader answers from land cells only
 * and says how far they are; where no product answers, or no land cell lies
 * within the product's search radius (a point at sea), `soil` is null.
 */
import type { Manifest } from '../../../tiles/manifest.js';
import { soil, SOIL_VARIABLES } from './fields.js';
import { soilResponseProperties } from './schema.js';
import { defineBuilder } from '../contract.js';
import { sourceLabel } from '../source-label.js';

const present = new WeakMap<Manifest, readonly string[]>();
/** The group's variables this version holds (same array per manifest, as FeedRead asks). */
function variablesOf(m: Manifest): readonly string[] {
  let v = present.get(m);
  if (!v) present.set(m, (v = SOIL_VARIABLES.filter((n) => n in m.variables)));
  return v;
}

export const soilBuilder = defineBuilder({
  name: 'soil',
  minPlan: 'business',
  groups: { soil: ['soil'] },
  reads: [{ feed: 'soil', variables: variablesOf }],
  properties: soilResponseProperties,
  required: [],
  build(ctx) {
    const f = ctx.feed('soil');
    ctx.out.soil = f ? soil(f.now.values, f.now.distanceKm?.land, sourceLabel(f.manifest)) : null;
  },
});
