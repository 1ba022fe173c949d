/**
 * A number's JSON text (`'' + n`, what JSON.stringify and fast-json-stringify
 * print for a finite number), kept in a small table so that the values the
 * answers repeat are converted once.
 *
 * Why: V8 turns a double into text through a runtime call (shortest
 * round-trip digits) unless its own number-string cache holds it, and on a
 * Business answer's ~40 numbers that cache missed nearly always: ~120 ns a
 * number, half the compiled writer's time (api/fields/response-json.ts). The
 * answers' numbers are rounded (api/weather/precision.ts) and repeat from
 * point to point and answer to answer (temperatures in tenths, pressures,
 * directions), so a table of the last text per slot answers most of them.
 *
 * The slot is found from the double's bits (Fibonacci hashing, Knuth, TAOCP
 * vol. 3, §6.4); a slot holds one value and its text, replaced on a miss. The
 * text returned is always `'' + n` of the very value asked: a slot matches
 * only a value `===` to it (0 and −0 match each other and both print "0"; NaN
 * matches nothing, which keeps empty slots empty).
 */

/** Slots of the table: 2^13 (64 KiB of keys), a few answers' worth of distinct values many times over. */
const SLOT_BITS = 13;
const SLOTS = 1 << SLOT_BITS;

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);
const keys = new Float64Array(SLOTS).fill(NaN);
const texts: string[] = new Array<string>(SLOTS).fill('');

/** `'' + n`, from the table when the slot holds `n`. */
export function numberText(n: number): string {
  bits[0] = n;
  // Both words mixed: a short decimal's low word is often 0. The top bits of the product depend on all 32 below.
  const slot = Math.imul(words[0]! ^ words[1]!, 0x9e3779b1) >>> (32 - SLOT_BITS);
  if (keys[slot] === n) return texts[slot]!;
  const text = '' + n;
  keys[slot] = n;
  texts[slot] = text;
  return text;
}
