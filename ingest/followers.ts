/**
 * After a product is published, the products that follow it (catalogue
 * `follows`: sm100 follows nwp) build their matching version. A follower that
 * fails does not undo the publish it follows: its failure is a note, and the
 * router keeps ignoring its stale version (manifest `derived_from`) until the
 * next publish or `meteopunto ingest <follower>` builds a matching one.
 */
import type { FollowOutcome } from './products/product.js';
import { PRODUCTS } from './products/registry.js';

export async function runFollowers(root: string, product: string, opts: { signal?: AbortSignal; onStart?: (follower: string) => void } = {}): Promise<FollowOutcome[]> {
  const out: FollowOutcome[] = [];
  for (const p of Object.values(PRODUCTS)) {
    if (p.follows?.product !== product) continue;
    opts.signal?.throwIfAborted();
    opts.onStart?.(p.name);
    try {
      out.push(await p.follows.derive(root, opts.signal));
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      out.push({ product: p.name, published: null, notes: [`${p.name} not built: ${err instanceof Error ? err.message : String(err)}`] });
    }
  }
  return out;
}
