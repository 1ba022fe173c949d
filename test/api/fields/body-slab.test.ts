/**
 * Bodies cut from slabs (api/fields/body-slab.ts): what a writer writes
 * where reserve() says and takes is its body, and keeps its bytes while
 * later ones are made.
 */
import { describe, expect, it } from 'vitest';
import { assembleBody, currentSlab, currentView, reserve, take } from '../../../api/fields/body-slab.js';

/** `text` written as a writer of its own does (byte by byte through the slab, or as words through its view). */
function written(text: string, byWords: boolean): Buffer {
  const bytes = Buffer.from(text, 'utf8');
  const start = reserve(bytes.length + 4);
  if (byWords) {
    const view = currentView();
    for (let i = 0; i < bytes.length; i += 4) view.setUint32(start + i, Buffer.concat([bytes.subarray(i, i + 4), Buffer.alloc(4)]).readUInt32LE(0), true);
  } else {
    const slab = currentSlab();
    for (let i = 0; i < bytes.length; i++) slab[start + i] = bytes[i]!;
  }
  return take(start, start + bytes.length);
}

describe('body slab', () => {
  it('assembles fixed parts and texts in turn', () => {
    const frame = [Buffer.from('<a>'), Buffer.from('</a><b>'), Buffer.from('</b>')];
    expect(assembleBody(frame, ['°C', 'umidità']).toString('utf8')).toBe('<a>°C</a><b>umidità</b>');
    // A lone surrogate as U+FFFD, as Buffer.from encodes it.
    expect([...assembleBody([Buffer.from('['), Buffer.from(']')], ['x\ud800'])]).toEqual([0x5b, 0x78, 0xef, 0xbf, 0xbd, 0x5d]);
  });

  it('keeps every body while many more, some larger than a slab, are made; its view shows the same bytes', () => {
    const texts = Array.from({ length: 3000 }, (_, i) => `{"n":${i},"s":"→ ${'x'.repeat(i % 97)}"}`);
    texts.push('→'.repeat(40_000));
    texts.push('{"after":"the large one"}');
    const bodies = texts.map((t, i) => written(t, i % 2 === 1));
    bodies.forEach((b, i) => expect(b.toString('utf8')).toBe(texts[i]));
  });
});
