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
  if (elementSize === 2 && src.length % 2 === 0) return unshuffle2(src);
  if (elementSize === 4 && src.length % 4 === 0) return unshuffle4(src);
  const n = src.length / elementSize;
  const out = new Uint8Array(src.length);
  for (let i = 0; i < n; i++) for (let b = 0; b < elementSize; b++) out[i * elementSize + b] = src[b * n + i]!;
  return out;
}

// The element sizes the store uses, one element per store instead of a byte loop: a cold point lookup decodes
// several chunks, and the generic loop took about as long as zstd itself (0.64 against 0.70 ms per 128 KiB
// chunk, wall, loaded machine); this one takes 115–147 µs of CPU against 205 µs (measured alternating).
// Elements are assembled little-endian, as Zarr's '<i2'/'<f4' and this store (tiles/write) are.

function unshuffle2(src: Uint8Array): Uint8Array {
  const n = src.length >> 1;
  const out = new Uint8Array(src.length);
  const o = new Uint16Array(out.buffer);
  for (let i = 0; i < n; i++) o[i] = src[i]! | (src[n + i]! << 8);
  return out;
}

function unshuffle4(src: Uint8Array): Uint8Array {
  const n = src.length >> 2;
  const out = new Uint8Array(src.length);
  const o = new Uint32Array(out.buffer);
  for (let i = 0; i < n; i++) o[i] = src[i]! | (src[n + i]! << 8) | (src[2 * n + i]! << 16) | (src[3 * n + i]! << 24);
  return out;
}
