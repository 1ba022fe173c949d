/**
 * The `coastal` builder (Business, `fields=coastal`): sea surface
 * temperature, waves and sea state from the product answering feed
 * 'coastal' (marine). Its variables are sea-masked, so the tile reader
 * answers from sea cells only and says how far they are; where no product
 * answers, or no sea cell lies within the product's search radius, `coastal`
 * is null (no error: an inland point simply has no sea).
 */
import type { Manifest } from '../../../tiles/manifest.js';
import { coastal, COASTAL_VARIABLES } from './fields.js';
import { coastalResponseProperties } from './schema.js';
import { defineBuilder } from '../contract.js';
import { sourceLabel } from '../source-label.js';

const present = new WeakMap<Manifest, readonly string[]>();
/** The group's variables this version holds (same array per manifest, as FeedRead asks). */
function variablesOf(m: Manifest): readonly string[] {
  let v = present.get(m);
  if (!v) present.set(m, (v = COASTAL_VARIABLES.filter((n) => n in m.variables)));
  return v;
}

export const coastalBuilder = defineBuilder({
  name: 'coastal',
  minPlan: 'business',
  groups: { coastal: ['coastal'] },
  reads: [{ feed: 'coastal', variables: variablesOf }],
  properties: coastalResponseProperties,
  required: [],
  build(ctx) {
    const f = ctx.feed('coastal');
    ctx.out.coastal = f ? coastal(f.now.values, f.now.distanceKm?.sea, sourceLabel(f.manifest)) : null;
  },
});
