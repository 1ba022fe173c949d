/**
 * Strings as UTF-8 bytes written by JS loops into a Buffer, for the JSON
 * writer (./response-json.ts) and its number table (./number-text.ts).
 */

/**
 * String.prototype.charCodeAt, called as `charCode.call(s, i)` so that the loops do not depend on the state of
 * String.prototype: ioredis makes it a prototype of its own (`class VerbatimString extends String`), which leaves it
 * in dictionary mode until some property lookup through it makes it fast again, and meanwhile every `s.charCodeAt(i)`
 * goes through a generic lookup, ~5x slower (11-13 against 2.3 ns a character, measured). A served process is past
 * that once its app is ready (checked: fast again); a process that only loads the tile reader is not. The builtin
 * called directly is inlined either way. Not exported: an exported binding is read through its module cell, and the
 * call is then not inlined (measured: the strings' loop ~2x slower); ./number-text.ts keeps its own.
 */
const charCode = String.prototype.charCodeAt;

/** 1 for an ASCII character a JSON string holds as it is (JSON.stringify escapes controls, '"' and '\'). */
const PLAIN = new Uint8Array(128);
for (let c = 0x20; c < 0x80; c++) PLAIN[c] = c === 0x22 || c === 0x5c ? 0 : 1;

/** `t` UTF-8 encoded into `buf` from `at` (a lone surrogate as U+FFFD, as Buffer.from does): the end. */
export function putUtf8(buf: Buffer, at: number, t: string): number {
  for (let i = 0; i < t.length; i++) {
    const c = charCode.call(t, i);
    if (c < 0x80) {
      buf[at++] = c;
    } else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    } else {
      const d = c <= 0xdbff && i + 1 < t.length ? charCode.call(t, i + 1) : 0;
      if (d >= 0xdc00 && d <= 0xdfff) {
        const cp = 0x10000 + ((c - 0xd800) << 10) + (d - 0xdc00);
        buf[at++] = 0xf0 | (cp >> 18);
        buf[at++] = 0x80 | ((cp >> 12) & 0x3f);
        buf[at++] = 0x80 | ((cp >> 6) & 0x3f);
        buf[at++] = 0x80 | (cp & 0x3f);
        i++;
      } else {
        buf[at++] = 0xef;
        buf[at++] = 0xbf;
        buf[at++] = 0xbd;
      }
    }
  }
  return at;
}

/**
 * `s` as a JSON string, UTF-8 encoded into `buf` from `at`: the end, at most 3 bytes per UTF-16 unit and 2 more;
 * -1 (and bytes written that mean nothing) when `s` holds a character JSON.stringify escapes (a control, '"', '\\',
 * a surrogate, paired or not): the caller writes JSON.stringify's text instead. One pass for the rest (ASCII,
 * U+0080–U+FFFF outside the surrogates: "→", "°").
 */
export function writeString(buf: Buffer, at: number, s: string): number {
  buf[at++] = 0x22;
  for (let i = 0; i < s.length; i++) {
    const c = charCode.call(s, i);
    if (c < 0x80) {
      if (PLAIN[c] === 1) buf[at++] = c;
      else return -1;
    } else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    } else {
      return -1;
    }
  }
  buf[at++] = 0x22;
  return at;
}
