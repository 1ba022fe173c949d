/**
 * The box's layout in columns 200, 280, 320, 360, 414 and 760 px wide, as a
 * phone, a sidebar or a content column holds it: both variants, both modes
 * (the iframe embedded as docs/widget.md gives it), three themes, with and
 * without the sample notice, with a place name, without one and with a
 * long one. Measured from the elements' boxes in Chromium, not read off a
 * screenshot:
 *
 * - the box stays inside its column and keeps its height; an iframe's page
 *   neither scrolls nor overflows;
 * - every item (place, sample notice, icon, temperature, humidity, wind,
 *   trend, the forecast's time) is either wholly inside its line and the box
 *   or wholly outside it (dropped): never cut, never ellipsized, and no two
 *   shown items overlap;
 * - items give way in the order the box keeps them: once one is dropped,
 *   every later one is too; the place name is never dropped and, when it
 *   fits the box at all, is shown whole; the sample notice is always shown.
 */
import type { Frame, Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { imagesDir } from '../../support/docs-images.js';
import type { BrowserEnv } from './browser-env.js';
import { P } from './browser-env.js';
import { iframeSlot, jsSlot, widgetUrl } from './host-pages.js';

export const WIDTHS = [200, 280, 320, 360, 414, 760] as const;
const MODES = ['js', 'iframe'] as const;
const VARIANTS = ['card', 'compact'] as const;
const THEMES = ['light', 'dark', 'auto'] as const;

/** What each line keeps first (a card has several lines; the compact box one). */
const KEEP_ORDER = {
  card: [['name', 'cond'], ['icon', 'temp'], ['hum', 'wind'], ['trend'], ['sample', 'upd']],
  compact: [['name', 'sample', 'icon', 'temp', 'hum', 'wind', 'trend', 'upd']],
} as const;
const ITEMS = ['name', 'sample', 'cond', 'icon', 'temp', 'hum', 'wind', 'trend', 'upd'] as const;
type Item = (typeof ITEMS)[number];

interface Rect { left: number; top: number; right: number; bottom: number }
interface Measured {
  box: Rect;
  /** The box's padding edge (inside its border), where overflow is cut. */
  inner: Rect;
  height: number;
  /** The column (js) or the iframe element (iframe), in the box's coordinates. */
  frame: Rect;
  /** iframe documents: overflow of the page itself. */
  doc: { scrollWidth: number; clientWidth: number; scrollHeight: number; clientHeight: number } | null;
  items: Array<{ item: Item; text: string; rect: Rect; clip: Rect; scrollWidth: number; clientWidth: number }>;
}

/** Runs in the widget's root (shadow root or iframe document). */
const MEASURE = `(root, ITEMS) => {
  const box = root.querySelector('.mp');
  const r = (el) => { const b = el.getBoundingClientRect(); return { left: b.left, top: b.top, right: b.right, bottom: b.bottom }; };
  const b = r(box);
  const inner = { left: b.left + box.clientLeft, top: b.top + box.clientTop, right: b.left + box.clientLeft + box.clientWidth, bottom: b.top + box.clientTop + box.clientHeight };
  const clipOf = (el) => {
    for (let e = el.parentElement; e && e !== box; e = e.parentElement) if (getComputedStyle(e).overflow !== 'visible') return r(e);
    return inner;
  };
  const items = [];
  for (const item of ITEMS) {
    const el = box.querySelector(item === 'icon' ? 'svg.icon' : '.' + item);
    if (!el) continue;
    items.push({ item, text: el.textContent, rect: r(el), clip: clipOf(el), scrollWidth: el.scrollWidth ?? 0, clientWidth: el.clientWidth ?? 0 });
  }
  const d = root.nodeType === 9 ? root.documentElement : null;
  return { box: b, inner, height: b.bottom - b.top, items,
    doc: d ? { scrollWidth: d.scrollWidth, clientWidth: d.clientWidth, scrollHeight: d.scrollHeight, clientHeight: d.clientHeight } : null };
}`;

async function measure(page: Page, id: string, mode: 'js' | 'iframe'): Promise<Measured> {
  const holder = mode === 'js' ? `#${id}` : `#${id} iframe`;
  const frameRect = (await page.locator(holder).evaluate((e) => {
    const b = e.getBoundingClientRect();
    return { left: b.left, top: b.top, right: b.right, bottom: b.bottom };
  })) as Rect;
  if (mode === 'js') {
    await page.waitForSelector(`#${id} meteopunto-widget`, { state: 'attached' });
    const m = (await page.evaluate(`(${MEASURE})(document.querySelector('#${id} meteopunto-widget').shadowRoot, ${JSON.stringify(ITEMS)})`)) as Measured;
    return { ...m, frame: frameRect };
  }
  const f = (await (await page.waitForSelector(holder)).contentFrame()) as Frame;
  await f.waitForLoadState('load');
  const m = (await f.evaluate(`(${MEASURE})(document, ${JSON.stringify(ITEMS)})`)) as Measured;
  // The frame's own coordinates start at its top-left corner.
  return { ...m, frame: { left: 0, top: 0, right: frameRect.right - frameRect.left, bottom: frameRect.bottom - frameRect.top } };
}

const EPS = 0.5;
const inside = (a: Rect, b: Rect) => a.left >= b.left - EPS && a.right <= b.right + EPS && a.top >= b.top - EPS && a.bottom <= b.bottom + EPS;
const apart = (a: Rect, b: Rect) => a.left >= b.right - EPS || a.right <= b.left + EPS || a.top >= b.bottom - EPS || a.bottom <= b.top + EPS;

type Shown = 'shown' | 'dropped' | 'cut';
function stateOf(i: Measured['items'][number], m: Measured): Shown {
  if (inside(i.rect, i.clip) && inside(i.rect, m.inner)) return 'shown';
  if (apart(i.rect, i.clip) || apart(i.rect, m.inner)) return 'dropped';
  return 'cut';
}

interface Case { id: string; mode: (typeof MODES)[number]; variant: (typeof VARIANTS)[number]; theme: (typeof THEMES)[number]; sample: boolean; name: string | undefined }

function cases(width: number): Case[] {
  const out: Case[] = [];
  for (const mode of MODES) for (const variant of VARIANTS) for (const sample of [false, true]) {
    for (const theme of THEMES) out.push({ id: `w${width}-${mode}-${variant}-${theme}-${sample ? 's' : 'r'}`, mode, variant, theme, sample, name: 'Firenze' });
    out.push({ id: `w${width}-${mode}-${variant}-noname-${sample ? 's' : 'r'}`, mode, variant, theme: 'light', sample, name: undefined });
    out.push({ id: `w${width}-${mode}-${variant}-long-${sample ? 's' : 'r'}`, mode, variant, theme: 'light', sample, name: LONG_PLACE });
  }
  return out;
}
/** A real place with a long name (25 characters). */
const LONG_PLACE = 'San Giovanni in Persiceto';

/** Failures of one box, in words (empty: it is laid out as it should be). */
function problems(c: Case, width: number, m: Measured): string[] {
  const out: string[] = [];
  const w = m.box.right - m.box.left;
  if (!inside(m.box, m.frame)) out.push(`box ${w.toFixed(1)} px wide overflows its ${c.mode === 'js' ? 'column' : 'iframe'} (${JSON.stringify(m.box)} in ${JSON.stringify(m.frame)})`);
  if (w > width + EPS) out.push(`box ${w} px wide in a ${width} px column`);
  const height = c.variant === 'card' ? 120 : 32;
  if (Math.abs(m.height - height) > EPS) out.push(`height ${m.height}, not ${height}`);
  if (m.doc && (m.doc.scrollWidth > m.doc.clientWidth || m.doc.scrollHeight > m.doc.clientHeight)) out.push(`the iframe's page overflows: ${JSON.stringify(m.doc)}`);
  const state = new Map(m.items.map((i) => [i.item, stateOf(i, m)]));
  for (const i of m.items) {
    const s = state.get(i.item)!;
    if (s === 'cut') out.push(`${i.item} "${i.text}" is cut: ${JSON.stringify(i.rect)} in ${JSON.stringify(i.clip)}`);
    const ellipsized = s === 'shown' && i.scrollWidth > i.clientWidth + 1;
    // Only a name wider than the whole box may end in an ellipsis.
    if (ellipsized && !(i.item === 'name' && c.name === LONG_PLACE)) out.push(`${i.item} "${i.text}" ends in an ellipsis (${i.scrollWidth} > ${i.clientWidth})`);
  }
  if (state.get('name') !== 'shown') out.push(`the place name is ${state.get('name')}`);
  if (c.sample && state.get('sample') !== 'shown') out.push(`the sample notice is ${state.get('sample') ?? 'missing'}`);
  if (!c.sample && state.has('sample')) out.push('a sample notice on real data');
  for (const line of KEEP_ORDER[c.variant]) {
    const present = line.filter((i) => state.has(i));
    const firstDropped = present.findIndex((i) => state.get(i) === 'dropped');
    if (firstDropped >= 0) {
      const after = present.slice(firstDropped).filter((i) => state.get(i) === 'shown');
      if (after.length > 0) out.push(`${present[firstDropped]} is dropped while ${after.join(', ')} after it is shown`);
    }
  }
  const shown = m.items.filter((i) => state.get(i.item) === 'shown');
  for (let a = 0; a < shown.length; a++) for (let b = a + 1; b < shown.length; b++) {
    if (!apart(shown[a]!.rect, shown[b]!.rect)) out.push(`${shown[a]!.item} overlaps ${shown[b]!.item}`);
  }
  return out;
}

export function layoutTests(env: () => BrowserEnv): void {
  it.each(WIDTHS.map((w) => [w]))('in a %i px column: inside the column, nothing cut or overlapping, the place and the sample notice always shown', async (width) => {
    const { api, sampleApi, keys, host, open } = env();
    const all = cases(width);
    const slots = all.map((c) => {
      const src = widgetUrl(c.sample ? sampleApi : api, { key: keys.widget, ...P, name: c.name, mode: c.mode, variant: c.variant, theme: c.theme });
      const embed = c.mode === 'js' ? jsSlot(`${c.id}-x`, src) : iframeSlot(`${c.id}-x`, src, c.variant);
      return `<div class="col" id="${c.id}" style="width:${width}px">${embed}</div>`;
    });
    const { page } = await open(host.page(`layout-${width}`, slots.join('\n'), '<style>body{margin:8px} .col{margin:0 0 8px}</style>'));
    const failures: string[] = [];
    const dropped = new Map<string, string[]>();
    for (const c of all) {
      const m = await measure(page, c.id, c.mode);
      for (const p of problems(c, width, m)) failures.push(`${c.id}: ${p}`);
      dropped.set(c.id, m.items.filter((i) => stateOf(i, m) === 'dropped').map((i) => i.item));
    }
    expect(failures).toEqual([]);
    // The card keeps its temperature at every width; so does the compact row without the sample notice.
    for (const c of all) {
      if (c.variant === 'card' || (!c.sample && c.name === 'Firenze')) expect(dropped.get(c.id), c.id).not.toContain('temp');
    }
    if (width === 200 || width === 360) {
      for (const variant of VARIANTS) await page.locator(`#w${width}-js-${variant}-light-s`).screenshot({ path: `${imagesDir()}/widget-${variant}-${width}px.png` });
    }
    await page.close();
  });
}
