/**
 * The box's Italian wording (api/widget/view.ts), against hand-written
 * expectations: cardinal sectors at their edges, the minus sign, Europe/Rome
 * local time on both sides of the summer-time change, label cleaning.
 */
import { describe, expect, it } from 'vitest';
import { cardinalIt, italianNumber, romeTime, widgetView, NAME_SHOWN_MAX } from '../../../api/widget/view.js';
import { refusalReason, italianWait } from '../../../api/widget/refusal.js';
import { scriptString } from '../../../api/widget/documents.js';
import type { FreeFields } from '../../../api/fields/base/schema.js';

const FIELDS: FreeFields = {
  icon: 'clear-night', condition: 'clear', temperature: -3.04, temperature_source: 'nwp 2.2 km bilinear, not altitude-corrected (no point elevation)',
  dew_point: -8, humidity: 71, pressure_msl: 1020.1, wind_speed: 0, wind_direction: null, wind_gust: 3.6,
  temperature_trend_3h: { delta: -2, label: 'in calo, \u22122,0 °C in 3 ore' }, valid_time: '2024-01-15T21:05:00.000Z',
};

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

  it('time in Europe/Rome: UTC+1 in winter, UTC+2 in summer', () => {
    expect(romeTime('2024-01-15T21:05:00.000Z')).toBe('22:05');
    expect(romeTime('2024-06-21T10:30:00.000Z')).toBe('12:30');
    expect(romeTime('2024-03-31T00:59:00Z')).toBe('01:59'); // the change happens at 01:00 UTC
    expect(romeTime('2024-03-31T01:00:00Z')).toBe('03:00');
  });

  it('calm wind, night, trend, no sample notice', () => {
    const v = widgetView(FIELDS, undefined);
    expect(v).toMatchObject({ temperature: '\u22123,0 °C', humidity: '71 %', wind: '0,0 km/h, calma', windArrowDeg: null, conditionIt: 'sereno', updated: 'aggiornato alle 22:05', sample: false, name: null });
    expect(widgetView({ ...FIELDS, wind_speed: 18, wind_direction: 217 }, undefined)).toMatchObject({ wind: '18,0 km/h da SO', windArrowDeg: 37 });
    expect(widgetView({ ...FIELDS, temperature_source: `${FIELDS.temperature_source}, sample data` }, undefined).sample).toBe(true);
  });

  it('names: controls become spaces, long names end in an ellipsis at a code point', () => {
    expect(widgetView(FIELDS, ' Pisa\u0000\nsud ').nameShown).toBe('Pisa  sud');
    expect(widgetView(FIELDS, 'Riva\u2028del Garda').nameShown).toBe('Riva\u2028del Garda');
    const long = '😀'.repeat(100);
    const shown = widgetView(FIELDS, long).nameShown!;
    expect(Array.from(shown)).toHaveLength(NAME_SHOWN_MAX);
    expect(shown.endsWith('😀…')).toBe(true);
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
