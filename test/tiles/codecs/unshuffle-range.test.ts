/**
 * unshuffleRange: part of a shuffled chunk, unshuffled into a block's buffer
 * (the point reader's planar blocks, tiles/read/planar-block.ts). The
 * shuffled bytes come from numcodecs (Shuffle, the filter zarr-python writes
 * and reads), so the values it must give back are the arrays handed to
 * numcodecs, extremes and negative values included; ranges and offsets are
 * chosen to take the 4-elements-at-a-time path and the element-wise one.
 */
import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { unshuffle, unshuffleRange } from '../../../tiles/codecs/shuffle.js';

const SCRIPT = `
import json, sys
import numpy as np
from numcodecs import Shuffle
i2 = np.array(json.loads(sys.argv[1]), '<i2')
f4 = np.array(json.loads(sys.argv[2]), '<f4')
print(json.dumps({'i2': list(bytes(Shuffle(elementsize=2).encode(i2))), 'f4': list(bytes(Shuffle(elementsize=4).encode(f4)))}))
`;

// 64 int16 values (a multiple of 4: the wide path applies) and 12 float32 ones, exactly representable.
const I2 = Array.from({ length: 64 }, (_, k) => [-32768, -2, -1, 0, 1, 255, 256, 300, 32767, -300, 12345, -12345][k % 12]! + (k % 12 === 0 || k % 12 === 8 ? 0 : k));
const F4 = [0, -0.5, 1.5, -2.25, 3.125e-3, 1e30, -1e-30, 65504, -65504, 7, -7.75, 0.1];

describe('unshuffleRange', () => {
  const shuffled = JSON.parse(execFileSync('/usr/bin/python3', ['-c', SCRIPT, JSON.stringify(I2), JSON.stringify(F4)], { encoding: 'utf8', timeout: 60_000 })) as { i2: number[]; f4: number[] };
  const i2 = Uint8Array.from(shuffled.i2);
  const f4 = Uint8Array.from(shuffled.f4);
  const f4Values = Array.from(Float32Array.from(F4));

  it('gives back numcodecs\' int16 input, whole and in parts, at aligned and unaligned places', () => {
    expect(Array.from(new Int16Array(unshuffle(i2, 2).buffer))).toEqual(I2);
    // [first, count, byte offset in the destination]: wide (all multiples of 4), then element-wise ones.
    for (const [first, count, at] of [[0, 64, 0], [8, 16, 8], [60, 4, 4], [2, 6, 2], [5, 7, 0], [8, 16, 2]] as const) {
      const dst = new Uint8Array(200).fill(0xaa);
      unshuffleRange(i2, 2, first, count, dst, at);
      expect(Array.from(new Int16Array(dst.buffer.slice(at, at + 2 * count))), `${first}+${count} at ${at}`).toEqual(I2.slice(first, first + count));
      // Nothing written outside the range.
      expect(dst.subarray(0, at).every((b) => b === 0xaa) && dst.subarray(at + 2 * count).every((b) => b === 0xaa)).toBe(true);
    }
  });

  it('gives back numcodecs\' float32 input bit for bit, in parts', () => {
    for (const [first, count] of [[0, 12], [4, 4], [3, 5]] as const) {
      const dst = new Uint8Array(4 * count);
      unshuffleRange(f4, 4, first, count, dst, 0);
      expect(Array.from(new Float32Array(dst.buffer))).toEqual(f4Values.slice(first, first + count));
    }
  });

  it('copies unshuffled bytes as they are, and refuses a range beyond the chunk', () => {
    const plain = Uint8Array.of(1, 2, 3, 4, 5, 6);
    const dst = new Uint8Array(4);
    unshuffleRange(plain, 0, 1, 4, dst, 0);
    expect(Array.from(dst)).toEqual([2, 3, 4, 5]);
    expect(() => unshuffleRange(i2, 2, 60, 8, new Uint8Array(16), 0)).toThrow(RangeError);
  });
});
