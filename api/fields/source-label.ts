/** The `source` label of a field group: product, model, and whether it is the demo dataset. */
import type { Manifest } from '../../tiles/manifest.js';

/** Per manifest (so per version): the label is asked by three groups on every answer. */
const labels = new WeakMap<Manifest, string>();

export function sourceLabel(m: Manifest): string {
  let label = labels.get(m);
  if (label === undefined) {
    const model = m.source.model ? `, ${m.source.model}` : '';
    labels.set(m, (label = `${m.product}${model}${m.source.sample ? ' (sample data)' : ''}`));
  }
  return label;
}
