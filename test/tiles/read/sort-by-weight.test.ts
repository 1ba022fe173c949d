/**
 * The neighbours by decreasing bilinear weight (tiles/read/point-memo.ts sortByWeight), which 'nearest' variables
 * and the masks read: a stable order, equal weights by neighbour index, whatever the weights (ties included).
 */
import { describe, expect, it } from 'vitest';
import { sortByWeight } from '../../../tiles/read/point-memo.js';

function lcg(seed: number): () => number {
  let s = seed;
  return () => (s = (s * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** The expected order: Array.prototype.sort (stable) on the indices by decreasing weight. */
function reference(w: Float64Array): number[] {
  return [0, 1, 2, 3].sort((a, b) => w[b]! - w[a]!);
}

describe('sortByWeight', () => {
  it('orders the neighbours by decreasing weight, ties by index', () => {
    const rnd = lcg(3);
    const w = new Float64Array(4);
    const order = new Int8Array(4);
    const levels = [0, 0.25, 0.5, 1, -0];
    let differ = 0;
    for (let n = 0; n < 50_000; n++) {
      if (n % 3 === 0) for (let k = 0; k < 4; k++) w[k] = levels[Math.floor(rnd() * levels.length)]!;
      else {
        // Bilinear weights, with the point on a cell's centre, edge or diagonal now and then.
        const fx = n % 7 === 0 ? 0.5 : n % 11 === 0 ? 0 : rnd();
        const fy = n % 5 === 0 ? fx : n % 13 === 0 ? 1 - fx : rnd();
        w[0] = (1 - fx) * (1 - fy);
        w[1] = fx * (1 - fy);
        w[2] = (1 - fx) * fy;
        w[3] = fx * fy;
      }
      sortByWeight(w, order);
      if ([...order].join() !== reference(w).join()) differ++;
    }
    expect(differ).toBe(0);
  });

  it('leaves a NaN weight where it is, as an insertion sort (its comparisons are false)', () => {
    const order = new Int8Array(4);
    sortByWeight(Float64Array.of(NaN, 0.1, 0.7, 0.2), order);
    expect([...order]).toEqual([0, 2, 3, 1]);
  });
});
