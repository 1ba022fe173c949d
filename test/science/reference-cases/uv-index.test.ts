/**
 * The 'uv_index' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * UV index: solar zenith, clear-sky UVI from the time and place or from cos(zenith), the WHO
 * category, and the all-sky cloud modification.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark, near, snake } from './harness.js';

quantity('uv_index', (c) => {
  const i = c.inputs;
  const e = c.expected;
  const t = c.tolerance!;
  if (i.datetime_utc) {
    const p = d.solarPosition(new Date(i.datetime_utc), i.lat_deg, i.lon_deg);
    near(p.zenith, e.sza_geometric_deg, t.sza_deg, 'SZA');
    near(Math.cos((p.zenith * Math.PI) / 180), e.mu0, 0.0005, 'mu0');
    const uvi = d.uvIndexClearSky({ time: new Date(i.datetime_utc), lat: i.lat_deg, lon: i.lon_deg, totalOzone: i.total_ozone_DU });
    near(uvi, e.uvi_clear_sky, t.uvi_clear_sky_rel * e.uvi_clear_sky, 'UVI');
    expect(d.uvCategory(uvi)).toBe(snake(e.who_category_of_rounded_uvi));
    mark('uv_index', c, 'sza_geometric_deg', 'mu0', 'uvi_clear_sky', 'who_category_of_rounded_uvi');
  } else if (i.mu0 !== undefined) {
    near(d.uvIndexFromCosZenith(i.mu0, i.total_ozone_DU), e.uvi_clear_sky, t.uvi_clear_sky_abs, 'UVI');
    mark('uv_index', c, 'uvi_clear_sky');
  } else {
    const cmf = d.cloudModificationFromCloudCover(i.cloud_fraction);
    expect(cmf).toBe(e.cmf);
    near(d.uvIndex(i.uvi_clear_sky, cmf), e.uvi, t.uvi_abs, 'UVI all-sky');
    mark('uv_index', c, 'cmf', 'uvi');
  }
}, {
  sza_apparent_refracted_deg:
    'solarPosition returns the geometric zenith (what the UV formula uses); refraction is not modelled',
});
