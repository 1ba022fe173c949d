/**
 * Reading a rendered widget in the browser (shadow root or iframe document)
 * and the test's own expectations: Italian number writing, cardinal points,
 * and the WCAG 2.x contrast ratio, written here independently of api/widget/.
 */
import type { Frame, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface Extract {
  text: string;
  bg: string;
  width: number;
  height: number;
  name: string | null;
  nameTitle: string | null;
  lang: string | null;
  /** Texts cut by their box (an ellipsis shows instead of the end). */
  clipped: string[];
  pairs: Array<{ text: string; color: string; bg: string | null }>;
  counts: { all: number; img: number; svg: number; script: number; iframe: number };
}

/** Runs in the page: what a widget root (shadow root or iframe document) shows. */
const EXTRACT = `(root) => {
  const box = root.querySelector('.mp');
  if (!box) return null;
  const r = box.getBoundingClientRect();
  const bgOf = (el) => { for (let e = el; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor; if (c !== 'rgba(0, 0, 0, 0)' && c !== 'transparent') return c; } return null; };
  const pairs = [];
  for (const el of box.querySelectorAll('*')) {
    if (![...el.childNodes].some((n) => n.nodeType === 3 && n.textContent.trim() !== '')) continue;
    pairs.push({ text: el.textContent.trim().slice(0, 40), color: getComputedStyle(el).color, bg: bgOf(el) });
  }
  const q = (s) => root.querySelectorAll(s).length;
  const nameEl = box.querySelector('.name');
  return { text: box.innerText, bg: getComputedStyle(box).backgroundColor, width: r.width, height: r.height, pairs,
    name: nameEl ? nameEl.textContent : null, nameTitle: nameEl ? nameEl.getAttribute('title') : null,
    clipped: [...box.querySelectorAll('*')].filter((e) => e.scrollWidth > e.clientWidth + 1 && e.clientWidth > 0 && !(e instanceof SVGElement)).map((e) => e.textContent),
    lang: box.closest('[lang]') ? box.closest('[lang]').getAttribute('lang') : null,
    counts: { all: q('*'), img: q('img'), svg: q('svg'), script: q('script'), iframe: q('iframe') } };
}`;

async function frameOf(page: Page, id: string): Promise<Frame> {
  const el = await page.waitForSelector(`#${id} iframe`);
  const f = await el.contentFrame();
  if (!f) throw new Error(`#${id}: no frame`);
  await f.waitForLoadState('load');
  return f;
}

export async function extract(page: Page, id: string, mode: 'js' | 'iframe'): Promise<Extract> {
  if (mode === 'iframe') return (await (await frameOf(page, id)).evaluate(`(${EXTRACT})(document)`)) as Extract;
  await page.waitForSelector(`#${id} meteopunto-widget`, { state: 'attached' });
  return (await page.evaluate(`(${EXTRACT})(document.querySelector('#${id} meteopunto-widget').shadowRoot)`)) as Extract;
}

// --- independent expectations ----------------------------------------------------

/** Italian decimal: comma, U+2212 minus. */
const it_ = (n: number, decimals: number) => (n < 0 ? '\u2212' : '') + Math.abs(n).toFixed(decimals).replace('.', ',');
const CARDINAL = ['N', 'NE', 'E', 'SE', 'S', 'SO', 'O', 'NO'];
const cardinal = (deg: number) => CARDINAL[Math.round(deg / 45) % 8]!;

export interface WeatherBody {
  temperature: number;
  humidity: number;
  wind_speed: number;
  wind_direction: number;
  temperature_trend_3h: { label: string };
}
export function expectShows(text: string, w: WeatherBody): void {
  expect(text).toContain(`${it_(w.temperature, 1)} °C`);
  expect(text).toContain(`umidità ${it_(w.humidity, 0)} %`);
  expect(text).toContain(`${it_(w.wind_speed, 1)} km/h da ${cardinal(w.wind_direction)}`);
  expect(text).toContain(w.temperature_trend_3h.label);
  // The fixture's run, 2024-06-21T00:00Z, is 02:00 in Rome (CEST, UTC+2): the box says when the forecast was made.
  expect(text).toContain('previsione delle 02:00');
}

/** WCAG 2.x contrast ratio of two CSS rgb() colours. */
export function contrast(a: string, b: string): number {
  const lum = (css: string) => {
    const [r, g, bl] = /rgba?\(([^)]+)\)/.exec(css)![1]!.split(',').map((s) => Number(s.trim()));
    const lin = (c: number) => ((c /= 255) <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
    return 0.2126 * lin(r!) + 0.7152 * lin(g!) + 0.0722 * lin(bl!);
  };
  const [l1, l2] = [lum(a), lum(b)].sort((x, y) => y - x);
  return (l1! + 0.05) / (l2! + 0.05);
}

