/**
 * weather.php's 200 body as JSON, compiled from its schema (./response-schema.ts)
 * into one function per object, as fast-json-stringify compiles it, with
 * the same bytes out: the required properties, then the others, each in
 * schema order (elapsed_ms after the Free fields), absent (undefined) ones
 * left out, numbers as `'' + n`, strings escaped as JSON.stringify escapes
 * them (fast-json-stringify's escaping gives the same text). What differs is
 * the cost: a string the schema lists in an `enum` (categories, labels, risk
 * levels) is looked up, already escaped, in a Map built here, and any other
 * string equal to the last one written at its place (a product's source
 * line) reuses that JSON, instead of being scanned on every answer; a
 * number's text comes from a table of recent ones (./number-text.ts); a
 * null, a boolean and an enum value are written with their key as one
 * constant, a piece less in the answer's string, whose pieces the write into
 * the slab then copies one by one (./body-slab.ts).
 *
 * Only plain values take the compiled path: a finite number, a string, a
 * boolean, null where the schema allows it, a plain object. Anything else
 * (NaN, ±Infinity, a missing required field, a Date, an object with toJSON)
 * gives undefined: the route then returns the object for Fastify's
 * fast-json-stringify serialiser, which answers or throws exactly as before.
 */

import { numberText } from './number-text.js';

interface Node {
  type?: string | string[];
  properties?: Record<string, Node>;
  required?: string[];
  enum?: unknown[];
}

/** Strings that JSON.stringify would not print as '"' + s + '"'. */
const NEEDS_ESCAPE = /[\u0000-\u001f"\\\ud800-\udfff]/;

/** A string as JSON (JSON.stringify's text, without its call when nothing needs escaping). */
export function jsonString(s: string): string {
  return NEEDS_ESCAPE.test(s) ? JSON.stringify(s) : `"${s}"`;
}

/**
 * Compile `schema` (objects, numbers, integers, strings with or without
 * `enum`, booleans, each optionally nullable: what the response schema
 * uses) into a serialiser; a schema using anything else is refused here, at
 * startup.
 */
export function compileResponseJson(schema: object): (body: unknown) => string | undefined {
  const enums: string[] = [];
  let memos = 0;
  const fns: string[] = [];

  const typesOf = (n: Node): string[] => (Array.isArray(n.type) ? n.type : n.type === undefined ? [] : [n.type]);

  /**
   * An expression for value `v` of schema `n` with its key before it (`BAIL` when not plain): the JSON text of
   * `"name":value`, after `{` or `,`. `key(text)` is the expression of that prefix followed by the constant `text`:
   * a value known here (null, true, false, an enum's) is written with its key as one constant, a piece less in the
   * answer's string (docs/benchmarks-journal.md, "weather.php's body: the cost is the rope").
   */
  const valueExpr = (n: Node, v: string, key: (text: string) => string, fixedKey: boolean, where: string): string => {
    const types = typesOf(n);
    const nullable = types.includes('null');
    const main = types.filter((t) => t !== 'null');
    if (main.length !== 1) throw new Error(`response-json: ${where}: type ${JSON.stringify(n.type)} is not supported`);
    const orNull = (expr: string) => (nullable ? `${v} === null ? ${key('null')} : ${expr}` : expr);
    switch (main[0]) {
      case 'number':
        // v - v === 0: finite (NaN and ±Infinity go to fast-json-stringify, which throws or prints null).
        return orNull(`typeof ${v} === 'number' && ${v} - ${v} === 0 ? ${key('')} + num(${v}) : BAIL`);
      case 'integer':
        return orNull(`Number.isInteger(${v}) ? ${key('')} + num(${v}) : BAIL`);
      case 'boolean':
        return orNull(`${v} === true ? ${key('true')} : ${v} === false ? ${key('false')} : BAIL`);
      case 'string': {
        if (!n.enum) {
          // The last string written here and its JSON: a product's source line is the same string answer after answer.
          const m = memos++;
          return orNull(`typeof ${v} === 'string' ? ${key('')} + (${v} === L${m} ? J${m} : (J${m} = str(${v}), L${m} = ${v}, J${m})) : BAIL`);
        }
        // Each enum value's text with its key, when the key's separator is known here; else the text alone.
        const values = n.enum.filter((e): e is string => typeof e === 'string');
        const entries = values.map((e) => `[${JSON.stringify(e)}, ${fixedKey ? key(jsonString(e)) : JSON.stringify(jsonString(e))}]`);
        enums.push(`new Map([${entries.join(', ')}])`);
        const e = `E${enums.length - 1}`;
        return orNull(`typeof ${v} === 'string' ? ${fixedKey ? `(${e}.get(${v}) ?? ${key('')} + str(${v}))` : `${key('')} + (${e}.get(${v}) ?? str(${v}))`} : BAIL`);
      }
      case 'object':
        return orNull(`typeof ${v} === 'object' && ${v} !== null && typeof ${v}.toJSON !== 'function' ? ((y = O${objectFn(n, where)}(${v})) === BAIL ? BAIL : ${key('')} + y) : BAIL`);
      default:
        throw new Error(`response-json: ${where}: type ${main[0]} is not supported`);
    }
  };

  /** Compile one object's function; returns its index (O<index>). */
  function objectFn(n: Node, where: string): number {
    const required = new Set(n.required ?? []);
    // fast-json-stringify writes the required properties first, each group in schema order (a stable sort).
    const props = Object.entries(n.properties ?? {}).sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
    const k = fns.length;
    fns.push('');
    // When the first property is required (every object of weather.php's schema), every later one follows a comma:
    // each key is written with its separator as one constant, no test of what came before and one string less.
    const firstRequired = props.length > 0 && required.has(props[0]![0]);
    let body = `let j = '', v, x, y;\n`;
    props.forEach(([name, p], i) => {
      const first = `{${JSON.stringify(name)}:`;
      const next = `,${JSON.stringify(name)}:`;
      // A literal in the compiled source: one flat string.
      const key = (text: string) =>
        i === 0 ? JSON.stringify(first + text) : firstRequired ? JSON.stringify(next + text) : `(j === '' ? ${JSON.stringify(first + text)} : ${JSON.stringify(next + text)})`;
      body += `v = o[${JSON.stringify(name)}];\n`;
      body += `if (v !== undefined) { x = ${valueExpr(p, 'v', key, i === 0 || firstRequired, `${where}.${name}`)}; if (x === BAIL) return BAIL; j += x; }\n`;
      if (required.has(name)) body += `else return BAIL;\n`;
    });
    body += firstRequired ? `return j + '}';` : `return j === '' ? '{}' : j + '}';`;
    fns[k] = `function O${k}(o) {\n${body}\n}`;
    return k;
  }

  const root = objectFn(schema as Node, '#');
  const enumVars = enums.map((e, i) => `const E${i} = ${e};`).join('\n');
  // Compiled once at startup from our own schema, as fast-json-stringify compiles its writers.
  const memoVars = Array.from({ length: memos }, (_, m) => `let L${m} = '', J${m} = '""';`).join('\n');
  // Strict: a name the generated code forgot to declare is an error at the first answer, not a global.
  const make = new Function('BAIL', 'str', 'num', `'use strict';\n${enumVars}\n${memoVars}\n${fns.join('\n')}\nreturn function weatherJson(body) {\n  if (typeof body !== 'object' || body === null || typeof body.toJSON === 'function') return undefined;\n  const j = O${root}(body);\n  return j === BAIL ? undefined : j;\n};`);
  return make(BAIL, jsonString, numberText) as (body: unknown) => string | undefined;
}

/** Returned by a compiled object function when a value is not plain: the body goes to fast-json-stringify. */
const BAIL = Symbol('bail');
