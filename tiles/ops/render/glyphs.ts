/**
 * A 3 × 5 pixel font for legend labels (numbers and units): enough to label
 * a PNG without a font renderer. Each glyph is five rows of three bits.
 * Characters without a glyph draw as a hollow box, visibly.
 */
const G: Record<string, string> = {
  '0': '111101101101111', '1': '010110010010111', '2': '111001111100111', '3': '111001111001111', '4': '101101111001001',
  '5': '111100111001111', '6': '111100111101111', '7': '111001010010010', '8': '111101111101111', '9': '111101111001111',
  '-': '000000111000000', '.': '000000000000010', '/': '001001010100100', '%': '101001010100101', '°': '111101111000000',
  ' ': '000000000000000', '²': '110010100110000', '³': '110010110010110', '(': '010100100100010', ')': '010001001001010',
  C: '111100100100111', K: '101110100110101', P: '111101111100100', W: '101101101111101', J: '001001001101111',
  a: '000011101101011', c: '000111100100111', d: '001111101101111', e: '111101111100111', g: '111101111001110',
  h: '100100111101101', k: '100101110110101', l: '110010010010111', m: '000111111101101', n: '000110101101101',
  o: '000111101101111', p: '000111101111100', r: '000111100100100', s: '011100010001110', t: '010111010010011',
  u: '000101101101111', y: '101101111001110', i: '010000010010010', x: '000101010010101', µ: '000101101111100',
};

export const GLYPH_W = 3;
export const GLYPH_H = 5;

/** Pixels (dx, dy) of `text` at scale `s`, one glyph column gap between characters. */
export function textPixels(text: string, s: number): { w: number; pixels: [number, number][] } {
  const pixels: [number, number][] = [];
  let x = 0;
  for (const ch of text) {
    const bits = G[ch] ?? '111101101101111'.replace(/./g, (_b, i) => (i === 4 || i === 7 || i === 10 ? '0' : '1'));
    for (let r = 0; r < GLYPH_H; r++) {
      for (let c = 0; c < GLYPH_W; c++) {
        if (bits[r * 3 + c] !== '1') continue;
        for (let a = 0; a < s; a++) for (let b = 0; b < s; b++) pixels.push([x + c * s + a, r * s + b]);
      }
    }
    x += (GLYPH_W + 1) * s;
  }
  return { w: Math.max(0, x - s), pixels };
}
