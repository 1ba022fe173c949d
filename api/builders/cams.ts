/**
 * The `cams` builder: `air_quality` and `pollen` (Developer and Business,
 * `fields=cams`) from the product answering feed 'cams'. Reads the CAMS
 * variables the answering version holds; where no product answers (outside
 * its region or time range) both fields are null.
 */
import type { Manifest } from '../../tiles/manifest.js';
import { airQuality, CAMS_VARIABLES, pollen } from '../weather/cams/fields.js';
import { camsResponseProperties } from '../weather/cams/schema.js';
import type { FieldBuilder } from './contract.js';

const present = new WeakMap<Manifest, readonly string[]>();
/** The group's variables this version holds (same array per manifest, as FeedRead asks). */
function variablesOf(m: Manifest): readonly string[] {
  let v = present.get(m);
  if (!v) present.set(m, (v = CAMS_VARIABLES.filter((n) => n in m.variables)));
  return v;
}

function sourceOf(m: Manifest): string {
  const model = m.source.model ? `, ${m.source.model}` : '';
  return `${m.product}${model}${m.source.sample ? ' (sample data)' : ''}`;
}

export const camsBuilder: FieldBuilder = {
  name: 'cams',
  minPlan: 'developer',
  selectedBy: ['cams'],
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
    const source = sourceOf(f.manifest);
    ctx.out.air_quality = airQuality(f.now.values, source);
    ctx.out.pollen = pollen(f.now.values, source);
  },
};
