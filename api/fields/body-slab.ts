/**
 * Answer bodies as UTF-8 bytes cut from slabs: weather.php's JSON
 * (written by api/fields/response-json.ts) and widget.php's box
 * (api/widget/box-bytes.ts, assembleBody below).
 *
 * Why bytes and not a string: Fastify counts a string body's UTF-8 bytes
 * (Buffer.byteLength, a scan of the whole) and Node joins it to the head and
 * encodes both into the socket; Node 20 does both character by character once
 * a string holds one character above U+007F, and every answer holds some
 * (the source line's →, "°C"). Here the bytes are written once, straight
 * into the slab, with no count first: a writer reserves at most what it can
 * write and takes what it wrote (docs/benchmarks-journal.md, "weather.php's
 * body as bytes").
 *
 * Why slabs: as Node's own Buffer pool does for small buffers, one
 * ArrayBuffer serves many bodies (a widget box is above the pool's 4 KB
 * limit, and Buffer.from would count the bytes first). A slab is never
 * written twice, and is freed once no body cut from it is referenced.
 */

const SLAB_BYTES = 64 * 1024;
let slab = Buffer.allocUnsafeSlow(SLAB_BYTES);
/** The same bytes as `slab`, for writers that store several bytes at once (api/fields/response-json.ts). */
let view = new DataView(slab.buffer, slab.byteOffset, slab.length);
let used = 0;

/**
 * Offset in the slab ({@link currentSlab}) with at least `bytes` free from there (a new slab when the current one
 * has not). A writer of its own (api/widget/box-bytes.ts) writes there, then {@link take}s what it wrote; bytes it
 * does not take are overwritten by the next body.
 */
export function reserve(bytes: number): number {
  if (used + bytes > slab.length) {
    slab = Buffer.allocUnsafeSlow(Math.max(SLAB_BYTES, bytes));
    view = new DataView(slab.buffer, slab.byteOffset, slab.length);
    used = 0;
  }
  return used;
}

/** The bytes of `slab` from `start` to `end`, taken (8-byte aligned after them). */
export function take(start: number, end: number): Buffer {
  used = (end + 7) & ~7;
  return slab.subarray(start, end);
}

/** The slab {@link reserve} gave its offset in (the same until the next reserve). */
export function currentSlab(): Buffer {
  return slab;
}

/** A DataView of {@link currentSlab}'s bytes. */
export function currentView(): DataView {
  return view;
}

/** Fixed part, text, fixed part, text ... one part more than texts: the texts UTF-8 encoded. */
export function assembleBody(frame: readonly Buffer[], texts: readonly string[]): Buffer {
  let max = 0;
  for (const f of frame) max += f.length;
  for (const t of texts) max += 3 * t.length;
  const start = reserve(max);
  let at = start;
  for (let i = 0; i < texts.length; i++) {
    slab.set(frame[i]!, at);
    at += frame[i]!.length;
    at += slab.write(texts[i]!, at, 'utf8');
  }
  const last = frame[texts.length]!;
  slab.set(last, at);
  return take(start, at + last.length);
}
