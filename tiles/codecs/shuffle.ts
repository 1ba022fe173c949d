/**
 * Byte shuffle filter, numcodecs' `shuffle` (id 'shuffle', `elementsize`):
 * byte b of element i goes to position b·n + i, so the slowly varying high
 * bytes of smooth int16/float32 fields sit together and zstd compresses them
 * far better (measured in bench/point-lookup.ts).
 */

/** The `.zarray` `filters` entry for elements of `elementSize` bytes. */
export function shuffleFilter(elementSize: number): { id: 'shuffle'; elementsize: number } {
  return { id: 'shuffle', elementsize: elementSize };
}

export function shuffle(src: Uint8Array, elementSize: number): Uint8Array {
  const n = src.length / elementSize;
  const out = new Uint8Array(src.length);
  for (let i = 0; i < n; i++) for (let b = 0; b < elementSize; b++) out[b * n + i] = src[i * elementSize + b]!;
  return out;
}

export function unshuffle(src: Uint8Array, elementSize: number): Uint8Array {
  const out = new Uint8Array(src.length);
  // The element sizes the store uses, one element per store instead of a byte loop: a cold point lookup decodes
  // several chunks, and the generic loop took about as long as zstd itself (0.64 against 0.70 ms per 128 KiB
  // chunk, wall, loaded machine); this one takes 115–147 µs of CPU against 205 µs (measured alternating).
  // Elements are assembled little-endian, as Zarr's '<i2'/'<f4' and this store (tiles/write) are.
  if ((elementSize === 2 || elementSize === 4) && src.length % elementSize === 0) {
    unshuffleRange(src, elementSize, 0, src.length / elementSize, out, 0);
    return out;
  }
  const n = src.length / elementSize;
  for (let i = 0; i < n; i++) for (let b = 0; b < elementSize; b++) out[i * elementSize + b] = src[b * n + i]!;
  return out;
}

/**
 * Elements `first` … `first + count − 1` of shuffled `src` (elements of `elementSize` bytes), unshuffled into `dst`
 * from byte `at` on: the point reader copies the steps a block holds straight from a decoded chunk
 * (tiles/read/planar-block.ts), without an unshuffled copy of the whole chunk first. `elementSize` 0: `src` is not
 * shuffled, the bytes are copied.
 */
export function unshuffleRange(src: Uint8Array, elementSize: number, first: number, count: number, dst: Uint8Array, at: number): void {
  const size = elementSize || 1;
  if (elementSize === 0 || elementSize === 1) {
    dst.set(src.subarray(first * size, (first + count) * size), at);
    return;
  }
  const n = src.length / elementSize;
  if (!Number.isInteger(n) || first < 0 || first + count > n) throw new RangeError(`unshuffleRange: elements ${first}..${first + count} outside ${src.length / elementSize}`);
  const to = dst.byteOffset + at;
  if (elementSize === 2 && to % 4 === 0 && (src.byteOffset + first) % 4 === 0 && n % 4 === 0 && count % 4 === 0) {
    unshuffle2Wide(src, n, first, count, new Uint32Array(dst.buffer, to, count >> 1));
  } else if (elementSize === 2 && to % 2 === 0) {
    const o = new Uint16Array(dst.buffer, to, count);
    for (let i = 0, s = first; i < count; i++, s++) o[i] = src[s]! | (src[n + s]! << 8);
  } else if (elementSize === 4 && to % 4 === 0) {
    const o = new Uint32Array(dst.buffer, to, count);
    for (let i = 0, s = first; i < count; i++, s++) o[i] = src[s]! | (src[n + s]! << 8) | (src[2 * n + s]! << 16) | (src[3 * n + s]! << 24);
  } else {
    for (let i = 0; i < count; i++) for (let b = 0; b < elementSize; b++) dst[at + i * elementSize + b] = src[b * n + first + i]!;
  }
}

/** Scratch of {@link unshuffleInPlace}, grown to the largest chunk seen (one per thread: the work is synchronous). */
let scratch = new Uint8Array(0);

/**
 * Unshuffle `buf` (elements of `elementSize` bytes) where it lies: through a scratch buffer kept between calls,
 * then copied back. A decoded chunk then becomes a block itself instead of being copied into a new one
 * (tiles/read/planar-block.ts): one buffer per chunk fewer for the collector to track and free.
 */
export function unshuffleInPlace(buf: Uint8Array, elementSize: number): void {
  if (elementSize <= 1) return;
  if (scratch.length < buf.length) scratch = new Uint8Array(buf.length);
  unshuffleRange(buf, elementSize, 0, buf.length / elementSize, scratch, 0);
  buf.set(scratch.subarray(0, buf.length));
}

/**
 * 2-byte elements four at a time: one 32-bit load of four low bytes and one of the four high bytes, two 32-bit
 * stores of the four elements they make (little-endian). Half the CPU of one element per store (85 against
 * 165 µs per 128 KiB chunk, load 17): a `time=` miss unshuffles every chunk it decodes.
 */
function unshuffle2Wide(src: Uint8Array, n: number, first: number, count: number, o: Uint32Array): void {
  const lo = new Uint32Array(src.buffer, src.byteOffset + first, count >> 2);
  const hi = new Uint32Array(src.buffer, src.byteOffset + n + first, count >> 2);
  for (let i = 0, j = 0; i < lo.length; i++, j += 2) {
    const l = lo[i]!;
    const h = hi[i]!;
    o[j] = (l & 0xff) | ((h & 0xff) << 8) | ((l & 0xff00) << 8) | ((h & 0xff00) << 16);
    o[j + 1] = ((l >>> 16) & 0xff) | ((h >>> 8) & 0xff00) | ((l >>> 8) & 0xff0000) | (h & 0xff000000);
  }
}
