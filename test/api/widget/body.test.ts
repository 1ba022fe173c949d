/**
 * The served box's bytes (api/widget/body.ts) against the reference
 * renderer (renderWidget: escapeHtml on every text, scriptString over the
 * whole markup), over every mode, variant, theme and icon, missing values,
 * and names that hold every character either escape changes; and, apart
 * from both, the script run in a stub document: what it hands the page is
 * the box's markup and stylesheet themselves.
 */
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { plainView, servedBody } from '../../../api/widget/body.js';
import { boxBytes } from '../../../api/widget/box-bytes.js';
import { ICON_SHAPES } from '../../../api/widget/icons.js';
import { boxMarkup } from '../../../api/widget/markup.js';
import { renderWidget } from '../../../api/widget/render.js';
import { WIDGET_MODES, WIDGET_THEMES, WIDGET_VARIANTS, type Presentation } from '../../../api/widget/schema.js';
import { widgetCss } from '../../../api/widget/style.js';
import { widgetView, type WidgetPlace } from '../../../api/widget/view.js';
import type { FreeFields } from '../../../api/fields/base/schema.js';

const FIELDS: FreeFields = {
  icon: 'partly-cloudy-day', condition: 'partly_cloudy', temperature: 17.14, temperature_source: 'nwp 2.2 km bilinear, sample data',
  dew_point: 8, humidity: 57, pressure_msl: 1013.7, wind_speed: 7.04, wind_direction: 223, wind_gust: 20,
  temperature_trend_3h: { delta: 4.2, label: 'in aumento, +4,2 °C in 3 ore' }, valid_time: '2024-06-21T10:30:00.000Z',
};
const COLD: FreeFields = {
  ...FIELDS, icon: 'snow', condition: 'snow', temperature: -3.04, temperature_source: 'nwp 2.2 km bilinear', wind_speed: 0, wind_direction: null,
  temperature_trend_3h: { delta: -2, label: 'in calo, \u22122,0 °C in 3 ore' },
};
const MISSING: FreeFields = {
  ...FIELDS, icon: null, condition: null, temperature: null, humidity: null, wind_speed: null, wind_direction: null, temperature_trend_3h: null,
};

/** Names holding what escapeHtml or scriptString change, what ends a script, and plain ones. */
const NAMES = [
  undefined, 'Firenze', 'Forlì', "Sant'Agata", 'L\u2019Aquila — “centro”', 'Forlì & Cesena', 'back\\slash', 'Riva\u2028del\u2029Garda',
  '<img src=x onerror=alert(1)>', '</script><script>alert(1)</script>', '</SCRIPT', '<!-- x -->', `"'><svg onload=alert(1)>`,
  'tab\there\nnew\rline', '😀'.repeat(70), 'x'.repeat(500), '   ',
];
const PLACES: WidgetPlace[] = NAMES.flatMap((name) => [
  { lat: 43.7696, lon: 11.2558, name, runIso: null },
  { lat: 37.5, lon: 15.09, name, runIso: '2024-06-21T00:00:00Z' },
]);

function* presentations(): Generator<Presentation> {
  for (const mode of WIDGET_MODES) for (const variant of WIDGET_VARIANTS) for (const theme of WIDGET_THEMES) yield { mode, variant, theme };
}

/** Runs a js-mode body against a stub DOM: the style's text and the template's markup the script sets. */
function runScript(body: string): { css: string; html: string } {
  const set: Record<string, string> = {};
  const element = (tag: string) => ({
    tag,
    setAttribute() {},
    attachShadow: () => ({ appendChild() {} }),
    content: {},
    set textContent(v: string) { set[`${tag}.textContent`] = v; },
    set innerHTML(v: string) { set[`${tag}.innerHTML`] = v; },
  });
  const script = { parentNode: { insertBefore() {} } };
  runInNewContext(body, { document: { currentScript: script, createElement: element }, window: {} });
  return { css: set['style.textContent']!, html: set['template.innerHTML']! };
}

describe('served widget body', () => {
  it('is renderWidget\'s text, UTF-8, for every presentation, icon, missing values and hostile names', () => {
    let compared = 0;
    for (const fields of [FIELDS, COLD, MISSING, ...Object.keys(ICON_SHAPES).map((icon) => ({ ...FIELDS, icon }))]) {
      for (const place of PLACES) {
        const v = widgetView(fields, place);
        for (const p of presentations()) {
          const body = servedBody(v, p);
          expect(Buffer.isBuffer(body)).toBe(true);
          expect(body.toString('utf8'), `${place.name} ${fields.icon} ${JSON.stringify(p)}`).toBe(renderWidget(v, p));
          compared++;
        }
      }
    }
    expect(compared).toBe((3 + Object.keys(ICON_SHAPES).length) * PLACES.length * 12);
  });

  it('the same bytes as Buffer.from(renderWidget) for lone surrogates, arrows at the rounding edges, an icon weather.php never gives', () => {
    const cases: Array<[FreeFields, string | undefined]> = [
      [FIELDS, 'a\ud800b'], [FIELDS, 'tail\udbff'], [FIELDS, '\udc00head'], [FIELDS, 'pair 😀 and \ud83d alone'],
      ...[179.4, 179.5, 179.6, 180.4, 180.5, 0, 359.9, -0.2].map((d): [FreeFields, string] => [{ ...FIELDS, wind_direction: d }, 'Firenze']),
      [{ ...FIELDS, icon: 'tornado' }, 'Firenze'], [{ ...FIELDS, icon: 'constructor' }, undefined],
    ];
    for (const [fields, name] of cases) {
      for (const place of [{ lat: 43.7696, lon: 11.2558, name, runIso: null }, { lat: -12.5, lon: -70.25, name, runIso: '2024-06-21T00:00:00Z' }]) {
        const v = widgetView(fields, place);
        for (const p of presentations()) {
          const expected = Buffer.from(renderWidget(v, p), 'utf8');
          expect(servedBody(v, p).equals(expected), `${name} ${fields.icon} ${fields.wind_direction} ${JSON.stringify(p)}`).toBe(true);
        }
      }
    }
  });

  it('the box is written from its view, escapes and all, unless its icon is one weather.php never gives', () => {
    const at = (name: string | undefined, icon = FIELDS.icon) => widgetView({ ...FIELDS, icon }, { lat: 43.77, lon: 11.25, name, runIso: null });
    for (const p of presentations()) {
      for (const name of NAMES) expect(boxBytes(at(name), p), `${name} ${JSON.stringify(p)}`).toBeDefined();
      expect(boxBytes(at('Firenze', 'tornado'), p)).toBeUndefined();
    }
  });

  it('escapes: what the bytes hold for the characters either escape changes, written by hand', () => {
    const text = (mode: 'js' | 'iframe') => boxBytes(at(`a&b<c>d"e'f\\g\nh\ri\u2028j\u2029k`), { mode, variant: 'card', theme: 'auto' })!.toString('utf8');
    const at = (name: string) => widgetView(FIELDS, { lat: 43.77, lon: 11.25, name, runIso: null });
    expect(text('iframe')).toContain(`<span class="name t" title="a&amp;b&lt;c&gt;d&quot;e&#39;f\\g h i\u2028j\u2029k">`);
    expect(text('js')).toContain(`<span class="name t" title="a&amp;b&lt;c&gt;d&quot;e&#39;f\\\\g h i\\u2028j\\u2029k">`);
  });

  it('the escapes are skipped only for views with nothing to escape', () => {
    const at = (name: string | undefined) => widgetView(COLD, { lat: 43.77, lon: 11.25, name, runIso: null });
    expect(plainView(at('Firenze'))).toBe(true);
    expect(plainView(at(undefined))).toBe(true);
    expect(plainView(widgetView(MISSING, { lat: 43.77, lon: 11.25, name: 'Forlì', runIso: '2024-06-21T00:00:00Z' }))).toBe(true);
    for (const name of ["Sant'Agata", 'a & b', 'back\\slash', 'a\u2028b', 'x<y', 'x>y', 'say "hi"']) expect(plainView(at(name)), name).toBe(false);
  });

  it('the script hands the page the box\'s own markup and stylesheet, whatever the name', () => {
    for (const place of PLACES) {
      const v = widgetView(COLD, place);
      for (const p of presentations()) {
        if (p.mode !== 'js') continue;
        const body = servedBody(v, p).toString('utf8');
        expect(body).not.toMatch(/<\/script|<!--|[\u2028\u2029]/i);
        const { css, html } = runScript(body);
        expect(html, String(place.name)).toBe(boxMarkup(v, p.variant, p.theme));
        expect(css).toBe(widgetCss('js', p.variant, p.theme));
      }
    }
  });

  it('a body keeps its bytes while thousands of later ones are made (slabs are never written twice)', () => {
    const p: Presentation = { mode: 'js', variant: 'card', theme: 'auto' };
    const first = Array.from({ length: 50 }, (_, i) => servedBody(widgetView({ ...FIELDS, temperature: i }, PLACES[2]!), p));
    const copies = first.map((b) => Buffer.from(b));
    for (let i = 0; i < 5000; i++) servedBody(widgetView({ ...FIELDS, temperature: -i }, PLACES[i % PLACES.length]!), p);
    first.forEach((b, i) => expect(b.equals(copies[i]!), `body ${i}`).toBe(true));
  });
});
