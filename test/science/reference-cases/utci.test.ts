/**
 * The 'utci' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * UTCI (Bröde et al. 2012; official program UTCI_a002): the index within each case's tolerance
 * and its assessment category; out-of-domain cases give NaN while the raw polynomial still
 * matches the program.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark, near, snake } from './harness.js';

quantity('utci', (c) => {
  const i = c.inputs;
  const tol = c.tolerance!.utci_degC as number;
  const e = i.e_hPa ?? (d.saturationVapourPressureHardy(i.ta_degC) * i.rh_pct) / 100;
  const v =
    i.rh_pct !== undefined
      ? d.utci({ temperature: i.ta_degC, meanRadiantTemperature: i.tmrt_degC, windSpeed10m: i.va10m_m_s, relativeHumidity: i.rh_pct })
      : d.utciFromVapourPressure(i.ta_degC, i.tmrt_degC, i.va10m_m_s, i.e_hPa);
  if (c.expected.valid === false) {
    // Out of domain: the library returns NaN; the raw polynomial still matches the official program.
    expect(v).toBeNaN();
    near(d.utciPolynomialUnchecked(i.ta_degC, i.tmrt_degC, i.va10m_m_s, e), c.expected.utci_degC, tol, 'raw polynomial');
    expect(d.utciCategory(v)).toBeNull();
    expect(c.expected.category).toBeNull();
  } else {
    near(v, c.expected.utci_degC, tol, 'utci');
    expect(d.utciCategory(v)).toBe(snake(c.expected.category));
  }
  mark('utci', c, 'utci_degC', 'category', 'valid');
});
