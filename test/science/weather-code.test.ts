/**
 * Weather codes against WMO-No. 306, Manual on Codes, Vol. I.1, Part A, code
 * table 4677 (present weather reported from a manned station): the rows of
 * the codes weather.php answers with are written out below from the Manual,
 * and the labels, conditions, icons and derivation are checked against their
 * words, never against the library's own table.
 */
import { describe, expect, it } from 'vitest';
import { WEATHER_CODES, weatherCodeFromState, weatherCodeSpec, weatherCondition } from '../../science/index.js';

/** WMO 4677 rows (codes 0–3 are used for cloud amount instead, see science/weather-code.ts). */
const WMO_4677: Record<number, string> = {
  45: 'Fog or ice fog, sky invisible (no appreciable change during the preceding hour)',
  48: 'Fog, depositing rime, sky visible',
  51: 'Drizzle, not freezing, continuous, slight at time of observation',
  53: 'Drizzle, not freezing, continuous, moderate at time of observation',
  55: 'Drizzle, not freezing, continuous, heavy (dense) at time of observation',
  56: 'Drizzle, freezing, slight',
  57: 'Drizzle, freezing, moderate or heavy (dense)',
  61: 'Rain, not freezing, continuous, slight at time of observation',
  63: 'Rain, not freezing, continuous, moderate at time of observation',
  65: 'Rain, not freezing, continuous, heavy at time of observation',
  66: 'Rain, freezing, slight',
  67: 'Rain, freezing, moderate or heavy',
  71: 'Continuous fall of snowflakes, slight at time of observation',
  73: 'Continuous fall of snowflakes, moderate at time of observation',
  75: 'Continuous fall of snowflakes, heavy at time of observation',
  77: 'Snow grains (with or without fog)',
  80: 'Rain shower(s), slight',
  81: 'Rain shower(s), moderate or heavy',
  82: 'Rain shower(s), violent',
  85: 'Snow shower(s), slight',
  86: 'Snow shower(s), moderate or heavy',
  95: 'Thunderstorm, slight or moderate, without hail, but with rain and/or snow at time of observation',
  96: 'Thunderstorm, slight or moderate, with hail at time of observation',
  99: 'Thunderstorm, heavy, with hail at time of observation',
};
const withHail = (row: string) => /with hail/.test(row);
const freezing = (row: string) => /freezing/.test(row) && !/not freezing/.test(row);

describe('labels, conditions and icons say what the WMO 4677 row says', () => {
  for (const [code, row] of Object.entries(WMO_4677).map(([c, r]) => [Number(c), r] as const)) {
    it(`${code}: ${row}`, () => {
      const spec = weatherCodeSpec(code)!;
      const { condition, icon } = weatherCondition(code, true);
      const it_ = spec.it;
      // Hail: 96 and 99 only, and 95 explicitly without.
      expect(it_.includes('grandine'), `${code} '${it_}' and hail`).toBe(withHail(row));
      expect(icon.includes('hail'), `${code} icon ${icon}`).toBe(withHail(row));
      expect(condition.includes('hail'), `${code} condition ${condition}`).toBe(withHail(row));
      // Freezing precipitation.
      expect(/congelant/.test(it_), `${code} '${it_}' and freezing`).toBe(freezing(row));
      expect(icon.startsWith('freezing-')).toBe(freezing(row));
      // Rime is galaverna (brina is hoar frost, which fog does not deposit).
      if (/rime/.test(row)) expect(it_).toMatch(/galaverna/);
      expect(it_).not.toMatch(/brina/);
      // What falls.
      if (/^Thunderstorm/.test(row)) expect(it_).toMatch(/^temporale/);
      else if (/^Drizzle/.test(row)) expect(it_).toMatch(/^pioviggine/);
      else if (/^Rain shower/.test(row)) expect(it_).toMatch(/^rovesci(?! di neve)/);
      else if (/^Snow shower/.test(row)) expect(it_).toMatch(/^rovesci di neve/);
      else if (/^Rain/.test(row)) expect(it_).toMatch(/^pioggia/);
      else if (/snowflakes|Snow grains/.test(row)) expect(it_).toMatch(/^neve/);
      else if (/^Fog/.test(row)) expect(it_).toMatch(/^nebbia/);
      // Intensity: slight is debole; heavy alone is forte or intensa; violent is violento; a range never says more than it.
      if (/, slight\b(?! or)/.test(row)) expect(it_).toMatch(/debol/);
      if (/(^|, )heavy\b/.test(row) && !/moderate or heavy/.test(row)) expect(it_).toMatch(/fort|intens/);
      if (/violent/.test(row)) expect(it_).toMatch(/violent/);
      if (/moderate or heavy/.test(row)) expect(it_).not.toMatch(/debol/);
      if (/slight or moderate/.test(row)) expect(it_).not.toMatch(/fort|violent/);
    });
  }

  it('the table holds exactly these codes and 0–3', () => {
    expect(Object.keys(WEATHER_CODES).map(Number).sort((a, b) => a - b)).toEqual([0, 1, 2, 3, ...Object.keys(WMO_4677).map(Number)]);
  });
});

describe('weatherCondition', () => {
  it('covers the 28 codes of the Open-Meteo subset with unique snake_case conditions', () => {
    const codes = Object.keys(WEATHER_CODES).map(Number);
    expect(codes).toHaveLength(28);
    const conditions = codes.map((c) => weatherCondition(c, true).condition);
    expect(new Set(conditions).size).toBe(28);
    for (const c of conditions) expect(c).toMatch(/^[a-z]+(_[a-z]+)*$/);
  });

  it('has day and night icons where the sky shows', () => {
    expect(weatherCondition(0, true)).toEqual({ condition: 'clear', icon: 'clear-day' });
    expect(weatherCondition(0, false)).toEqual({ condition: 'clear', icon: 'clear-night' });
    expect(weatherCondition(2, false).icon).toBe('partly-cloudy-night');
    expect(weatherCondition(3, false).icon).toBe('overcast');
    expect(weatherCondition(63.2, true).condition).toBe('rain');
    expect(weatherCondition(4, true)).toEqual({ condition: 'unknown', icon: 'unknown' });
    expect(weatherCondition(NaN, true).condition).toBe('unknown');
  });
});

describe('weatherCodeFromState', () => {
  it('follows the documented thresholds', () => {
    expect(weatherCodeFromState({ cloudCoverPct: 19.9, precipitationMm: 0 })).toBe(0);
    expect(weatherCodeFromState({ cloudCoverPct: 80, precipitationMm: 0 })).toBe(3);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.05 })).toBe(3);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.1 })).toBe(51);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 7.6 })).toBe(65);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, stepHours: 3 })).toBe(55); // 1.0 mm/h
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 2, freezingRain: true })).toBe(66);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, convectivePrecipitationMm: 1 })).toBe(81);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, capeJPerKg: 2500 })).toBe(95);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, capeJPerKg: 2500, liftedIndexK: 0 })).toBe(81);
  });

  it('never derives a thunderstorm with hail: no model field here tells hail (regression: 96 at gusts ≥ 5 m/s or 10 mm/h)', () => {
    // 40 mm/h under CAPE 3500 J/kg and LI −8 K is a violent storm, but hail is not derivable: 95, without hail.
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 40, capeJPerKg: 3500, liftedIndexK: -8 })).toBe(95);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 12, capeJPerKg: 2500, liftedIndexK: -4 })).toBe(95);
    for (const cape of [0, 900, 2000, 4000]) {
      for (const precipitationMm of [0, 0.3, 2, 12, 60]) {
        for (const convectivePrecipitationMm of [0, 1]) {
          for (const snowfallFraction of [0, 1]) {
            for (const temperature2mC of [-5, 10]) {
              const code = weatherCodeFromState({ cloudCoverPct: 100, precipitationMm, capeJPerKg: cape, convectivePrecipitationMm, snowfallFraction, temperature2mC });
              expect(WMO_4677[code] === undefined || !withHail(WMO_4677[code]!), `derived ${code}`).toBe(true);
            }
          }
        }
      }
    }
  });

  it('checks freezing precipitation before showers and snow, in the cited order (regression: after them)', () => {
    // A flagged freezing rain of 3 mm/h with convective precipitation: 67 (rain, freezing, moderate or heavy), not showers (81).
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, convectivePrecipitationMm: 1, freezingRain: true })).toBe(67);
    // Flagged, with a trace of snow: 56 (drizzle, freezing, slight), not snow (71).
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.3, snowfallCm: 0.05, freezingRain: true })).toBe(56);
    // A thunderstorm still comes first.
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 3, capeJPerKg: 2500, freezingRain: true })).toBe(95);
  });

  it('diagnoses freezing precipitation from the 2 m temperature when the phase is known (regression: 56/57/66/67 never derived)', () => {
    const liquid = { cloudCoverPct: 100, snowfallFraction: 0 };
    expect(weatherCodeFromState({ ...liquid, precipitationMm: 0.3, temperature2mC: -1 })).toBe(56);
    expect(weatherCodeFromState({ ...liquid, precipitationMm: 0.7, temperature2mC: 0 })).toBe(57);
    expect(weatherCodeFromState({ ...liquid, precipitationMm: 2, temperature2mC: -3 })).toBe(66);
    expect(weatherCodeFromState({ ...liquid, precipitationMm: 5, temperature2mC: -0.5 })).toBe(67);
    // Above 0 °C: not freezing.
    expect(weatherCodeFromState({ ...liquid, precipitationMm: 2, temperature2mC: 0.5 })).toBe(61);
    // Mostly snow at −3 °C: snow (2 × 0.8 × 0.7 = 1.12 cm/h → 75), not freezing rain.
    expect(weatherCodeFromState({ cloudCoverPct: 100, snowfallFraction: 0.8, precipitationMm: 2, temperature2mC: -3 })).toBe(75);
    // Phase unknown: no diagnosis.
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 2, temperature2mC: -3 })).toBe(61);
  });

  it('derives snowfall from the snow fraction (0.7 cm per mm)', () => {
    // 2 mm all snow → 1.4 cm/h → heavy snow; 0.2 mm → 0.14 cm/h → slight.
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 2, snowfallFraction: 1 })).toBe(75);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.2, snowfallFraction: 1 })).toBe(71);
    expect(weatherCodeFromState({ cloudCoverPct: 100, precipitationMm: 0.5, snowfallFraction: 1 })).toBe(73);
    expect(weatherCodeFromState({ cloudCoverPct: NaN, precipitationMm: 0 })).toBeNaN();
  });
});
