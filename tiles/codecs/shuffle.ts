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
  const n = src.length / elementSize;
  const out = new Uint8Array(src.length);
  for (let i = 0; i < n; i++) for (let b = 0; b < elementSize; b++) out[i * elementSize + b] = src[b * n + i]!;
  return out;
}
