/**
 * A served box's bytes written straight from its view (./body.ts): the
 * reference text (renderWidget, ./render.ts) cut once, per presentation
 * and shape of view, into encoded fixed parts
 * and slots, then per load the fixed parts copied and the view's texts
 * UTF-8 encoded by a JS loop into a slab.
 *
 * Why: a box built as a string is a rope of some fifty pieces; writing it
 * as UTF-8 first flattens it (a copy) and then, since every box holds "°C"
 * and "umidità", V8's writer goes character by character over the whole
 * 1 KB (flattening ~0.8 µs, the writer ~0.7 µs more than for ASCII). In
 * process over the bench's 2,000 views (js card, name=Firenze), view and
 * body: 2.7 µs a load this way against 4.5 µs (docs/benchmarks-journal.md,
 * "widget.php: the box written from its view").
 *
 * One source for the markup: the fixed parts are cut out of renderWidget's
 * own output for a view whose texts are markers, so the markup, the script
 * around it and the escapes stay where they are written; the texts are
 * escaped by tables made from escapeHtml and scriptString themselves
 * (escapesOf, below).
 */
import { ICON_SHAPES, arrowSvg } from './icons.js';
import { renderWidget } from './render.js';
import { scriptString } from './documents.js';
import { escapeHtml } from './markup.js';
import type { Presentation } from './schema.js';
import type { WidgetView } from './view.js';
import { currentSlab, reserve, take } from '../fields/body-slab.js';

/** String.prototype.charCodeAt called as the builtin, as the JSON writer's loops call it (why: ../fields/string-bytes.ts). */
const charCode = String.prototype.charCodeAt;

/** What fills a slot: a text of the view, the icon's shape, the wind arrow. */
const Slot = {
  Name: 0,
  NameShown: 1,
  Coordinate0: 2,
  Coordinate1: 3,
  Condition: 4,
  Temperature: 5,
  Humidity: 6,
  Wind: 7,
  Trend: 8,
  Updated: 9,
  UpdatedTitle: 10,
  Icon: 11,
  Arrow: 12,
} as const;
type Slot = (typeof Slot)[keyof typeof Slot];

/** The marker standing for a slot while the reference text is cut: no escape changes it. */
const marker = (s: Slot): string => `\u0000${String.fromCharCode(0x41 + s)}\u0000`;
const MARKERS = /\u0000([A-Z])\u0000/;

/** Fixed parts and, between each two, the slot written there (one part more than slots). */
interface Template {
  parts: readonly Buffer[];
  slots: readonly Slot[];
  /** Bytes of the fixed parts together. */
  fixed: number;
}

/** The shape of a view that decides which parts its box has. */
function shapeOf(v: WidgetView): number {
  return (v.name !== null ? 1 : 0) | (v.windArrowDeg !== null ? 2 : 0) | (v.trend !== null ? 4 : 0) | (v.sample ? 8 : 0);
}
const SHAPES = 16;

/** A view of `shape` whose texts are markers; its icon is `unknown`, its arrow turned 0°, both cut out as slots. */
function markerView(shape: number): WidgetView {
  const named = (shape & 1) !== 0;
  return {
    name: named ? marker(Slot.Name) : null,
    nameShown: marker(Slot.NameShown),
    coordinates: named ? null : [marker(Slot.Coordinate0), marker(Slot.Coordinate1)],
    icon: 'unknown',
    conditionIt: marker(Slot.Condition),
    temperature: marker(Slot.Temperature),
    humidity: marker(Slot.Humidity),
    wind: marker(Slot.Wind),
    windArrowDeg: (shape & 2) !== 0 ? 0 : null,
    trend: (shape & 4) !== 0 ? marker(Slot.Trend) : null,
    updated: marker(Slot.Updated),
    updatedTitle: marker(Slot.UpdatedTitle),
    sample: (shape & 8) !== 0,
  };
}

/** `text` with its one occurrence of `part` replaced by `by` (it must occur exactly once). */
function replaceOnce(text: string, part: string, by: string): string {
  const at = text.indexOf(part);
  if (at < 0 || text.indexOf(part, at + 1) >= 0) throw new Error(`widget box bytes: ${part.slice(0, 40)} not found once`);
  return text.slice(0, at) + by + text.slice(at + part.length);
}

/** Ends of a fixed part after which a text starting with the rest would make `</script` or `<!--`. */
const BREAK_STARTS = ['</script', '<!--'].flatMap((b) => Array.from({ length: b.length - 1 }, (_, i) => b.slice(0, i + 1)));

function cut(p: Presentation, shape: number): Template {
  const v = markerView(shape);
  let text = replaceOnce(renderWidget(v, p), ICON_SHAPES.unknown!, marker(Slot.Icon));
  if (v.windArrowDeg !== null) text = replaceOnce(text, arrowSvg(v.windArrowDeg), marker(Slot.Arrow));
  const pieces = text.split(MARKERS);
  const parts: Buffer[] = [];
  const slots: Slot[] = [];
  for (let i = 0; i < pieces.length; i++) {
    const piece = pieces[i]!;
    if (i % 2 === 1) {
      slots.push((piece.charCodeAt(0) - 0x41) as Slot);
      continue;
    }
    if (piece.includes('\u0000')) throw new Error('widget box bytes: a marker was changed');
    const lower = piece.toLowerCase();
    if (i < pieces.length - 1 && BREAK_STARTS.some((b) => lower.endsWith(b))) throw new Error(`widget box bytes: a part ends with ${lower.slice(-8)}`);
    parts.push(Buffer.from(piece, 'utf8'));
  }
  return { parts, slots, fixed: parts.reduce((n, b) => n + b.length, 0) };
}

const MODE_INDEX = { js: 0, iframe: 1 } as const;
const VARIANT_INDEX = { card: 0, compact: 1 } as const;
const THEME_INDEX = { auto: 0, light: 1, dark: 2 } as const;

/** Per presentation and shape, cut on first use (a few of the 192 are ever asked). */
const TEMPLATES: (Template | undefined)[] = [];

function templateOf(p: Presentation, shape: number): Template {
  const i = ((MODE_INDEX[p.mode] * 2 + VARIANT_INDEX[p.variant]) * 3 + THEME_INDEX[p.theme]) * SHAPES + shape;
  return (TEMPLATES[i] ??= cut(p, shape));
}

/** The icons' shapes, encoded (weather.php's identifiers; `unknown` for none). */
const ICON_BYTES = new Map<string | null, Buffer>([...Object.entries(ICON_SHAPES), [null, ICON_SHAPES.unknown!] as const].map(([k, s]) => [k, Buffer.from(s!, 'utf8')]));
const ICON_MAX = Math.max(...[...ICON_BYTES.values()].map((b) => b.length));

/** The arrow at each whole degree, encoded on first use (arrowSvg rounds its angle to one). */
const ARROWS: (Buffer | undefined)[] = [];
const ARROW_MAX = Buffer.byteLength(arrowSvg(-359));

function textOf(v: WidgetView, s: Slot): string {
  switch (s) {
    case Slot.Name: return v.name!;
    case Slot.NameShown: return v.nameShown;
    case Slot.Coordinate0: return v.coordinates![0];
    case Slot.Coordinate1: return v.coordinates![1];
    case Slot.Condition: return v.conditionIt;
    case Slot.Temperature: return v.temperature;
    case Slot.Humidity: return v.humidity;
    case Slot.Wind: return v.wind;
    case Slot.Trend: return v.trend!;
    case Slot.Updated: return v.updated;
    case Slot.UpdatedTitle: return v.updatedTitle;
    default: return '';
  }
}

/** What the escapes make of each character they change, per mode, encoded. */
interface Escapes {
  /** Per ASCII code: its bytes once escaped, null when neither escape changes it. */
  ascii: readonly (Buffer | null)[];
  /** U+2028 and U+2029. */
  separators: readonly [Buffer, Buffer];
}

/**
 * Every character either escape changes, alone, through the reference: escapeHtml
 * (every text of the box and the page's title), then in js mode scriptString
 * (over the whole markup; char by char the same, since it replaces single
 * characters and its `</script` and `<!--` need a `<`, which no escaped text holds).
 */
const CHANGED = '&<>"\'\\\n\r\u2028\u2029';
function escapesOf(js: boolean): Escapes {
  const bytes = (c: string) => Buffer.from(js ? scriptString(escapeHtml(c)).slice(1, -1) : escapeHtml(c), 'utf8');
  const ascii: (Buffer | null)[] = Array.from({ length: 128 }, () => null);
  for (const c of CHANGED) if (c.charCodeAt(0) < 0x80) ascii[c.charCodeAt(0)] = bytes(c);
  return { ascii, separators: [bytes('\u2028'), bytes('\u2029')] };
}
const ESCAPES = { js: escapesOf(true), iframe: escapesOf(false) } as const;
/** ASCII characters either escape may change (CHANGED's). */
const SPECIAL = new Uint8Array(128);
for (const c of CHANGED) if (c.charCodeAt(0) < 0x80) SPECIAL[c.charCodeAt(0)] = 1;
/** Most bytes one UTF-16 unit of a text takes once written (an escape, or 3 of UTF-8). */
const UNIT_MAX = Math.max(3, ...Object.values(ESCAPES).flatMap((e) => [...e.ascii, ...e.separators].map((b) => b?.length ?? 0)));

/**
 * `s` escaped as the reference escapes it and UTF-8 encoded into `buf` from
 * `at` (a lone surrogate as U+FFFD, as Buffer.from does): the end. At most
 * UNIT_MAX bytes per UTF-16 unit.
 */
function putText(buf: Buffer, at: number, s: string, esc: Escapes): number {
  for (let i = 0; i < s.length; i++) {
    const c = charCode.call(s, i);
    if (c < 0x80) {
      if (SPECIAL[c] === 0) buf[at++] = c;
      else at = putBytes(buf, at, esc.ascii[c]!);
    } else if (c < 0x800) {
      buf[at++] = 0xc0 | (c >> 6);
      buf[at++] = 0x80 | (c & 0x3f);
    } else if (c < 0xd800 || c > 0xdfff) {
      if (c === 0x2028 || c === 0x2029) {
        at = putBytes(buf, at, esc.separators[c - 0x2028]!);
        continue;
      }
      buf[at++] = 0xe0 | (c >> 12);
      buf[at++] = 0x80 | ((c >> 6) & 0x3f);
      buf[at++] = 0x80 | (c & 0x3f);
    } else {
      const d = c <= 0xdbff && i + 1 < s.length ? charCode.call(s, i + 1) : 0;
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

function putBytes(buf: Buffer, at: number, b: Buffer): number {
  buf.set(b, at);
  return at + b.length;
}

/**
 * The bytes of renderWidget(v, p), or undefined for an icon or an arrow
 * angle weather.php never gives: then the caller writes it the reference way.
 */
export function boxBytes(v: WidgetView, p: Presentation): Buffer | undefined {
  const t = templateOf(p, shapeOf(v));
  const { parts, slots } = t;
  const esc = ESCAPES[p.mode];
  let max = t.fixed;
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i]!;
    max += s === Slot.Icon ? ICON_MAX : s === Slot.Arrow ? ARROW_MAX : UNIT_MAX * textOf(v, s).length;
  }
  // Cut from the bodies' slab (../fields/body-slab.ts); what is written and not taken, when this gives up, the next body overwrites.
  const start = reserve(max);
  const buf = currentSlab();
  let at = putBytes(buf, start, parts[0]!);
  for (let i = 0; i < slots.length; i++) {
    const s = slots[i]!;
    if (s === Slot.Icon) {
      const icon = ICON_BYTES.get(v.icon);
      if (icon === undefined) return undefined;
      at = putBytes(buf, at, icon);
    } else if (s === Slot.Arrow) {
      const deg = Math.round(v.windArrowDeg!);
      if (!(deg >= 0 && deg <= 360)) return undefined;
      at = putBytes(buf, at, (ARROWS[deg] ??= Buffer.from(arrowSvg(deg), 'utf8')));
    } else {
      at = putText(buf, at, textOf(v, s), esc);
    }
    at = putBytes(buf, at, parts[i + 1]!);
  }
  return take(start, at);
}
