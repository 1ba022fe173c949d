import { describe, expect, it } from 'vitest';
import { choosePacking, packInt16, INT16_FILL, finiteRange } from '../../../tiles/codecs/packing.js';
import { chooseChunkShape } from '../../../tiles/write/chunking.js';
import { mulberry32 } from '../../../bench/prng.js';

describe('choosePacking', () => {
  it('packs temperature (−40..50 °C at 0.01) as int16 centred on the range', () => {
    const p = choosePacking([Float32Array.of(-40, 12.5, 50)], 0.01);
    expect(p).toEqual({ dtype: 'int16', scale: 0.01, offset: 5 });
  });

  it('falls back to float32 when the range needs more than 65534 steps', () => {
    expect(choosePacking([Float32Array.of(0, 655.34)], 0.01).dtype).toBe('int16');
    expect(choosePacking([Float32Array.of(0, 655.36)], 0.01).dtype).toBe('float32');
    expect(choosePacking([Float32Array.of(950, 1050)], 1e-4).dtype).toBe('float32');
    expect(choosePacking([Float32Array.of(0, Infinity)], 1).dtype).toBe('float32');
  });

  it('ignores NaN and packs an all-missing field as int16', () => {
    expect(finiteRange([Float32Array.of(NaN, 3, NaN, -2)])).toEqual({ min: -2, max: 3 });
    expect(choosePacking([new Float32Array(4).fill(NaN)], 0.1)).toEqual({ dtype: 'int16', scale: 0.1, offset: 0 });
  });

  it('rejects a non-positive precision', () => {
    expect(() => choosePacking([Float32Array.of(1)], 0)).toThrow(/precision/);
  });

  it('keeps every value within half the precision, NaN as the fill value', () => {
    const rnd = mulberry32(7);
    const values = Float32Array.from({ length: 5000 }, () => -30 + rnd() * 75);
    values[10] = NaN;
    const p = choosePacking([values], 0.01);
    if (p.dtype !== 'int16') throw new Error('expected int16');
    let worst = 0;
    values.forEach((v, k) => {
      const q = packInt16(v, p.scale, p.offset);
      if (k === 10) return expect(q).toBe(INT16_FILL);
      expect(q).toBeGreaterThanOrEqual(-32767);
      expect(q).toBeLessThanOrEqual(32767);
      worst = Math.max(worst, Math.abs(q * p.scale + p.offset - v));
    });
    expect(worst).toBeLessThanOrEqual(0.005 + 1e-6);
    expect(worst).toBeGreaterThan(0.004); // the bound is reached, so the check above is not vacuous
  });

  it('rounds halves up and clamps to ±32767 as Math.round then a clamp would, at every edge of floor(y + 0.5)', () => {
    // What the packing promises is Math.round's rounding (ECMA-262: the integer closest to y, halves towards +∞);
    // `| 0` as an int16 store sees it (−0 is 0 there).
    const spec = (y: number) => Math.max(-32767, Math.min(32767, Math.round(y))) | 0;
    const edges = [0.49999999999999994, 0.5, -0.5, -0.5000000000000001, 1.5, -1.5, 2.5, -2.5, 32766.5, 32767, 32767.5, -32766.5, -32767.5, -32768, 1e300, -Infinity];
    for (const y of edges) expect(packInt16(y, 1, 0) | 0, String(y)).toBe(spec(y));
    const rnd = mulberry32(11);
    for (let i = 0; i < 100_000; i++) {
      const y = Math.floor((rnd() - 0.5) * 70_000) + 0.5; // halves, and just below them
      expect(packInt16(y, 1, 0) | 0).toBe(spec(y));
      expect(packInt16(y - 2 ** -20, 1, 0) | 0).toBe(spec(y - 2 ** -20));
    }
  });
});

describe('chunking', () => {
  it('spans short time axes whole in 32-cell tiles and cuts long ones into 256-step chunks of 16 cells', () => {
    expect(chooseChunkShape(0)).toEqual({ edge: 32, steps: 1 });
    expect(chooseChunkShape(49)).toEqual({ edge: 32, steps: 49 });
    // 1,024 steps × 32 × 32 = 2^20 values, the largest chunk of a short axis.
    expect(chooseChunkShape(1024)).toEqual({ edge: 32, steps: 1024 });
    expect(chooseChunkShape(1025)).toEqual({ edge: 16, steps: 128 });
    expect(chooseChunkShape(8760)).toEqual({ edge: 16, steps: 128 });
  });
});

describe('byte shuffle', () => {
  it('matches numcodecs Shuffle(elementsize=2) and inverts', async () => {
    const { shuffle, unshuffle } = await import('../../../tiles/codecs/shuffle.js');
    const raw = new Uint8Array(Int16Array.of(1, 2, 3, 258).buffer);
    // numcodecs: Shuffle(elementsize=2).encode(np.array([1, 2, 3, 258], '<i2')) → [1, 2, 3, 2, 0, 0, 0, 1]
    expect(Array.from(shuffle(raw, 2))).toEqual([1, 2, 3, 2, 0, 0, 0, 1]);
    expect(Array.from(unshuffle(shuffle(raw, 2), 2))).toEqual(Array.from(raw));
  });

  it('unshuffles 2- and 4-byte elements as numcodecs shuffles them, negative values included', async () => {
    const { shuffle, unshuffle } = await import('../../../tiles/codecs/shuffle.js');
    // numcodecs: Shuffle(elementsize=4).encode(np.array([1, 258, -2], '<i4')) and Shuffle(elementsize=2).encode(np.array([-2, 300], '<i2')).
    const i4 = Uint8Array.of(1, 2, 254, 0, 1, 255, 0, 0, 255, 0, 0, 255);
    expect(Array.from(new Int32Array(unshuffle(i4, 4).buffer))).toEqual([1, 258, -2]);
    expect(Array.from(new Int16Array(unshuffle(Uint8Array.of(254, 44, 255, 1), 2).buffer))).toEqual([-2, 300]);
    const rnd = mulberry32(3);
    const bytes = Uint8Array.from({ length: 4 * 999 }, () => Math.floor(rnd() * 256));
    for (const size of [2, 4]) expect(Array.from(unshuffle(shuffle(bytes, size), size))).toEqual(Array.from(bytes));
  });
});
