/**
 * Requests generated from an OpenAPI operation's own parameter schemas, as
 * Schemathesis does it: each parameter is drawn valid by its schema (number
 * in its bounds, a value of its enum, a string matching its pattern or within
 * its maxLength, a `form`/`explode: false` list of its items), or invalid
 * against it (out of bounds, not a number, outside the enum, breaking the
 * pattern, too long, an unknown list item), or left out; plus an unknown
 * parameter or a repeated one now and then. The key goes where one of the
 * operation's security alternatives puts it (query parameter or header).
 */
import fc from 'fast-check';

export interface JsonSchema {
  type?: string | string[];
  minimum?: number;
  maximum?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  enum?: unknown[];
  items?: JsonSchema;
}

export interface Parameter {
  name: string;
  in: 'query' | 'header' | 'path' | 'cookie';
  required?: boolean;
  schema: JsonSchema;
  style?: string;
  explode?: boolean;
}

export interface SecurityScheme {
  type: string;
  in: 'query' | 'header';
  name: string;
}

/** One generated request: query pairs in order (a name may repeat) and headers. */
export interface Case {
  query: Array<[string, string]>;
  headers: Record<string, string>;
  /** What was drawn, for the report: parameter → valid | invalid | absent. */
  drawn: Record<string, 'valid' | 'invalid' | 'absent'>;
}

/** Numbers as a client writes them: integers, and decimals with 0 to 6 digits. */
function numberIn(min: number, max: number): fc.Arbitrary<string> {
  return fc.oneof(
    fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).map(String),
    fc.tuple(fc.double({ min, max, noNaN: true, noDefaultInfinity: true }), fc.integer({ min: 1, max: 6 })).map(([x, d]) => x.toFixed(d)),
  );
}

/** Any text, ASCII or not. */
const anyText = (maxLength: number) => fc.oneof(fc.string({ maxLength }), fc.string({ unit: 'grapheme', maxLength }));

export function validValue(s: JsonSchema): fc.Arbitrary<string> {
  if (s.enum) return fc.constantFrom(...s.enum.map(String));
  if (s.type === 'number' || s.type === 'integer') return numberIn(s.minimum ?? -1e6, s.maximum ?? 1e6);
  if (s.type === 'array' && s.items?.enum) {
    return fc.uniqueArray(fc.constantFrom(...s.items.enum.map(String)), { minLength: Math.max(1, s.minItems ?? 1) }).map((a) => a.join(','));
  }
  if (s.pattern) return fc.stringMatching(new RegExp(s.pattern));
  return anyText(Math.min(s.maxLength ?? 80, 80));
}

const NOT_NUMBERS = ['', ' ', 'abc', 'NaN', 'Infinity', '-Infinity', '1e400', '0x2A', '4,3', '43.', '+43', '43abc', '１２', 'null', '1/2'];

export function invalidValue(s: JsonSchema): fc.Arbitrary<string> {
  if (s.enum) {
    const allowed = new Set(s.enum.map(String));
    return fc.oneof(fc.constantFrom(...[...allowed].map((v) => v.toUpperCase())).filter((v) => !allowed.has(v)), anyText(20).filter((v) => !allowed.has(v)));
  }
  if (s.type === 'number' || s.type === 'integer') {
    const out: fc.Arbitrary<string>[] = [fc.constantFrom(...NOT_NUMBERS), anyText(12).filter((v) => !/^\s*[-+]?\d/.test(v))];
    if (s.minimum !== undefined) out.push(fc.double({ max: s.minimum, maxExcluded: true, noNaN: true, noDefaultInfinity: true, min: s.minimum - 1e4 }).map((x) => x.toFixed(3)).filter((v) => Number(v) < s.minimum!));
    if (s.maximum !== undefined) out.push(fc.double({ min: s.maximum, minExcluded: true, noNaN: true, noDefaultInfinity: true, max: s.maximum + 1e4 }).map((x) => x.toFixed(3)).filter((v) => Number(v) > s.maximum!));
    return fc.oneof(...out);
  }
  if (s.type === 'array' && s.items?.enum) {
    const allowed = s.items.enum.map(String);
    return fc.oneof(
      fc.constant(''),
      fc.tuple(fc.subarray(allowed), fc.string({ minLength: 1, maxLength: 12 }).filter((v) => !allowed.includes(v.trim().toLowerCase()) && !v.includes(','))).map(([a, bad]) => [...a, bad].join(',')),
      fc.constantFrom(...allowed).map((g) => `${g},,`),
    );
  }
  if (s.pattern) {
    const re = new RegExp(s.pattern);
    return anyText(30).filter((v) => !re.test(v));
  }
  if (s.maxLength !== undefined) return fc.string({ minLength: s.maxLength + 1, maxLength: s.maxLength + 40 });
  return fc.constant('\u0000');
}

type Draw = { kind: 'valid' | 'invalid'; value: string } | { kind: 'absent' };

function draw(p: Parameter): fc.Arbitrary<Draw> {
  return fc.oneof(
    { weight: 8, arbitrary: validValue(p.schema).map((value): Draw => ({ kind: 'valid', value })) },
    { weight: 1, arbitrary: invalidValue(p.schema).map((value): Draw => ({ kind: 'invalid', value })) },
    { weight: p.required ? 1 : 6, arbitrary: fc.constant<Draw>({ kind: 'absent' }) },
  );
}

/**
 * Cases for an operation: its parameters drawn as above, `key` (or none)
 * placed by one of its security alternatives, `headers` drawn from the given
 * choices (e.g. a browser's Origin).
 */
export function cases(parameters: readonly Parameter[], security: readonly SecurityScheme[], keys: readonly (string | null)[], headers: Record<string, readonly (string | null)[]> = {}): fc.Arbitrary<Case> {
  const params = parameters.filter((p) => p.in === 'query' || p.in === 'header');
  const extraHeaders = Object.entries(headers).map(([name, values]) => fc.constantFrom(...values).map((v) => [name, v] as const));
  return fc
    .record({
      draws: fc.tuple(...params.map(draw)),
      key: fc.constantFrom(...keys),
      scheme: fc.constantFrom(...security),
      extra: fc.tuple(...extraHeaders),
      noise: fc.oneof(
        { weight: 12, arbitrary: fc.constant<null>(null) },
        { weight: 1, arbitrary: fc.tuple(fc.stringMatching(/^[a-z_]{1,12}$/), anyText(10)).map(([n, v]) => ({ kind: 'unknown' as const, name: `x_${n}`, value: v })) },
        { weight: 1, arbitrary: fc.constantFrom(...params.filter((p) => p.in === 'query')).map((p) => ({ kind: 'repeat' as const, name: p.name, value: '' })) },
      ),
    })
    .map(({ draws, key, scheme, extra, noise }) => {
      const c: Case = { query: [], headers: {}, drawn: {} };
      params.forEach((p, i) => {
        const d = draws[i]!;
        c.drawn[p.name] = d.kind;
        if (d.kind === 'absent') return;
        if (p.in === 'query') c.query.push([p.name, d.value]);
        else c.headers[p.name] = d.value.replace(/[^\x20-\x7e]/g, '');
      });
      if (key !== null) {
        if (scheme.in === 'query') c.query.push([scheme.name, key]);
        else c.headers[scheme.name] = key;
      }
      for (const [name, value] of extra) if (value !== null) c.headers[name] = value;
      if (noise?.kind === 'unknown') c.query.push([noise.name, noise.value]);
      if (noise?.kind === 'repeat') {
        const first = c.query.find(([n]) => n === noise.name);
        c.query.push([noise.name, first ? first[1] : '']);
      }
      return c;
    });
}
