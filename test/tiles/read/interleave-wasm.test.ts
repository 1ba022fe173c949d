/**
 * The SIMD interleave (tiles/read/interleave-wasm.ts) against the layout written out here: a block holds member m's
 * value of cell c at step t at (c × steps + t) × members + m, the value being the int16 whose low byte is at c' and
 * high byte at len + c' of the member's shuffled chunk (c' = t × plane + c). Random bytes, whole chunks and single
 * rows from the middle and the end (a bridge's), several members, one or two at a time.
 */
import { describe, expect, it } from 'vitest';
import { zstdReady, zstdWasm } from '../../../tiles/codecs/zstd.js';
import { wasmInterleaver } from '../../../tiles/read/interleave-wasm.js';
import { mulberry32 } from '../../../bench/prng.js';

describe('the SIMD interleave', () => {
  it('is there once the decoder is loaded, in the decoder\'s memory', async () => {
    await zstdReady();
    const k = wasmInterleaver();
    expect(k).not.toBeNull();
    expect(k!.z.memory).toBe(zstdWasm()!.memory);
  });

  it('writes each member\'s rows at their cells, steps and member, and nothing else, one member or two at a time', async () => {
    await zstdReady();
    const k = wasmInterleaver()!;
    const rnd = mulberry32(20261127);
    for (const { plane, chunkSteps, members, steps, rows, pairs } of [
      { plane: 32, chunkSteps: 3, members: 3, steps: 3, rows: [[0, 3, 0]], pairs: false },
      { plane: 32, chunkSteps: 3, members: 3, steps: 3, rows: [[0, 3, 0]], pairs: true },
      { plane: 1024, chunkSteps: 5, members: 4, steps: 5, rows: [[0, 5, 0]], pairs: true },
      { plane: 1024, chunkSteps: 5, members: 1, steps: 5, rows: [[0, 5, 0]], pairs: true },
      // A bridge: the last row of each member's chunk to step 0, the first row of the next chunk to step 1.
      { plane: 48, chunkSteps: 7, members: 2, steps: 2, rows: [[6, 1, 0], [0, 1, 1]], pairs: false },
      { plane: 48, chunkSteps: 7, members: 5, steps: 2, rows: [[6, 1, 0], [0, 1, 1]], pairs: true },
    ]) {
      const len = chunkSteps * plane;
      const blockValues = members * steps * plane;
      const mem = k.z;
      // Chunks placed in the memory by hand: each member's (and next chunk's) shuffled bytes at its own address.
      const chunks = rows.map(() => Array.from({ length: members }, () => Uint8Array.from({ length: 2 * len }, () => Math.floor(rnd() * 256))));
      const base = mem.scratch(blockValues * 2 + rows.length * members * 2 * len + 64);
      const chunkAt = (r: number, m: number) => base + blockValues * 2 + (r * members + m) * 2 * len;
      const bytes = mem.bytes();
      bytes.fill(0xa5, base, base + blockValues * 2);
      rows.forEach((_, r) => chunks[r]!.forEach((c, m) => bytes.set(c, chunkAt(r, m))));
      rows.forEach(([first, n, t0], r) => {
        const at = (m: number) => chunkAt(r, m) + first! * plane;
        const dst = (m: number) => base + (t0! * members + m) * 2;
        // Members two at a time where `pairs` says so, the last alone when they are odd.
        let m = 0;
        if (pairs) for (; m + 1 < members; m += 2) k.interleave2x2(at(m), at(m + 1), len, n!, plane, dst(m), steps * members * 2, members * 2);
        for (; m < members; m++) k.interleave2(at(m), len, n!, plane, dst(m), steps * members * 2, members * 2);
      });
      const out = new DataView(mem.bytes().buffer, base, blockValues * 2);
      const expected = new Uint16Array(blockValues).fill(0xa5a5);
      rows.forEach(([first, n, t0], r) => {
        for (let m = 0; m < members; m++) {
          const c = chunks[r]![m]!;
          for (let t = 0; t < n!; t++) for (let cell = 0; cell < plane; cell++) {
            const i = (first! + t) * plane + cell;
            expected[(cell * steps + t0! + t) * members + m] = c[i]! | (c[len + i]! << 8);
          }
        }
      });
      let wrong = 0;
      for (let i = 0; i < blockValues; i++) if (out.getUint16(2 * i, true) !== expected[i]) wrong++;
      expect(wrong).toBe(0);
    }
  });
});
