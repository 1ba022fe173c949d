/**
 * The number texts of the compiled JSON writer (api/fields/number-text.ts):
 * whatever the table held before, the text is JSON.stringify's for the value asked.
 */
import { describe, expect, it } from 'vitest';
import { NUMBER_ROOM, numberText, putNumber } from '../../../api/fields/number-text.js';
import { mulberry32 } from '../../../bench/prng.js';

describe('numberText', () => {
  it('prints what JSON.stringify prints, edge values included', () => {
    const values = [0, -0, 1, -1, 0.1, 0.125, 13.5, -2.9, 1013.2, 359, 1e21, 1.5e21, -1e21, 1e-6, 1e-7, 1.2345e-7, 123456789012, 2 ** 53, Number.MAX_VALUE, Number.MIN_VALUE, -Number.MIN_VALUE];
    for (let round = 0; round < 3; round++) for (const v of values) expect(numberText(v)).toBe(JSON.stringify(v));
  });

  it('answers each value right when many values share and replace the same slots', () => {
    const next = mulberry32(42);
    // Rounded values as the answers carry them (tenths, integers, thousandths), and raw doubles; each seen several times.
    const pool: number[] = [];
    for (let i = 0; i < 40_000; i++) {
      const r = next();
      pool.push(i % 4 === 0 ? Math.round(r * 6000 - 3000) / 10 : i % 4 === 1 ? Math.round(r * 2000) : i % 4 === 2 ? Math.round(r * 5e5) / 1000 : (r - 0.5) * 10 ** Math.round(next() * 40 - 20));
    }
    for (let i = 0; i < 200_000; i++) {
      const v = pool[Math.floor(next() * pool.length)]!;
      const got = numberText(v);
      if (got !== JSON.stringify(v)) expect(got).toBe(JSON.stringify(v));
    }
  });

  it('keeps texts and bytes right when values of one pair of slots take turns (found second, moved, dropped)', () => {
    // The table's pair of a value (api/fields/number-text.ts slotOf): three tenths that share one.
    const bits = new Float64Array(1);
    const words = new Int32Array(bits.buffer);
    const pairOf = (n: number) => {
      bits[0] = n;
      return Math.imul(words[0]! ^ words[1]!, 0x9e3779b1) >>> 20;
    };
    const byPair = new Map<number, number[]>();
    let same: number[] | undefined;
    for (let i = 1; !same; i++) {
      const v = i / 10;
      const list = byPair.get(pairOf(v)) ?? [];
      list.push(v);
      byPair.set(pairOf(v), list);
      if (list.length === 3) same = list;
    }
    const buf = Buffer.alloc(2 * NUMBER_ROOM);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    const order = [0, 1, 0, 1, 1, 2, 0, 2, 1, 1, 0, 2, 2, 0];
    for (const k of order) {
      const v = same[k]!;
      expect(numberText(v)).toBe(JSON.stringify(v));
      const end = putNumber(view, 0, v);
      expect(buf.subarray(0, end).toString('latin1')).toBe(JSON.stringify(v));
    }
  });

  it('writes the text as bytes, touching nothing past NUMBER_ROOM from where it starts', () => {
    const values = [0, -0, 7, -1, 0.1, 12.5, -2.9, 1013.2, 12345678, -1234567, 123456789, 0.000123, 1e21, 1e-7, 2 ** 53, -Number.MAX_VALUE, -2.2250738585072014e-308, Number.MIN_VALUE];
    const buf = Buffer.alloc(3 * NUMBER_ROOM);
    const view = new DataView(buf.buffer, buf.byteOffset, buf.length);
    for (let round = 0; round < 2; round++) {
      for (const v of values) {
        buf.fill(0xaa);
        const end = putNumber(view, NUMBER_ROOM, v);
        expect(buf.subarray(NUMBER_ROOM, end).toString('latin1')).toBe(JSON.stringify(v));
        expect(buf.subarray(0, NUMBER_ROOM).every((b) => b === 0xaa)).toBe(true);
        expect(buf.subarray(2 * NUMBER_ROOM).every((b) => b === 0xaa)).toBe(true);
      }
    }
  });
});
