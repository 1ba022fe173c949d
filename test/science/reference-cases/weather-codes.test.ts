/**
 * The 'wmo_weather_codes' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * WMO weather codes: the Open-Meteo identifier and the WMO 4677 hail, freezing and rime of
 * each code's Italian label, and the code chosen from a model state.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark } from './harness.js';

quantity('wmo_weather_codes', (c) => {
  const i = c.inputs;
  if (i.weather_code !== undefined) {
    expect(d.weatherCodeSpec(i.weather_code)!.openMeteo).toBe(c.expected.openmeteo_identifier);
    expect(d.weatherCondition(i.weather_code, true).condition).not.toBe('unknown');
    mark('wmo_weather_codes', c, 'openmeteo_identifier');
    if (i.weather_code >= 4) {
      // The Italian label carries the WMO row's hail, freezing and rime.
      const text = c.expected.wmo_4677_text as string;
      const label = d.weatherCodeSpec(i.weather_code)!.it;
      expect(label.includes('grandine'), `${label} / ${text}`).toBe(/with hail/.test(text));
      expect(/congelant/.test(label), `${label} / ${text}`).toBe(/freezing/.test(text) && !/not freezing/.test(text));
      expect(/galaverna/.test(label), `${label} / ${text}`).toBe(/rime/.test(text));
      mark('wmo_weather_codes', c, 'wmo_4677_text');
    }
  } else {
    const code = d.weatherCodeFromState({
      cloudCoverPct: i.cloud_cover_pct,
      precipitationMm: i.precip_mm_per_h,
      snowfallCm: i.snowfall_cm_per_h,
      visibilityM: i.visibility_m ?? undefined,
      convectivePrecipitationMm: i.convective_precip,
      capeJPerKg: i.cape ?? undefined,
      freezingRain: i.freezing_rain_flag ?? undefined,
    });
    expect(code).toBe(c.expected.weather_code);
    mark('wmo_weather_codes', c, 'weather_code');
  }
}, {
  wmo_4677_text:
    'codes 0-3: the library follows Open-Meteo (cloud amount), not the WMO wording (change of the sky); the other codes are checked',
});
