/**
 * What the server warms in a new version before it answers from it
 * (tiles/read/warm.ts): the variables a weather.php request without
 * `fields=` reads from that product, for the highest plan (every builder),
 * taken from the builders' declared reads (api/fields/). A read's `extra`
 * (the condition's fallback, read only where the weather code is unusable)
 * is left out: rare requests may decode it on demand. The mask variables
 * come with the masked ones they serve. Period products
 * (reanalysis years, asked with `time=` only) are not warmed.
 */
import type { Manifest } from '../../tiles/manifest.js';
import type { WarmPlan } from '../../tiles/read/warm.js';
import { LAND_SEA_MASK, nearestCellVariable } from '../../tiles/masks.js';
import type { FieldBuilder } from '../fields/contract.js';
import { BUILDERS } from '../fields/registry.js';

export function defaultReadPlan(builders: readonly FieldBuilder[] = BUILDERS): WarmPlan {
  return (m: Manifest) => {
    if (m.layout === 'periods') return null;
    const names = new Set<string>();
    for (const b of builders) {
      for (const r of b.reads) {
        if (!m.feeds.includes(r.feed)) continue;
        for (const v of r.variables(m)) names.add(v);
        for (const v of r.history?.variables ?? []) names.add(v);
      }
    }
    // A masked variable is read with the land-sea mask and the nearest-cell index beside it (tiles/read/masked-values.ts).
    if ([...names].some((n) => m.variables[n] !== undefined && m.variables[n].mask !== 'any')) {
      names.add(LAND_SEA_MASK).add(nearestCellVariable('sea')).add(nearestCellVariable('land'));
    }
    const present = [...names].filter((n) => n in m.variables);
    return present.length > 0 ? present : null;
  };
}
