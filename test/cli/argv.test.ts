/** cli/argv.ts: which words are joined (`--lon -2.85` → `--lon=-2.85`) and which are left alone. */
import { parseArgs } from 'node:util';
import { describe, expect, it } from 'vitest';
import { joinNegativeValues } from '../../cli/argv.js';

describe('joinNegativeValues', () => {
  it('joins a negative number to the long option before it, so that node:util parseArgs reads it as the value', () => {
    const words = ['point', 'cams', '--lat', '-33.9', '--lon', '-2.85', '--x', '-.5', '--y', '-1e-3', '--json'];
    expect(() => parseArgs({ args: words, allowPositionals: true, strict: true, options: { lat: { type: 'string' }, lon: { type: 'string' }, x: { type: 'string' }, y: { type: 'string' }, json: { type: 'boolean' } } })).toThrow(/ambiguous/);
    const joined = joinNegativeValues(words);
    expect(joined).toEqual(['point', 'cams', '--lat=-33.9', '--lon=-2.85', '--x=-.5', '--y=-1e-3', '--json']);
    const { values } = parseArgs({ args: joined, allowPositionals: true, strict: true, options: { lat: { type: 'string' }, lon: { type: 'string' }, x: { type: 'string' }, y: { type: 'string' }, json: { type: 'boolean' } } });
    expect(values).toEqual({ lat: '-33.9', lon: '-2.85', x: '-.5', y: '-1e-3', json: true });
  });

  it('leaves alone what is not a negative number after a long option, and everything after --', () => {
    const words = ['--lon=-2', '-h', '--name', '-x', '--a', '-', '--b', '-1a', '--', '--c', '-1'];
    expect(joinNegativeValues(words)).toEqual(words);
  });
});
