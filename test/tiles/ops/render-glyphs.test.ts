/**
 * The legend font draws every character of every catalogue unit, and those
 * characters, digits and signs are told apart: any two glyphs differ in at
 * least two pixels (regression: `g` differed from `9` by one pixel, so
 * `µg/m³` read `µ9/m3`; `M` had no glyph and drew as a box, so `WMO 4677`
 * read `WOO 4677`).
 */
import { describe, expect, it } from 'vitest';
import { PRODUCTS } from '../../../ingest/products/registry.js';
import { glyph } from '../../../tiles/ops/render/glyphs.js';

const units = [...new Set(Object.values(PRODUCTS).flatMap((p) => [...Object.values(p.variables), ...Object.values(p.auxiliary)].map((v) => v.units)))];
const used = [...new Set([...units.join(''), ...'0123456789-.'])].filter((c) => c !== ' ');

describe('legend font', () => {
  it('has a glyph for every character of the catalogue units and the tick labels', () => {
    expect(units).toContain('µg/m³');
    expect(units).toContain('WMO 4677');
    expect(used.filter((c) => glyph(c) === undefined)).toEqual([]);
  });

  it('any two of those glyphs differ in two pixels or more', () => {
    const ink = (c: string) => new Set(glyph(c)!.ink.map(([x, y]) => `${x},${y}`));
    const close: string[] = [];
    for (let i = 0; i < used.length; i++) {
      for (let j = i + 1; j < used.length; j++) {
        const a = ink(used[i]!);
        const b = ink(used[j]!);
        const d = [...a].filter((p) => !b.has(p)).length + [...b].filter((p) => !a.has(p)).length;
        if (d < 2) close.push(`${used[i]}/${used[j]}`);
      }
    }
    expect(close).toEqual([]);
  });
});
