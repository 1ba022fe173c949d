/**
 * The box's Italian wording (api/widget/view.ts), against hand-written
 * expectations: cardinal sectors at their edges, the minus sign, Europe/Rome
 * local time on both sides of the summer-time change, label cleaning.
 */
import { describe, expect, it } from 'vitest';
import { cardinalIt, italianCoordinates, italianNumber, romeTime, runLabel, widgetView, NAME_SHOWN_MAX, type WidgetPlace } from '../../../api/widget/view.js';
import { ICON_SHAPES } from '../../../api/widget/icons.js';
import { refusalReason, italianWait } from '../../../api/widget/refusal.js';
import { scriptString } from '../../../api/widget/documents.js';
import type { FreeFields } from '../../../api/fields/base/schema.js';

const FIELDS: FreeFields = {
  icon: 'clear-night', condition: 'clear', temperature: -3.04, temperature_source: 'nwp 2.2 km bilinear, not altitude-corrected (no point elevation)',
  dew_point: -8, humidity: 71, pressure_msl: 1020.1, wind_speed: 0, wind_direction: null, wind_gust: 3.6,
  temperature_trend_3h: { delta: -2, label: 'in calo, \u22122,0 °C in 3 ore' }, valid_time: '2024-01-15T21:05:00.000Z',
};

/** The fixture's point, no name, a forecast run at 18 UTC the same day. */
const AT: WidgetPlace = { lat: 43.7696, lon: 11.2558, runIso: '2024-01-15T18:00:00Z' };
const named = (name: string): WidgetPlace => ({ ...AT, name });

describe('widget wording', () => {
  it('cardinal points: 45° sectors centred on each point, Italian letters', () => {
    expect([0, 22.4, 22.6, 90, 135, 180, 202, 225, 247.4, 270, 315, 337.4, 337.6, 359].map(cardinalIt)).toEqual(
      ['N', 'N', 'NE', 'E', 'SE', 'S', 'S', 'SO', 'SO', 'O', 'NO', 'NO', 'N', 'N']);
  });

  it('numbers: decimal comma, U+2212 minus, no minus on a rounded zero', () => {
    expect(italianNumber(27.4, 1)).toBe('27,4');
    expect(italianNumber(-3, 1)).toBe('\u22123,0');
    expect(italianNumber(-0.04, 1)).toBe('0,0');
    expect(italianNumber(62, 0)).toBe('62');
  });

  it('numbers: the same text on every call, from the table of recent ones or not (tenths written here by integer arithmetic)', () => {
    const tenths = (k: number) => `${k < 0 ? '\u2212' : ''}${Math.floor(Math.abs(k) / 10)},${Math.abs(k) % 10}`;
    // Twice over more values than the table keeps (4,096 per number of decimals): computed, kept, and after a clear.
    for (let pass = 0; pass < 2; pass++) for (let k = -3000; k <= 3000; k++) expect(italianNumber(k / 10, 1)).toBe(tenths(k));
    for (const z of [0, -0, -0.04, 0.04]) expect(italianNumber(z, 1)).toBe('0,0');
    expect(italianNumber(-0.04, 0)).toBe('0');
    expect(italianNumber(62, 0)).toBe('62');
    expect(italianNumber(62, 2)).toBe('62,00');
  });

  it('time in Europe/Rome: UTC+1 in winter, UTC+2 in summer', () => {
    expect(romeTime('2024-01-15T21:05:00.000Z')).toBe('22:05');
    expect(romeTime('2024-06-21T10:30:00.000Z')).toBe('12:30');
    expect(romeTime('2024-03-31T00:59:00Z')).toBe('01:59'); // the change happens at 01:00 UTC
    expect(romeTime('2024-03-31T01:00:00Z')).toBe('03:00');
  });

  it('calm wind, night, trend, no sample notice', () => {
    const v = widgetView(FIELDS, AT);
    expect(v).toMatchObject({ temperature: '\u22123,0 °C', humidity: '71 %', wind: '0,0 km/h, calma', windArrowDeg: null, conditionIt: 'sereno', sample: false, name: null });
    expect(widgetView({ ...FIELDS, wind_speed: 18, wind_direction: 217 }, AT)).toMatchObject({ wind: '18,0 km/h da SO', windArrowDeg: 37 });
    expect(widgetView({ ...FIELDS, temperature_source: `${FIELDS.temperature_source}, sample data` }, AT).sample).toBe(true);
  });

  it('names: controls become spaces, long names end in an ellipsis at a code point', () => {
    expect(widgetView(FIELDS, named(' Pisa\u0000\nsud ')).nameShown).toBe('Pisa  sud');
    expect(widgetView(FIELDS, named('Riva\u2028del Garda')).nameShown).toBe('Riva\u2028del Garda');
    const long = '😀'.repeat(100);
    const shown = widgetView(FIELDS, named(long)).nameShown;
    expect(Array.from(shown)).toHaveLength(NAME_SHOWN_MAX);
    expect(shown.endsWith('😀…')).toBe(true);
  });

  it('without a name the box names the point by its coordinates, Italian style, to 0.01°', () => {
    // 43.7696 → 43,77; 11.2558 → 11,26 (half away from zero at the third decimal would not matter here)
    expect(widgetView(FIELDS, AT)).toMatchObject({ name: null, nameShown: '43,77° N 11,26° E', coordinates: ['43,77° N', '11,26° E'] });
    expect(widgetView(FIELDS, named('   ')).nameShown).toBe('43,77° N 11,26° E');
    expect(widgetView(FIELDS, named('Pisa')).coordinates).toBeNull();
    expect(italianCoordinates(35.5, 6)).toEqual(['35,50° N', '6,00° E']);
    expect(italianCoordinates(-33.9, -18.4)).toEqual(['33,90° S', '18,40° O']);
  });

  it('the time shown is the forecast run in Europe/Rome, not the load time; the valid time goes to the title', () => {
    // FIELDS.valid_time 2024-01-15T21:05Z = 22:05 in Rome (CET); a run at 18 UTC = 19:00 in Rome.
    expect(widgetView(FIELDS, AT)).toMatchObject({ updated: 'previsione delle 19:00', updatedTitle: 'valori per le 22:05, previsione delle 19:00' });
    // A run of the evening before (21 UTC = 22:00 on the 14th in Rome) ...
    expect(runLabel('2024-01-14T21:00:00Z', FIELDS.valid_time)).toBe('previsione delle 22:00 di ieri');
    // ... across midnight in Rome though not in UTC: 23 UTC on the 14th is 00:00 on the 15th in Rome.
    expect(runLabel('2024-01-14T23:00:00Z', FIELDS.valid_time)).toBe('previsione delle 00:00');
    // Summer time: 03 UTC is 05:00 in Rome (CEST); older runs give the date.
    expect(runLabel('2024-06-21T03:00:00Z', '2024-06-21T10:30:00Z')).toBe('previsione delle 05:00');
    expect(runLabel('2024-06-18T03:00:00Z', '2024-06-21T10:30:00Z')).toBe('previsione del 18/06, 05:00');
    // A product that records no run: the valid time, said as such.
    expect(widgetView(FIELDS, { ...AT, runIso: null })).toMatchObject({ updated: 'valori delle 22:05' });
  });

  it('snow is drawn as six-armed flakes: three strokes 60° apart through each centre (two at 90° read as a plus sign)', () => {
    for (const icon of ['snow', 'heavy-snow', 'snow-showers-day', 'snow-showers-night', 'freezing-rain', 'freezing-drizzle']) {
      const d = /<g class="snow"><path d="([^"]+)"/.exec(ICON_SHAPES[icon]!)?.[1];
      expect(d, icon).toBeDefined();
      // Segments "M x y" followed by one relative move (v dy, h dx or l dx dy).
      const segs = [...d!.matchAll(/M([\d.-]+) ([\d.-]+)(?:v([\d.-]+)|h([\d.-]+)|l([\d.-]+) ([\d.-]+))/g)].map((m) => {
        const [x, y] = [Number(m[1]), Number(m[2])];
        const [dx, dy] = m[3] !== undefined ? [0, Number(m[3])] : m[4] !== undefined ? [Number(m[4]), 0] : [Number(m[5]), Number(m[6])];
        return { mid: [x + dx / 2, y + dy / 2], deg: ((Math.atan2(dy, dx) * 180) / Math.PI + 180) % 180 };
      });
      const byCentre = new Map<string, number[]>();
      for (const s of segs) {
        const k = s.mid.map((c) => c.toFixed(1)).join(',');
        byCentre.set(k, [...(byCentre.get(k) ?? []), s.deg]);
      }
      for (const [c, degs] of byCentre) {
        expect(degs.length, `${icon} flake at ${c}`).toBe(3);
        const sorted = degs.sort((a, b) => a - b);
        expect(sorted[1]! - sorted[0]!, `${icon} at ${c}`).toBeCloseTo(60, 0);
        expect(sorted[2]! - sorted[1]!, `${icon} at ${c}`).toBeCloseTo(60, 0);
      }
    }
  });

  it('refusal reasons in Italian, with the wait from Retry-After', () => {
    expect(italianWait(1)).toBe('1 secondo');
    expect(italianWait(45)).toBe('45 secondi');
    expect(italianWait(600)).toBe('10 minuti');
    expect(italianWait(7200)).toBe('2 ore');
    expect(refusalReason({ status: 429, code: 'QUOTA_EXCEEDED', message: 'quota exceeded', headers: { 'Retry-After': 3600 } }))
      .toBe('Limite di richieste della chiave raggiunto. Riprova tra 60 minuti.');
    expect(refusalReason({ status: 400, code: 'INVALID_PARAMETER', message: "Missing required parameter 'lat'", headers: {} }))
      .toBe('Mancano le coordinate del punto (lat e lon).');
    expect(refusalReason({ status: 503, code: 'DATA_NOT_AVAILABLE', message: 'x', headers: {} })).toBe('Dati meteo non ancora disponibili. Riprova più tardi.');
  });

  it('script strings: any text comes back unchanged when evaluated, and holds no </script, <!-- or line terminator', () => {
    const tricky = ['<span>x</span>', '</SCRIPT >', 'a<!--b', 'plain', `'"\\'`, '</script><script>alert(1)</script>', '<!-- x -->', 'a\nb\rc\u2028d\u2029e', '\\u003c', '😀\u0000\u0007', "it's"];
    for (const s of tricky) {
      const lit = scriptString(s);
      expect(lit).not.toMatch(/<\/script|<!--|[\n\r\u2028\u2029]/i);
      expect(new Function(`return ${lit};`)(), JSON.stringify(s)).toBe(s);
    }
  });
});
