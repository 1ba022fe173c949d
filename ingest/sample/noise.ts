/**
 * Deterministic value noise for the sample dataset: the same seed gives the
 * same fields on every machine (no Math.random).
 *
 * Hash: "lowbias32" integer mixer (C. Wellons, "Prospecting for Hash
 * Functions", 2018). Noise: lattice value noise with smoothstep
 * interpolation; fbm sums octaves at doubling frequency and halving amplitude
 * (Perlin 1985, "An image synthesizer", SIGGRAPH).
 */

/** Uniform [0, 1) from three integers. */
export function hash3(x: number, y: number, seed: number): number {
  let h = Math.imul(x | 0, 0x27d4eb2d) ^ Math.imul(y | 0, 0x165667b1) ^ Math.imul(seed | 0, 0x9e3779b1);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  h = Math.imul(h, 0x846ca68b);
  h ^= h >>> 16;
  return (h >>> 0) / 4294967296;
}

/** Value noise in [0, 1), smooth, with one lattice cell per unit of x and y. */
export function valueNoise(x: number, y: number, seed: number): number {
  const ix = Math.floor(x);
  const iy = Math.floor(y);
  const fx = x - ix;
  const fy = y - iy;
  const sx = fx * fx * (3 - 2 * fx);
  const sy = fy * fy * (3 - 2 * fy);
  const a = hash3(ix, iy, seed);
  const b = hash3(ix + 1, iy, seed);
  const c = hash3(ix, iy + 1, seed);
  const d = hash3(ix + 1, iy + 1, seed);
  return a + (b - a) * sx + (c - a) * sy + (a - b - c + d) * sx * sy;
}

/** Fractal sum of `octaves` value-noise layers, normalised to [0, 1). */
export function fbm(x: number, y: number, seed: number, octaves: number): number {
  let sum = 0;
  let amp = 1;
  let norm = 0;
  let f = 1;
  for (let o = 0; o < octaves; o++) {
    sum += amp * valueNoise(x * f, y * f, seed + o * 1013);
    norm += amp;
    amp *= 0.5;
    f *= 2;
  }
  return sum / norm;
}

/** A 31-bit seed from an instant (the sample run time). */
export function seedFromTime(timeMs: number): number {
  return Math.floor(hash3(Math.floor(timeMs / 3_600_000), 0x5eed, 7) * 0x7fffffff);
}
