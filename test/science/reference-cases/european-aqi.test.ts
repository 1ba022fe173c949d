/**
 * The 'european_aqi' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * European AQI (EEA): each pollutant's sub-index on the 2024 and pre-2024 bands, the label,
 * and the overall index, label and dominant pollutant of a mix.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark, near, snake } from './harness.js';

const AQI_NAME: Record<string, d.AqiPollutant> = {
  no2: 'nitrogen_dioxide',
  o3: 'ozone',
  pm2_5: 'pm2_5',
  pm10: 'pm10',
  so2: 'sulphur_dioxide',
};

quantity('european_aqi', (c) => {
  const i = c.inputs;
  const e = c.expected;
  const tol = c.tolerance!.subindex_abs as number;
  if (i.pollutant) {
    const pre = c.id.startsWith('eaqi_pre2024');
    const bands = pre ? d.EAQI_BANDS_PRE2024 : d.EAQI_BANDS_2024;
    const conc = i.concentration_ug_m3_1h ?? i.concentration_ug_m3;
    const s = d.europeanAqiSubIndex(AQI_NAME[i.pollutant]!, conc, bands);
    if (e.openmeteo_subindex === 'NaN') expect(s).toBeNaN();
    else near(s, e.openmeteo_subindex, tol, 'sub-index');
    const overall = d.europeanAqi({ [AQI_NAME[i.pollutant]!]: conc }, bands);
    expect(overall.label).toBe(e.label === null ? null : snake(e.label));
    mark('european_aqi', c, 'openmeteo_subindex', 'label');
  } else {
    const input: d.AqiInput = {};
    for (const [k, v] of Object.entries(i)) input[AQI_NAME[k]!] = v as number;
    const r = d.europeanAqi(input);
    for (const [k, v] of Object.entries(e.openmeteo_subindices as Record<string, number>)) {
      near(r.subIndices[AQI_NAME[k]!]!, v, tol, `sub-index ${k}`);
    }
    near(r.value, Math.max(...Object.values(e.openmeteo_subindices as Record<string, number>)), tol, 'overall');
    expect(r.label).toBe(snake(e.overall_label));
    expect(r.dominant).toBe(AQI_NAME[e.dominant]);
    expect(e.overall).toBe('max of sub-indices');
    mark('european_aqi', c, 'overall', 'openmeteo_subindices', 'overall_label', 'dominant');
  }
});
