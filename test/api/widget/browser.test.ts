/**
 * widget.php in a real browser: Debian Chromium driven by playwright-core,
 * ONE browser for every widget test (./browser-env.ts). The API listens on
 * one 127.0.0.1 port; host pages come from a second origin (another port)
 * and embed the widget as a site owner would (docs/widget.md). Keys and
 * quotas live in the real Redis of the test run. Expected values come from
 * weather.php for the same point and plan, written out here the Italian way
 * by the test's own formatting; contrast is computed here (WCAG 2.x formula)
 * from the colours the browser actually rendered. The layouts at every
 * column width are ./layout.ts. Screenshots go to a temp dir, or to
 * docs/images with DOCS_IMAGES=1 (`npm run docs:images`).
 */
import { describe, expect, it } from 'vitest';
import { generateKey } from '../../../api/access/key-format.js';
import { chromiumPresent, NO_CHROMIUM_REASON, runningInCi } from '../../support/browser.js';
import { imagesDir } from '../../support/docs-images.js';
import { browserEnv, P } from './browser-env.js';
import { iframeSlot, jsSlot, widgetUrl } from './host-pages.js';
import { contrast, expectShows, extract } from './inspect.js';
import { layoutTests } from './layout.js';

const Q = { lat: 43.301, lon: 11.47 }; // a second point of the fixture grid, no alt (DEM)
const SAN_MARINO = { lat: 43.936, lon: 12.447 };
const MODES = ['js', 'iframe'] as const;
const VARIANTS = ['card', 'compact'] as const;
const THEMES = ['light', 'dark', 'auto'] as const;

const INJECTIONS = [
  '<img src=x onerror=alert(1)>',
  '</script><script>alert(1)</script>',
  `"'><svg onload=alert(1)>`,
  'Riva\u2028del Garda',
];
const LONG_NAME = 'Castelnuovo di Garfagnana '.repeat(12).trim();

describe.skipIf(!chromiumPresent && !runningInCi)(`widget.php in Chromium${chromiumPresent ? '' : ` (skipped: ${NO_CHROMIUM_REASON})`}`, () => {
  const env = browserEnv();

  it('shows the values of weather.php in both modes, both variants and all themes; host CSS stays out; screenshots', async () => {
    const { api, keys, host, open, weather, browser } = env();
    const w = await weather(keys.business!, P);
    const slots: string[] = [];
    for (const mode of MODES) for (const variant of VARIANTS) for (const theme of THEMES) {
      const src = widgetUrl(api, { key: keys.widget, ...P, name: 'Firenze', mode, variant, theme });
      const id = `${mode}-${variant}-${theme}`;
      slots.push(mode === 'js' ? jsSlot(id, src) : iframeSlot(id, src, variant));
    }
    // The host's own CSS: red everything, and rules for the widget's class names (must not reach the box) ...
    const hostCss = '<style>* { color: red !important } .mp, .temp, .name { font-size: 40px !important; background: yellow !important }</style>';
    // ... and host elements with the widget's class names (the widget's CSS must not reach them).
    const probe = '<p id="probe" class="mp card temp">host paragraph</p>';
    const globals = '<script>document.documentElement.dataset.globals = JSON.stringify(Object.getOwnPropertyNames(window))</script>';
    const { page, dialogs, requests } = await open(host.page('gallery', globals + probe + slots.join('\n'), hostCss));
    await page.emulateMedia({ colorScheme: 'light' });

    const bg: Record<string, string> = {};
    for (const mode of MODES) for (const variant of VARIANTS) for (const theme of THEMES) {
      const id = `${mode}-${variant}-${theme}`;
      const x = await extract(page, id, mode);
      expect(x, id).not.toBeNull();
      expectShows(x.text, w);
      expect(x.name, id).toBe('Firenze');
      expect(x.lang, id).toBe('it');
      expect(x.clipped, `${id}: nothing cut off`).toEqual([]);
      if (variant === 'card') expect([x.width, x.height], id).toEqual([280, 120]);
      else expect(x.height, id).toBe(32);
      for (const p of x.pairs) {
        expect(p.color, `${id} ${p.text}`).not.toBe('rgb(255, 0, 0)');
        expect(contrast(p.color, p.bg!), `${id} "${p.text}" ${p.color} on ${p.bg}`).toBeGreaterThanOrEqual(4.5);
      }
      expect(x.bg, id).not.toBe('rgb(255, 255, 0)');
      bg[id] = x.bg;
      await page.locator(`#${id} ${mode === 'js' ? 'meteopunto-widget' : 'iframe'}`).screenshot({ path: `${imagesDir()}/widget-${mode}-${variant}-${theme}.png` });
    }
    for (const mode of MODES) for (const variant of VARIANTS) {
      const k = `${mode}-${variant}`;
      expect(bg[`${k}-light`], k).not.toBe(bg[`${k}-dark`]);
      expect(bg[`${k}-auto`], `${k} auto under light`).toBe(bg[`${k}-light`]);
    }
    // auto follows the viewer's colour scheme; light and dark stay as named.
    await page.emulateMedia({ colorScheme: 'dark' });
    for (const mode of MODES) for (const variant of VARIANTS) {
      const k = `${mode}-${variant}`;
      const auto = await extract(page, `${k}-auto`, mode);
      expect(auto.bg, `${k} auto under dark`).toBe(bg[`${k}-dark`]);
      for (const p of auto.pairs) expect(contrast(p.color, p.bg!), `${k}-auto dark "${p.text}"`).toBeGreaterThanOrEqual(4.5);
      expect((await extract(page, `${k}-light`, mode)).bg).toBe(bg[`${k}-light`]);
      await page.locator(`#${k}-auto ${mode === 'js' ? 'meteopunto-widget' : 'iframe'}`).screenshot({ path: `${imagesDir()}/widget-${mode}-${variant}-auto-dark.png` });
    }
    // The host's CSS applies to the host (red) and the widget's CSS does not leak out to host elements with its class names.
    const probeStyle = await page.evaluate(() => {
      const s = getComputedStyle(document.getElementById('probe')!);
      return { color: s.color, width: s.width, fontWeight: s.fontWeight, border: s.borderTopWidth };
    });
    expect(probeStyle.color).toBe('rgb(255, 0, 0)');
    expect(probeStyle.width).not.toBe('280px');
    expect(probeStyle.fontWeight).toBe('400');
    expect(probeStyle.border).toBe('0px');
    // Nothing left in the page's globals (frames show up as indices only); no dialog.
    const leftover = await page.evaluate(() => {
      const before = new Set(JSON.parse(document.documentElement.dataset.globals!) as string[]);
      return Object.getOwnPropertyNames(window).filter((n) => !before.has(n) && !/^\d+$/.test(n));
    });
    expect(leftover).toEqual([]);
    expect(dialogs).toEqual([]);
    // Self-contained: the page's requests are the page itself and one per widget, nothing else (no font, image or beacon).
    await page.waitForTimeout(200);
    expect(requests.filter((u) => !u.startsWith(`${api}/api/v1/widget.php?`))).toEqual([`${host.origin}/gallery`]);
    expect(requests).toHaveLength(1 + MODES.length * VARIANTS.length * THEMES.length);
    const cookies = await browser.context.cookies();
    expect(cookies).toEqual([]);
    await page.close();
  });

  it('the same values as weather.php for a Free key; two widgets on one page each draw their own', async () => {
    const { api, keys, host, open, weather } = env();
    const wFree = await weather(keys.free!, P);
    const wq = await weather(keys.business!, Q);
    const wp = await weather(keys.business!, P);
    expect(wq.temperature).not.toBe(wp.temperature);
    const body = [
      jsSlot('free', widgetUrl(api, { key: keys.free, ...P, name: 'Piano Free' })),
      jsSlot('p', widgetUrl(api, { key: keys.widget, ...P, name: 'Punto P' })),
      jsSlot('q', widgetUrl(api, { key: keys.widget, ...Q, variant: 'compact', name: 'Punto Q' })),
    ].join('<p>between</p>');
    const { page, dialogs } = await open(host.page('two', body));
    expectShows((await extract(page, 'free', 'js')).text, wFree);
    const p = await extract(page, 'p', 'js');
    const q = await extract(page, 'q', 'js');
    expectShows(p.text, wp);
    expectShows(q.text, wq);
    expect([p.clipped, q.clipped]).toEqual([[], []]);
    expect([p.name, q.name]).toEqual(['Punto P', 'Punto Q']);
    // Each box stands where its own script tag is.
    const order = await page.evaluate(() => [...document.querySelectorAll('.slot')].map((s) => [s.id, s.firstElementChild?.tagName.toLowerCase()]));
    expect(order).toEqual([['free', 'meteopunto-widget'], ['p', 'meteopunto-widget'], ['q', 'meteopunto-widget']]);
    expect(dialogs).toEqual([]);
    await page.close();
  });

  it('shows injection attempts and long names as text in both modes, executing nothing', async () => {
    const { api, keys, host, open } = env();
    const names = [...INJECTIONS, LONG_NAME];
    const slots = names.flatMap((name, i) => [
      jsSlot(`js-${i}`, widgetUrl(api, { key: keys.widget, ...P, name })),
      iframeSlot(`if-${i}`, widgetUrl(api, { key: keys.widget, ...P, name, mode: 'iframe' })),
    ]);
    slots.push(jsSlot('plain-js', widgetUrl(api, { key: keys.widget, ...P, name: 'Firenze' })));
    slots.push(iframeSlot('plain-iframe', widgetUrl(api, { key: keys.widget, ...P, name: 'Firenze', mode: 'iframe' })));
    const { page, dialogs } = await open(host.page('inject', slots.join('\n')));
    const baseline = { js: await extract(page, 'plain-js', 'js'), iframe: await extract(page, 'plain-iframe', 'iframe') };
    for (const [i, name] of names.entries()) {
      for (const [mode, id] of [['js', `js-${i}`], ['iframe', `if-${i}`]] as const) {
        const x = await extract(page, id, mode);
        expect(x.counts, `${id}: no element beyond the box's own`).toEqual(baseline[mode].counts);
        if (name === LONG_NAME) {
          expect(x.name!.endsWith('…'), id).toBe(true);
          expect(name.startsWith(x.name!.slice(0, -1).trimEnd()), id).toBe(true);
          expect(x.nameTitle).toBe(name);
          expect([x.width, x.height], id).toEqual([280, 120]);
          expect(x.clipped.every((t) => t === x.name), `${id}: only the name is cut`).toBe(true);
        } else {
          expect(x.name, id).toBe(name);
          // A long label may end in an ellipsis on screen (its whole text stays in the element and its title); nothing else is cut.
          expect(x.clipped.every((t) => t === name), `${id}: only the name is cut`).toBe(true);
        }
      }
    }
    await page.waitForTimeout(300); // an onerror/onload would have fired by now
    expect(dialogs).toEqual([]);
    // The host page holds exactly its own script tags (one per js widget) and nothing injected.
    expect(await page.evaluate(() => document.scripts.length)).toBe(names.length + 1);
    expect(await page.evaluate(() => document.querySelectorAll('img, svg').length)).toBe(0);
    await page.close();
  });

  it('refused loads show their reason in the box, in both modes, with the status of the refusal', async () => {
    const { api, keys, host, open } = env();
    // Use up the Free widget key's minute (2 loads), from its registered site.
    for (let i = 0; i < 2; i++) {
      const r = await fetch(widgetUrl(api, { key: keys.widgetFree, ...P, name: `warm ${i}` }), { headers: { referer: `${host.origin}/x` } });
      expect(r.status).toBe(200);
    }
    const cases = [
      { id: 'wrong', key: generateKey().key, at: P, status: 401, reason: 'La chiave API del widget non è valida.' },
      { id: 'quota', key: keys.widgetFree!, at: P, status: 429, reason: 'Limite di richieste della chiave raggiunto.' },
      { id: 'sanmarino', key: keys.free!, at: SAN_MARINO, status: 403, reason: 'Per San Marino serve il piano Developer.' },
      { id: 'origin', key: keys.elsewhere!, at: P, status: 403, reason: 'Questo sito non è autorizzato a usare la chiave del widget.' },
      { id: 'outside', key: keys.widget!, at: { lat: 51.5, lon: -0.12 }, status: 400, reason: "Il punto è fuori dall'area coperta (Italia)." },
    ];
    const slots = cases.flatMap((c) => [
      jsSlot(`js-${c.id}`, widgetUrl(api, { key: c.key, ...c.at })),
      iframeSlot(`if-${c.id}`, widgetUrl(api, { key: c.key, ...c.at, mode: 'iframe' })),
      jsSlot(`jsc-${c.id}`, widgetUrl(api, { key: c.key, ...c.at, variant: 'compact', theme: 'dark' })),
    ]);
    const { page, statuses } = await open(host.page('refused', slots.join('\n')));
    for (const c of cases) {
      for (const [mode, id] of [['js', `js-${c.id}`], ['iframe', `if-${c.id}`], ['js', `jsc-${c.id}`]] as const) {
        const x = await extract(page, id, mode);
        expect(x.text, id).toContain('Meteo non disponibile');
        expect(x.text, id).toContain(c.reason);
        for (const p of x.pairs) expect(contrast(p.color, p.bg!), `${id} "${p.text}"`).toBeGreaterThanOrEqual(4.5);
      }
      // iframe: the status of the refusal; js: browsers run no script with an error status, so 200 with the status in a header.
      const at = new URLSearchParams(Object.entries(c.at).map(([k, v]) => [k, String(v)])).toString();
      const iframeRes = [...statuses].find(([u]) => u.includes('mode=iframe') && u.includes(at) && u.includes(`key=${c.key}`));
      const jsRes = [...statuses].find(([u]) => !u.includes('mode=') && !u.includes('variant=') && u.includes(at) && u.includes(`key=${c.key}`));
      expect(iframeRes?.[1], c.id).toEqual({ status: c.status, widgetStatus: undefined });
      expect(jsRes?.[1], c.id).toEqual({ status: 200, widgetStatus: String(c.status) });
    }
    const code = await page.evaluate(() => document.querySelector('#js-origin meteopunto-widget')!.getAttribute('data-meteopunto-error'));
    expect(code).toBe('KEY_NOT_ALLOWED');
    await page.locator('#js-quota meteopunto-widget').screenshot({ path: `${imagesDir()}/widget-refused-card.png` });
    await page.close();
  });

  it('a load the browser has cached reaches no server and uses no quota', async () => {
    const { api, keys, host, open, served } = env();
    const src = widgetUrl(api, { key: keys.widget, ...P, name: 'Cache' });
    const path = src.slice(api.length);
    const url = host.page('cached', jsSlot('c', src));
    const first = await open(url);
    expect((await extract(first.page, 'c', 'js')).name).toBe('Cache');
    await first.page.close();
    const again = await open(url);
    expect((await extract(again.page, 'c', 'js')).name).toBe('Cache');
    await again.page.close();
    expect(served.get(path)).toBe(1);
  });

  layoutTests(env);
});
