/**
 * Bodies cut from slabs (api/fields/body-slab.ts): each is the text's UTF-8,
 * as Buffer.from encodes it, and keeps its bytes while later ones are made.
 */
import { describe, expect, it } from 'vitest';
import { assembleBody, utf8Body } from '../../../api/fields/body-slab.js';

describe('body slab', () => {
  it('encodes a text as Buffer.from does: ASCII, Latin-1, above U+00FF, a pair, a lone surrogate', () => {
    for (const t of ['', '{"a":1}', 'in calo, −2,9 °C in 3 ore', '160 m → 184 m', 'x\ud83d\ude00y', 'lone \ud800 end']) {
      expect(utf8Body(t)).toEqual(Buffer.from(t, 'utf8'));
    }
    expect([...utf8Body('°→')]).toEqual([0xc2, 0xb0, 0xe2, 0x86, 0x92]);
  });

  it('assembles fixed parts and texts in turn', () => {
    const frame = [Buffer.from('<a>'), Buffer.from('</a><b>'), Buffer.from('</b>')];
    expect(assembleBody(frame, ['°C', 'umidità']).toString('utf8')).toBe('<a>°C</a><b>umidità</b>');
  });

  it('keeps every body while many more, some larger than a slab, are made', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"s":"→ ${'x'.repeat(i % 97)}"}`);
    texts.push('→'.repeat(40_000));
    const bodies = texts.map(utf8Body);
    bodies.forEach((b, i) => expect(b.toString('utf8')).toBe(texts[i]));
  });
});
