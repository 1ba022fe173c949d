/** The `source` label of a field group: product, model, and whether it is the demo dataset. */
import type { Manifest } from '../../tiles/manifest.js';

export function sourceLabel(m: Manifest): string {
  const model = m.source.model ? `, ${m.source.model}` : '';
  return `${m.product}${model}${m.source.sample ? ' (sample data)' : ''}`;
}
