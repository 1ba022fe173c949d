/**
 * The chunk encoder's bytes, worked out by hand: packing by CF §8.1
 * (packed = round((v − add_offset) / scale_factor), NaN → −32768) and
 * numcodecs' byte shuffle (byte b of element i at b·n + i), Zarr v2 chunk
 * order [time][row][col], padding beyond the grid with the fill value.
 */
import { describe, expect, it } from 'vitest';
import { encodeChunkRow } from '../../../tiles/write/chunk-encode.js';

// A 3 × 2 grid (rows of 3), two steps; tile edge 2, so chunk column 1 holds grid column 2 and a padding column.
const planes = [Float32Array.of(0, 1, 2, 3, 4, 5), Float32Array.of(10, NaN, 12, 13, 14, 15)];
const row = { nx: 3, ny: 2, edge: 2, t0: 0, steps: 2, cy: 0 };
const packing = { dtype: 'int16', scale: 0.5, offset: 1 } as const;

describe('encodeChunkRow', () => {
  it('packs, orders [time][row][col], pads and shuffles int16 chunks', () => {
    // packed = round(2v − 2): step 0 → −2 0 2 / 4 6 8; step 1 → 18 fill 22 / 24 26 28.
    // chunk (0,0) elements: −2 0 4 6 | 18 −32768 24 26; −2 = 0xFFFE, −32768 = 0x8000.
    // chunk (0,1) elements: 2 F 8 F | 22 F 28 F (F = fill, the padding column and nothing else).
    const [c0, c1] = encodeChunkRow(planes, row, packing);
    expect(Array.from(c0!)).toEqual([0xfe, 0, 4, 6, 18, 0, 24, 26, 0xff, 0, 0, 0, 0, 0x80, 0, 0]);
    expect(Array.from(c1!)).toEqual([2, 0, 8, 0, 22, 0, 28, 0, 0, 0x80, 0, 0x80, 0, 0x80, 0, 0x80]);
  });

  it('takes the steps of its time chunk and fills those beyond the axis', () => {
    // Time chunk of 2 steps starting at step 1: step 1 as above, then a step past the axis (all fill).
    const [c0] = encodeChunkRow(planes, { ...row, t0: 1 }, packing);
    expect(Array.from(c0!)).toEqual([18, 0, 24, 26, 0, 0, 0, 0, 0, 0x80, 0, 0, 0x80, 0x80, 0x80, 0x80]);
  });

  it('clamps to ±32767 and keeps float32 bytes for float32 variables', () => {
    const [big] = encodeChunkRow([Float32Array.of(1e9, -1e9)], { nx: 2, ny: 1, edge: 2, t0: 0, steps: 1, cy: 0 }, { dtype: 'int16', scale: 1, offset: 0 });
    // 32767 = 0x7FFF, −32767 = 0x8001; the second row of the tile is padding.
    expect(Array.from(big!)).toEqual([0xff, 0x01, 0, 0, 0x7f, 0x80, 0x80, 0x80]);
    // 1.0f = 0x3F800000, NaN = 0x7FC00000 (little-endian), shuffled by 4 bytes.
    const [f] = encodeChunkRow([Float32Array.of(1)], { nx: 1, ny: 1, edge: 2, t0: 0, steps: 1, cy: 0 }, { dtype: 'float32' });
    expect(Array.from(f!)).toEqual([0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0xc0, 0xc0, 0xc0, 0x3f, 0x7f, 0x7f, 0x7f]);
  });
});
