/**
 * The 'dewpoint_rh_es' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * Humidity: dew point and saturation vapour pressure (Magnus, Alduchov and Eskridge 1996;
 * Hardy 1998), relative humidity from the dew point, vapour pressure deficit.
 */
import * as d from '../../../science/index.js';
import { quantity, mark, near } from './harness.js';

quantity('dewpoint_rh_es', (c) => {
  const i = c.inputs;
  const e = c.expected;
  const t = c.tolerance!;
  if (e.td_magnus_AE1996_degC !== undefined) {
    near(d.dewPoint(i.t_degC, i.rh_pct), e.td_magnus_AE1996_degC, t.td_degC, 'Td');
    near(d.saturationVapourPressure(i.t_degC), e.es_magnus_AE1996_hPa, t.es_rel * e.es_magnus_AE1996_hPa, 'es Magnus');
    near(d.saturationVapourPressureHardy(i.t_degC), e.es_hardy1998_hPa, t.es_rel * e.es_hardy1998_hPa, 'es Hardy');
    mark('dewpoint_rh_es', c, 'td_magnus_AE1996_degC', 'es_magnus_AE1996_hPa', 'es_hardy1998_hPa');
  } else if (e.rh_pct !== undefined) {
    near(d.relativeHumidity(i.t_degC, i.td_degC), e.rh_pct, t.rh_pct, 'RH');
    mark('dewpoint_rh_es', c, 'rh_pct');
  } else {
    near(d.vapourPressureDeficit(i.t_degC, i.td_degC), e.vpd_kPa, t.vpd_kPa, 'VPD');
    mark('dewpoint_rh_es', c, 'vpd_kPa');
  }
});
