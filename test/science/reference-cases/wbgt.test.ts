/**
 * The 'wbgt' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * WBGT (Liljegren et al. 2008, wbgt.c): globe, natural and psychrometric wet bulb and WBGT
 * with the intermediate sun and wind values, the US military heat category and the ISO 7243 /
 * NIOSH risk classes at 300 W.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark, near } from './harness.js';

const WORKLIMATE_IT: Record<string, d.WbgtRiskLevel> = {
  'NON SIGNIFICATIVO': 'not_significant',
  BASSO: 'low',
  MODERATO: 'moderate',
  ALTO: 'high',
};
const HEAT_CAT: Record<string, d.HeatCategory> = {
  'Cat 1 white (78-81.9 F)': 'cat1_white',
  'Cat 2 green (82-84.9 F)': 'cat2_green',
  'Cat 3 yellow (85-87.9 F)': 'cat3_yellow',
  'Cat 4 red (88-89.9 F)': 'cat4_red',
  'Cat 5 black (>=90 F)': 'cat5_black',
  'below heat category 1 (no flag)': 'none',
};

quantity('wbgt', (c) => {
  const i = c.inputs;
  const e = c.expected;
  const t = c.tolerance!;
  const r = d.wbgtDetail({
    time: new Date(i.datetime_utc),
    lat: i.lat_deg,
    lon: i.lon_deg,
    temperature: i.ta_degC,
    relativeHumidity: i.rh_pct,
    pressure: i.pressure_hPa,
    windSpeed: i.wind_m_s,
    windHeight: i.wind_height_m,
    shortwaveRadiation: i.solar_global_horizontal_W_m2,
    urban: i.urban,
    verticalTempDiffK: i.dT_upper_minus_lower_K,
  });
  // wbgt.c uses the Almanac low-precision Sun with refraction; ours is geometric (NOAA/Meeus).
  near(r.cosZenith, c.intermediate!.cos_zenith, 0.005, 'cos zenith');
  near(r.directFraction, c.intermediate!.fdir, 0.005, 'fdir');
  near(r.windSpeed2m, c.intermediate!.wind_2m_used_m_s, 0.001, 'wind at 2 m');
  near(r.solarUsed, c.intermediate!.solar_used_W_m2, 1.5, 'solar used');
  near(r.sun.globe, e.tg_degC, t.tg_degC, 'Tg');
  near(r.sun.naturalWetBulb, e.tnwb_degC, t.tnwb_degC, 'Tnwb');
  near(r.sun.psychrometricWetBulb, e.tpsy_degC, t.tnwb_degC, 'Tpsy');
  near(r.sun.wbgt, e.wbgt_degC, t.wbgt_degC, 'WBGT');
  expect(d.usMilitaryHeatCategory(r.sun.wbgt)).toBe(HEAT_CAT[e.us_military_heat_category]);
  expect(d.wbgtRisk(r.sun.wbgt, { metabolicRateW: 300, acclimatized: true })).toBe(WORKLIMATE_IT[e.iso7243_nioshREL_M300W_class.it]);
  expect(d.wbgtRisk(r.sun.wbgt, { metabolicRateW: 300, acclimatized: false })).toBe(WORKLIMATE_IT[e.iso7243_nioshRAL_M300W_class.it]);
  near(d.wbgtLimit(300, true), e.iso7243_nioshREL_M300W_class.threshold_degC, 0.001, 'REL');
  near(d.wbgtLimit(300, false), e.iso7243_nioshRAL_M300W_class.threshold_degC, 0.001, 'RAL');
  mark('wbgt', c, 'tg_degC', 'tnwb_degC', 'tpsy_degC', 'wbgt_degC', 'us_military_heat_category', 'iso7243_nioshREL_M300W_class', 'iso7243_nioshRAL_M300W_class');
}, {
  status:
    'wbgt.c return code; the library returns NaN instead of -9999 on non-convergence',
});
