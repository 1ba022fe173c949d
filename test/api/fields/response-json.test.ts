/**
 * weather.php's compiled JSON writer (api/fields/response-json.ts): the text is
 * written out by hand here, in fast-json-stringify's order (required
 * properties first, then the optional ones, each in schema order), and every
 * value it does not take plainly gives undefined (the route then hands the
 * object to Fastify's serialiser). The writer gives bytes: each is checked to
 * be the UTF-8 of the text it decodes to, and that text is compared.
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
/** The body's text, after checking that the bytes are exactly its UTF-8 (no stray or missing byte). */
function text(bytes: Buffer | undefined): string | undefined {
  if (bytes === undefined) return undefined;
  const t = bytes.toString('utf8');
  expect(Buffer.from(t, 'utf8')).toEqual(bytes);
  return t;
}
const asText = (w: (body: unknown) => Buffer | undefined) => (body: unknown) => text(w(body));
const write = asText(compileResponseJson(SCHEMA));

describe('compiled response JSON', () => {
  it('writes the required properties first, then the others present, each in schema order', () => {
    expect(write({ note: 'x', n: -2.5, level: 'low', flag: true, count: 3, inner: { b: 'y', a: null } })).toBe(
      '{"n":-2.5,"level":"low","note":"x","flag":true,"count":3,"inner":{"a":null,"b":"y"}}',
    );
    expect(write({ n: 0, level: 'low' })).toBe('{"n":0,"level":"low"}');
    expect(write({ n: 1e21, level: 'low', note: null, inner: null, extra: 'not in the schema' })).toBe('{"n":1e+21,"level":"low","note":null,"inner":null}');
  });

  it('writes an object without required properties, the first present one after "{" whichever it is', () => {
    const loose = asText(compileResponseJson({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'string' }, c: { type: 'boolean' } } }));
    expect(loose({})).toBe('{}');
    expect(loose({ b: 'x' })).toBe('{"b":"x"}');
    expect(loose({ c: false, b: 'x' })).toBe('{"b":"x","c":false}');
    expect(loose({ a: -0, c: true })).toBe('{"a":0,"c":true}');
  });

  it('writes null, booleans and enum values, known in advance, after "{" or "," as the object needs', () => {
    const loose = asText(compileResponseJson({
      type: 'object',
      properties: { a: { type: ['number', 'null'] }, e: { type: ['string', 'null'], enum: ['x', 'y"'] }, b: { type: ['boolean', 'null'] } },
    }));
    expect(loose({ e: 'x' })).toBe('{"e":"x"}');
    expect(loose({ a: null, e: 'y"', b: false })).toBe('{"a":null,"e":"y\\"","b":false}');
    expect(loose({ e: null, b: true })).toBe('{"e":null,"b":true}');
    expect(loose({ b: null })).toBe('{"b":null}');
    expect(loose({ a: 2, e: 'not listed' })).toBe('{"a":2,"e":"not listed"}');
    expect(loose({ e: 'z\n', b: null })).toBe('{"e":"z\\n","b":null}');
    expect(write({ n: 1, level: 'low', flag: false, inner: { a: null, b: 'q' }, note: null })).toBe('{"n":1,"level":"low","note":null,"flag":false,"inner":{"a":null,"b":"q"}}');
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
    expect(text(weatherJson(body))).toBe(
      '{"icon":"clear-night","condition":"clear","temperature":11.9,"temperature_source":"nwp 2.2 km bilinear, altitude-corrected 160 m → 300 m (alt), lapse 6.5 K/km",' +
        '"dew_point":3.5,"humidity":56,"pressure_msl":1011.4,"wind_speed":6.6,"wind_direction":0,"wind_gust":null,' +
        '"temperature_trend_3h":{"delta":-2.9,"label":"in calo, −2,9 °C in 3 ore"},"valid_time":"2026-11-26T23:29:32.804Z","elapsed_ms":0.125}',
    );
  });

  // What the route sends (api/routes/weather.ts): the writer's text encoded into a slab. The oracle is JSON.stringify's
  // text UTF-8 encoded by Buffer.from, on a body whose keys are in the writer's order (the schema's required fields).
  const freeBody = (source: string, label: string) => ({
    icon: 'cloudy', condition: 'overcast', temperature: -0.5, temperature_source: source, dew_point: -3, humidity: 80, pressure_msl: 1020.25,
    wind_speed: 0, wind_direction: 359, wind_gust: 14.4, temperature_trend_3h: { delta: 0.3, label }, valid_time: '2026-11-27T15:00:00.000Z', elapsed_ms: 0.5,
  });

  it('sends a body holding "→" and "°" as the UTF-8 of JSON.stringify\'s text', () => {
    const body = freeBody('nwp 2.2 km bilinear, altitude-corrected 160 m → 1200 m (alt), lapse 6.5 K/km', 'in aumento, +0,3 °C in 3 ore');
    const sent = weatherJson(body)!;
    expect(sent).toEqual(Buffer.from(JSON.stringify(body), 'utf8'));
    // → is E2 86 92, ° is C2 B0 on the wire.
    expect(sent.includes(Buffer.from([0x20, 0xe2, 0x86, 0x92, 0x20]))).toBe(true);
    expect(sent.includes(Buffer.from([0x2c, 0x33, 0x20, 0xc2, 0xb0, 0x43]))).toBe(true);
  });

  it('sends a lone surrogate escaped, as JSON.stringify writes it, and a pair as its four bytes', () => {
    const body = freeBody('lone \ud800 high, lone \udfff low, then a pair \ud83d\ude00', 'tab\there "quoted" \\ −');
    const sent = weatherJson(body)!;
    expect(sent).toEqual(Buffer.from(JSON.stringify(body), 'utf8'));
    expect(sent.toString('latin1')).toContain('lone \\ud800 high, lone \\udfff low, then a pair \xf0\x9f\x98\x80');
  });

  // The oracle for the bytes: JSON.stringify's text of a body whose keys are in the writer's order, as Buffer.from encodes it.
  const one = compileResponseJson({ type: 'object', properties: { s: { type: 'string' }, n: { type: 'number' } }, required: ['s'] });

  it('writes every kind of character as the UTF-8 of JSON.stringify: escapes, 1 to 4 bytes, lone surrogates', () => {
    const units = [0x00, 0x08, 0x09, 0x0a, 0x0c, 0x0d, 0x1f, 0x20, 0x22, 0x2f, 0x5c, 0x7e, 0x7f, 0x80, 0xb0, 0xff, 0x100, 0x7ff, 0x800, 0x2028, 0x2192, 0x2212, 0xfeff, 0xfffd, 0xffff];
    const strings = units.map((u) => `a${String.fromCharCode(u)}b`);
    strings.push('\ud800', '\udbff\udfff', '\udc00\ud800', 'x\ud83d', '\ude00y', '\ud83d\ude00\ud83d', '', '"', '\\', '→ sola', 'é'.repeat(300));
    for (const s of strings) {
      expect(one({ s })).toEqual(Buffer.from(JSON.stringify({ s }), 'utf8'));
      expect(one({ s, n: -0.5 })).toEqual(Buffer.from(JSON.stringify({ s, n: -0.5 }), 'utf8'));
    }
  });

  it('writes a body whose strings need more room than its first try', () => {
    // 3 bytes for each of 20,000 units, far beyond the room a body is first given: written again with what it needs.
    // Escapes take up to 6 bytes a unit ("\u0001"): 20,000 of them are 120 KB, more than a slab.
    for (const s of ['→'.repeat(20_000), 'a'.repeat(50_000) + '\ud800', `${'x'.repeat(9_000)}"${'°'.repeat(9_000)}`, '\u0001'.repeat(20_000)]) {
      expect(one({ s, n: 1 })).toEqual(Buffer.from(JSON.stringify({ s, n: 1 }), 'utf8'));
    }
    const several = compileResponseJson({
      type: 'object',
      properties: { a: { type: 'string' }, b: { type: 'string' }, c: { type: 'object', properties: { d: { type: 'string' } }, required: ['d'] } },
      required: ['a'],
    });
    const body = { a: 'é'.repeat(1_000), b: '→'.repeat(3_000), c: { d: '−'.repeat(2_000) } };
    expect(several(body)).toEqual(Buffer.from(JSON.stringify(body), 'utf8'));
  });

  it('writes enum values holding non-ASCII or escaped characters, with a known key or not, and values not listed', () => {
    const en = compileResponseJson({
      type: 'object',
      properties: { k: { type: 'string', enum: ['più', 'a"b', '→'] }, m: { type: 'string', enum: ['più', 'tab\t'] } },
    });
    for (const body of [{ k: 'più', m: 'tab\t' }, { m: 'più' }, { k: 'a"b' }, { k: '→', m: 'no' }, { k: 'nope →', m: 'più' }]) {
      expect(en(body)).toEqual(Buffer.from(JSON.stringify(body), 'utf8'));
    }
  });

  it('keeps every body intact while thousands more are written after it, across slab ends', () => {
    const bodies = Array.from({ length: 4_000 }, (_, i) => ({ s: `${i} → ${'é'.repeat(i % 301)}`, n: i / 8 }));
    const sent = bodies.map((b) => one(b)!);
    sent.forEach((b, i) => expect(b).toEqual(Buffer.from(JSON.stringify(bodies[i]), 'utf8')));
  });

  it('writes a string written again from its bytes only while those bytes are a body sent, not one declined', () => {
    const w = compileResponseJson({ type: 'object', properties: { n: { type: 'number' }, a: { type: 'string' }, s: { type: 'string' } }, required: ['n'] });
    const same = (body: object) => expect(w(body)).toEqual(Buffer.from(JSON.stringify(body), 'utf8'));
    same({ n: 0, a: 'source → line' });
    // Declined after its string is written (s is not a string): those bytes are not a body, the next one writes over them.
    expect(w({ n: 1, a: 'other → line', s: 5 })).toBeUndefined();
    same({ n: 2, s: 'written where the declined body was, over its string' });
    same({ n: 3, a: 'other → line' });
    same({ n: 4, a: 'other → line', s: 'again, from the bytes of the body before' });
    same({ n: 5, a: 'source → line' });
  });
});
