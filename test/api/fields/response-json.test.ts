/**
 * weather.php's compiled JSON writer (api/fields/response-json.ts): the text is
 * written out by hand here, in fast-json-stringify's order (required
 * properties first, then the optional ones, each in schema order), and every
 * value it does not take plainly gives undefined (the route then hands the
 * object to Fastify's serialiser).
 */
import { describe, expect, it } from 'vitest';
import { compileResponseJson, jsonString } from '../../../api/fields/response-json.js';
import { weatherJson } from '../../../api/fields/response-schema.js';

const SCHEMA = {
  type: 'object',
  properties: {
    note: { type: ['string', 'null'] },
    n: { type: 'number' },
    level: { type: 'string', enum: ['low', 'very "high"'] },
    flag: { type: 'boolean' },
    count: { type: 'integer' },
    inner: { type: ['object', 'null'], properties: { a: { type: ['number', 'null'] }, b: { type: 'string' } }, required: ['a'] },
  },
  required: ['n', 'level'],
};
const write = compileResponseJson(SCHEMA);

describe('compiled response JSON', () => {
  it('writes the required properties first, then the others present, each in schema order', () => {
    expect(write({ note: 'x', n: -2.5, level: 'low', flag: true, count: 3, inner: { b: 'y', a: null } })).toBe(
      '{"n":-2.5,"level":"low","note":"x","flag":true,"count":3,"inner":{"a":null,"b":"y"}}',
    );
    expect(write({ n: 0, level: 'low' })).toBe('{"n":0,"level":"low"}');
    expect(write({ n: 1e21, level: 'low', note: null, inner: null, extra: 'not in the schema' })).toBe('{"n":1e+21,"level":"low","note":null,"inner":null}');
  });

  it('writes an object without required properties, the first present one after "{" whichever it is', () => {
    const loose = compileResponseJson({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'string' }, c: { type: 'boolean' } } });
    expect(loose({})).toBe('{}');
    expect(loose({ b: 'x' })).toBe('{"b":"x"}');
    expect(loose({ c: false, b: 'x' })).toBe('{"b":"x","c":false}');
    expect(loose({ a: -0, c: true })).toBe('{"a":0,"c":true}');
  });

  it('escapes strings as JSON.stringify does, enum values included', () => {
    expect(write({ n: 1, level: 'very "high"' })).toBe('{"n":1,"level":"very \\"high\\""}');
    expect(write({ n: 1, level: 'low', note: 'a\\b\n\u0001' })).toBe('{"n":1,"level":"low","note":"a\\\\b\\n\\u0001"}');
    // A lone surrogate is escaped, a pair and U+2212 are written as they are.
    expect(write({ n: 1, level: 'low', note: '\ud800 \ud83d\ude00 \u2212' })).toBe('{"n":1,"level":"low","note":"\\ud800 \ud83d\ude00 \u2212"}');
    // Not an enum value: still escaped, not refused (the serialiser does not validate).
    expect(write({ n: 1, level: 'mid' })).toBe('{"n":1,"level":"mid"}');
    for (const s of ['plain', 'q"', 'b\\', 'c\u001f', '\ud83d', '°C → −']) expect(jsonString(s)).toBe(JSON.stringify(s));
  });

  it('writes each string anew when it differs from the last one written at its place', () => {
    const seq = ['a', 'a', 'b"', 'a', '', 'a'];
    expect(seq.map((note) => write({ n: 1, level: 'low', note }))).toEqual(seq.map((note) => `{"n":1,"level":"low","note":${JSON.stringify(note)}}`));
  });

  it('declines what is not plain: non-finite numbers, a missing required field, wrong types, toJSON', () => {
    expect(write({ n: NaN, level: 'low' })).toBeUndefined();
    expect(write({ n: Infinity, level: 'low' })).toBeUndefined();
    expect(write({ level: 'low' })).toBeUndefined();
    expect(write({ n: '1', level: 'low' })).toBeUndefined();
    expect(write({ n: 1, level: 'low', count: 1.5 })).toBeUndefined();
    expect(write({ n: 1, level: 'low', inner: { b: 'y' } })).toBeUndefined();
    expect(write({ n: 1, level: 'low', note: new Date(0) })).toBeUndefined();
    expect(write({ n: 1, level: 'low', inner: { a: 1, b: 'y', toJSON: () => ({}) } })).toBeUndefined();
    expect(write(null)).toBeUndefined();
  });

  it('refuses a schema construct it does not compile', () => {
    expect(() => compileResponseJson({ type: 'object', properties: { a: { type: 'array', items: { type: 'number' } } } })).toThrow(/not supported/);
    expect(() => compileResponseJson({ type: 'object', properties: { a: { anyOf: [{ type: 'number' }, { type: 'string' }] } } })).toThrow(/not supported/);
  });

  it('writes a Free answer with elapsed_ms after valid_time (the schema requires every Free field and elapsed_ms)', () => {
    const body = {
      icon: 'clear-night', condition: 'clear', temperature: 11.9, temperature_source: 'nwp 2.2 km bilinear, altitude-corrected 160 m → 300 m (alt), lapse 6.5 K/km',
      dew_point: 3.5, humidity: 56, pressure_msl: 1011.4, wind_speed: 6.6, wind_direction: 0, wind_gust: null,
      temperature_trend_3h: { delta: -2.9, label: 'in calo, −2,9 °C in 3 ore' }, valid_time: '2026-11-26T23:29:32.804Z', elapsed_ms: 0.125,
    };
    expect(weatherJson(body)).toBe(
      '{"icon":"clear-night","condition":"clear","temperature":11.9,"temperature_source":"nwp 2.2 km bilinear, altitude-corrected 160 m → 300 m (alt), lapse 6.5 K/km",' +
        '"dew_point":3.5,"humidity":56,"pressure_msl":1011.4,"wind_speed":6.6,"wind_direction":0,"wind_gust":null,' +
        '"temperature_trend_3h":{"delta":-2.9,"label":"in calo, −2,9 °C in 3 ore"},"valid_time":"2026-11-26T23:29:32.804Z","elapsed_ms":0.125}',
    );
  });
});
