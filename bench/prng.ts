/**
 * mulberry32 (Tommy Ettinger's 32-bit generator): a small seeded PRNG, so that
 * the bench's points and the tests' random draws repeat from run to run and a
 * failure can be replayed from its seed. Not for anything secret.
 */

/** A generator of uniform numbers in [0, 1) from a 32-bit seed. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
