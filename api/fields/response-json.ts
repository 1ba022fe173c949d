/**
 * weather.php's 200 body as the UTF-8 bytes of its JSON, compiled from its
 * schema (./response-schema.ts) into one function per object, as
 * fast-json-stringify compiles it, with the same text out: the required
 * properties, then the others, each in schema order (elapsed_ms after the
 * Free fields), absent (undefined) ones left out, numbers as `'' + n`
 * (./number-text.ts), strings escaped as JSON.stringify escapes them
 * (fast-json-stringify's escaping gives the same text). What differs is the
 * cost: the functions write the bytes into a slab (./body-slab.ts) as they
 * go; no string of the whole is built. The keys, with their separators and
 * any value known here (null, true, false, an enum's), are constants stored
 * as 32-bit words; a number's text comes as two words from a table of recent
 * ones; a string is encoded by a JS loop (./string-bytes.ts), or copied from
 * the last body when it is the one written at its place then (a source line).
 *
 * Why bytes: a body built as a string is a rope of ~300 pieces that V8
 * must flatten (a copy, ~3 µs for a Business answer on this machine) and
 * then encode as UTF-8 (~2 µs more: every answer holds "→" or "°", and V8's
 * UTF-8 writer goes character by character); writing the bytes directly
 * costs less than building the rope did (docs/benchmarks-journal.md,
 * "weather.php's body written as bytes").
 *
 * Only plain values take the compiled path: a finite number, a string, a
 * boolean, null where the schema allows it, a plain object. Anything else
 * (NaN, ±Infinity, a missing required field, a Date, an object with toJSON)
 * gives undefined: the route then returns the object for Fastify's
 * fast-json-stringify serialiser, which answers or throws exactly as before.
 */

import { NUMBER_ROOM, putNumber } from './number-text.js';
import { putUtf8, writeString } from './string-bytes.js';
import { currentSlab, currentView, reserve, take } from './body-slab.js';

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
 * Bytes the strings may still take in the body being written: {@link putText} takes from it, and past it writes
 * nothing and counts what it needed in {@link wanted} (then the body is written again with that much room).
 */
let room = 0;
let wanted = 0;

/** `s` as a JSON string into `buf` from `at`: the end; nothing written when the room left is short. */
function putString(buf: Buffer, at: number, s: string): number {
  // Without escapes a UTF-16 unit takes at most 3 bytes; with them the text is JSON.stringify's, bounded the same way.
  if (3 * s.length + 2 <= room) {
    const end = writeString(buf, at, s);
    if (end >= 0) {
      room -= end - at;
      wanted += end - at;
      return end;
    }
  }
  return putText(buf, at, jsonString(s));
}

/** JSON text `t` (no lone surrogate: JSON.stringify escapes them) into `buf` from `at`, within the room. */
function putText(buf: Buffer, at: number, t: string): number {
  const need = 3 * t.length;
  if (need > room) {
    wanted += need;
    return at;
  }
  const end = putUtf8(buf, at, t);
  room -= end - at;
  wanted += end - at;
  return end;
}

/** `words` (its byte length, then the bytes as little-endian 32-bit words) into `view` from `at`: the end. */
function putWords(view: DataView, at: number, words: Int32Array): number {
  const n = words[0]!;
  for (let i = 1, j = 0; j < n; i++, j += 4) view.setInt32(at + j, words[i]!, true);
  return at + n;
}

/** `bytes` as {@link putWords} takes them. */
function wordsOf(bytes: Buffer): Int32Array {
  const padded = Buffer.alloc(Math.ceil(bytes.length / 4) * 4);
  bytes.copy(padded);
  const words = new Int32Array(1 + padded.length / 4);
  words[0] = bytes.length;
  for (let i = 0; i < padded.length; i += 4) words[1 + i / 4] = padded.readInt32LE(i);
  return words;
}

/**
 * Compile `schema` (objects, numbers, integers, strings with or without
 * `enum`, booleans, each optionally nullable: what the response schema
 * uses) into a writer of the body's bytes, cut from the bodies' slab; a
 * schema using anything else is refused here, at startup.
 */
export function compileResponseJson(schema: object): (body: unknown) => Buffer | undefined {
  const enums: Map<string, Int32Array>[] = [];
  const fns: string[] = [];
  /** Places of strings that are not enum values (memo slots, below). */
  let memos = 0;
  /** The most bytes a body takes besides its strings that are not enum values (all present, each at its longest). */
  let fixedRoom = 0;

  const typesOf = (n: Node): string[] => (Array.isArray(n.type) ? n.type : n.type === undefined ? [] : [n.type]);
  /**
   * Statements storing the constant `text`'s UTF-8 bytes: 32-bit words written as literals, the last one's bytes
   * past the text's end (up to 3) left for what is written next. A loop over the bytes costs ~2 ns a byte here,
   * these ~0.4.
   */
  const put = (text: string): string => {
    const words = wordsOf(Buffer.from(text, 'utf8'));
    fixedRoom += 4 * (words.length - 1);
    let code = '';
    for (let w = 1; w < words.length; w++) code += `view.setInt32(at${w > 1 ? ` + ${4 * (w - 1)}` : ''}, ${words[w]}, true); `;
    return `${code}at += ${words[0]};`;
  };

  /**
   * Statements writing value `v` of schema `n` with its key before it (`return -1` when not plain), after `{` or
   * `,`. `key(text)` is a statement writing that prefix followed by the constant `text`: a value known here (null,
   * true, false, an enum's) is written with its key as one constant. `prefix`: the key's text with its separator
   * when it is known here (every property of an object whose first property is required).
   */
  const valueCode = (n: Node, key: (text: string) => string, prefix: string | undefined, where: string): string => {
    const types = typesOf(n);
    const nullable = types.includes('null');
    const main = types.filter((t) => t !== 'null');
    if (main.length !== 1) throw new Error(`response-json: ${where}: type ${JSON.stringify(n.type)} is not supported`);
    const orNull = (code: string) => (nullable ? `if (v === null) { ${key('null')} } else ${code}` : code);
    switch (main[0]) {
      case 'number':
        fixedRoom += NUMBER_ROOM;
        // v - v === 0: finite (NaN and ±Infinity go to fast-json-stringify, which throws or prints null).
        return orNull(`if (typeof v === 'number' && v - v === 0) { ${key('')} at = putNumber(view, at, v); } else return -1;`);
      case 'integer':
        fixedRoom += NUMBER_ROOM;
        return orNull(`if (Number.isInteger(v)) { ${key('')} at = putNumber(view, at, v); } else return -1;`);
      case 'boolean':
        return orNull(`if (v === true) { ${key('true')} } else if (v === false) { ${key('false')} } else return -1;`);
      case 'string': {
        if (!n.enum) return orNull(`if (typeof v === 'string') { ${key('')} at = putRepeated(buf, view, at, v, ${memos++}); } else return -1;`);
        // Each enum value's bytes, with its key when the key's separator is known here.
        const map = new Map<string, Int32Array>();
        for (const e of n.enum) if (typeof e === 'string') map.set(e, wordsOf(Buffer.from((prefix ?? '') + jsonString(e), 'utf8')));
        fixedRoom += Math.max(0, ...[...map.values()].map((w) => 4 * (w.length - 1)));
        enums.push(map);
        const e = `E${enums.length - 1}`;
        return orNull(
          prefix !== undefined
            ? `if (typeof v === 'string') { if ((y = ${e}.get(v)) !== undefined) at = putWords(view, at, y); else { ${key('')} at = putString(buf, at, v); } } else return -1;`
            : `if (typeof v === 'string') { ${key('')} at = (y = ${e}.get(v)) !== undefined ? putWords(view, at, y) : putString(buf, at, v); } else return -1;`,
        );
      }
      case 'object':
        return orNull(`if (typeof v === 'object' && v !== null && typeof v.toJSON !== 'function') { ${key('')} if ((at = O${objectFn(n, where)}(v, buf, view, at)) < 0) return -1; } else return -1;`);
      default:
        throw new Error(`response-json: ${where}: type ${main[0]} is not supported`);
    }
  };

  /** Compile one object's function (O<index>(o, buf, view, at): the end, or -1 when a value is not plain); returns its index. */
  function objectFn(n: Node, where: string): number {
    const required = new Set(n.required ?? []);
    // fast-json-stringify writes the required properties first, each group in schema order (a stable sort).
    const props = Object.entries(n.properties ?? {}).sort(([a], [b]) => Number(required.has(b)) - Number(required.has(a)));
    const k = fns.length;
    fns.push('');
    // When the first property is required (every object of weather.php's schema), every later one follows a comma:
    // each key is written with its separator as one constant, no test of what came before.
    const firstRequired = props.length > 0 && required.has(props[0]![0]);
    let body = `const start = at;\nlet v, y;\n`;
    props.forEach(([name, p], i) => {
      const first = `{${JSON.stringify(name)}:`;
      const next = `,${JSON.stringify(name)}:`;
      const fixed = i === 0 ? first : firstRequired ? next : undefined;
      const key = (text: string) => (fixed !== undefined ? put(fixed + text) : `if (at === start) { ${put(first + text)} } else { ${put(next + text)} }`);
      body += `v = o[${JSON.stringify(name)}];\n`;
      body += `if (v !== undefined) { ${valueCode(p, key, fixed, `${where}.${name}`)} }\n`;
      if (required.has(name)) body += `else return -1;\n`;
    });
    body += firstRequired ? `${put('}')}\nreturn at;` : `if (at === start) { ${put('{}')} } else { ${put('}')} }\nreturn at;`;
    fns[k] = `function O${k}(o, buf, view, at) {\n${body}\n}`;
    return k;
  }

  const root = objectFn(schema as Node, '#');
  const enumVars = enums.map((_, i) => `const E${i} = enums[${i}];`).join('\n');
  // Compiled once at startup from our own schema, as fast-json-stringify compiles its writers.
  // Strict: a name the generated code forgot to declare is an error at the first answer, not a global.

  // The last string written at each place and where its bytes are in a body already taken: a product's source line
  // is the same string answer after answer, copied from there (4 bytes a step) rather than encoded again.
  const memoStrings: (string | null)[] = new Array<string | null>(memos).fill(null);
  const memoViews: (DataView | null)[] = new Array<DataView | null>(memos).fill(null);
  const memoAt = new Int32Array(memos);
  const memoLength = new Int32Array(memos);
  const putRepeated = (buf: Buffer, view: DataView, at: number, s: string, m: number): number => {
    if (memoStrings[m] === s && memoViews[m] === view) {
      const n = memoLength[m]!;
      if (n <= room) {
        const from = memoAt[m]!;
        let j = 0;
        for (; j + 4 <= n; j += 4) view.setInt32(at + j, view.getInt32(from + j, true), true);
        for (; j < n; j++) view.setUint8(at + j, view.getUint8(from + j));
        room -= n;
        wanted += n;
        return at + n;
      }
    }
    const end = putString(buf, at, s);
    // Written (a string takes 2 bytes at least): remembered.
    if (end > at) {
      memoStrings[m] = s;
      memoViews[m] = view;
      memoAt[m] = at;
      memoLength[m] = end - at;
    }
    return end;
  };

  const make = new Function('enums', 'putNumber', 'putRepeated', 'putString', 'putWords', `'use strict';\n${enumVars}\n${fns.join('\n')}\nreturn O${root};`);
  const writeRoot = make(enums, putNumber, putRepeated, putString, putWords) as (o: object, buf: Buffer, view: DataView, at: number) => number;
  /**
   * Room for the strings of a body on the first try, at 3 bytes a UTF-16 unit: weather.php's take ~540 units
   * (sources, labels, times). What is reserved and not written is left to the next body, but a slab's end with
   * less free than this is.
   */
  const STRING_ROOM = 4 * 1024;

  return function weatherJson(body: unknown): Buffer | undefined {
    if (typeof body !== 'object' || body === null || typeof (body as { toJSON?: unknown }).toJSON === 'function') return undefined;
    // The room is reserved before writing: the constants and numbers are stored without a bound check of ours
    // (a DataView throws past the slab's end), the strings take from `room`; a body whose strings need more is
    // written again with what they wanted.
    let strings = STRING_ROOM;
    for (;;) {
      const start = reserve(fixedRoom + strings);
      room = strings;
      wanted = 0;
      const end = writeRoot(body, currentSlab(), currentView(), start);
      if (end >= 0 && wanted <= strings) return take(start, end);
      // Not taken: the next body writes over these bytes, the strings remembered in them included.
      memoStrings.fill(null);
      if (end < 0) return undefined;
      strings = wanted;
    }
  };
}
