/**
 * √(x² + y²) of two numbers, the same double Math.hypot(x, y) gives, in a
 * quarter of its time: V8's Math.hypot (Torque MathHypot) takes any number
 * of arguments into a fresh array, then sums the squares of each over the
 * largest with Kahan compensation; this is that algorithm written out for
 * two, so every operation and its rounding are the same (checked bit for
 * bit against Math.hypot in test/science/hypot.test.ts). About 40 → 11 ns
 * on Node 20; a weather answer takes two (wind speed, base and Developer).
 */
export function hypot2(x: number, y: number): number {
  const ax = Math.abs(x);
  const ay = Math.abs(y);
  // Infinity wins over NaN, as in Math.hypot.
  if (ax === Infinity || ay === Infinity) return Infinity;
  if (ax !== ax || ay !== ay) return NaN;
  const max = ax > ay ? ax : ay;
  if (max === 0) return 0;
  const n1 = ax / max;
  const n2 = ay / max;
  // Kahan summation from 0 over n1², n2², as MathHypot's loop.
  const s1 = n1 * n1;
  const sum = 0 + s1;
  const compensation = sum - 0 - s1;
  return Math.sqrt(sum + (n2 * n2 - compensation)) * max;
}
