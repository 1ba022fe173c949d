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
 * vol. 3, §6.4), in a pair of two (slotOf); a slot holds one value and its text, replaced on a miss. The
 * text returned is always `'' + n` of the very value asked: a slot matches
 * only a value `===` to it (0 and −0 match each other and both print "0"; NaN
 * matches nothing, which keeps empty slots empty).
 *
 * The slot also keeps the text's bytes (ASCII), up to 8 of them as two
 * 32-bit words beside its value (16 bytes, one cache line), for the JSON
 * writer (./response-json.ts) to store with two writes instead of a loop
 * over the characters; the text's length is where its bytes end (no
 * character of a number's text is 0).
 */

/** Slots of the table: 2^13 (128 KiB of values and bytes), a few answers' worth of distinct values many times over. */
const SLOT_BITS = 13;
const SLOTS = 1 << SLOT_BITS;

const bits = new Float64Array(1);
const words = new Int32Array(bits.buffer);
/** Per slot: the value (Float64 2 * slot), then bytes 0-3 and 4-7 of its text (Int32 4 * slot + 2, + 3), zero past its end; both zero for a text longer than 8. */
const table = new ArrayBuffer(16 * SLOTS);
const keys = new Float64Array(table);
const packed = new Int32Array(table);
const texts: string[] = new Array<string>(SLOTS).fill('');
for (let slot = 0; slot < SLOTS; slot++) keys[2 * slot] = NaN;
/** String.prototype.charCodeAt called as the builtin (why: ./string-bytes.ts). */
const charCode = String.prototype.charCodeAt;

/**
 * The slot of `n`, filled with `n` and its text when neither slot of its pair held it. A pair is two adjacent slots
 * (32 bytes), the one last found or filled first: two values of one hash both stay. Direct mapped, the ~1,200
 * distinct numbers of the bench's Free answers missed 5.5 % of lookups served (two values of one slot taking
 * turns), each miss a conversion; the second slot is a load from the line already read.
 */
function slotOf(n: number): number {
  bits[0] = n;
  // Both words mixed: a short decimal's low word is often 0. The top bits of the product depend on all 32 below.
  const slot = (Math.imul(words[0]! ^ words[1]!, 0x9e3779b1) >>> (33 - SLOT_BITS)) << 1;
  if (keys[2 * slot] === n) return slot;
  if (keys[2 * slot + 2] === n) {
    // Found second: swapped first, so that of two values taking turns neither is pushed out.
    swap(slot);
    return slot;
  }
  // The first slot's value moves to the second, the second's is dropped.
  swap(slot);
  const text = '' + n;
  keys[2 * slot] = n;
  texts[slot] = text;
  let lo = 0;
  let hi = 0;
  if (text.length <= 8) {
    for (let i = 0; i < 4 && i < text.length; i++) lo |= charCode.call(text, i) << (8 * i);
    for (let i = 4; i < text.length; i++) hi |= charCode.call(text, i) << (8 * (i - 4));
  }
  packed[4 * slot + 2] = lo;
  packed[4 * slot + 3] = hi;
  return slot;
}

/** The slots `slot` and `slot + 1` exchanged (value, bytes and text). */
function swap(slot: number): void {
  const k = keys[2 * slot]!;
  keys[2 * slot] = keys[2 * slot + 2]!;
  keys[2 * slot + 2] = k;
  const lo = packed[4 * slot + 2]!;
  const hi = packed[4 * slot + 3]!;
  packed[4 * slot + 2] = packed[4 * slot + 6]!;
  packed[4 * slot + 3] = packed[4 * slot + 7]!;
  packed[4 * slot + 6] = lo;
  packed[4 * slot + 7] = hi;
  const t = texts[slot]!;
  texts[slot] = texts[slot + 1]!;
  texts[slot + 1] = t;
}

/** `'' + n`, from the table when the slot holds `n`. */
export function numberText(n: number): string {
  return texts[slotOf(n)]!;
}

/**
 * The most bytes {@link putNumber} stores: the longest text of a double ("-2.2250738585072014e-308", 24) and the
 * zeros of a second word stored past a short text's end.
 */
export const NUMBER_ROOM = 32;

/**
 * `'' + n` written into `view` from `at`: the end. Up to 8 characters it stores two words, the bytes past the
 * text's end (up to {@link NUMBER_ROOM} from `at`) left for what is written next.
 */
export function putNumber(view: DataView, at: number, n: number): number {
  const slot = slotOf(n);
  const lo = packed[4 * slot + 2]!;
  const hi = packed[4 * slot + 3]!;
  if (lo !== 0) {
    view.setInt32(at, lo, true);
    view.setInt32(at + 4, hi, true);
    // The bytes end at the highest one not 0: in `hi` when it has any.
    return at + (hi === 0 ? (39 - Math.clz32(lo)) >> 3 : 4 + ((39 - Math.clz32(hi)) >> 3));
  }
  const text = texts[slot]!;
  for (let i = 0; i < text.length; i++) view.setUint8(at + i, charCode.call(text, i));
  return at + text.length;
}
