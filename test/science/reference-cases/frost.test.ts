/**
 * The 'frost_risk' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * Frost: frost point (RH over ice) and dew point, the ground-frost warning level and
 * intensity, and the frost event from the screen minimum.
 */
import { expect } from 'vitest';
import * as d from '../../../science/index.js';
import { quantity, mark, near } from './harness.js';

const GROUND_FROST: Record<string, d.GroundFrostWarning['intensity']> = {
  'no ground frost': 'none',
  'weak-moderate ground frost': 'weak_moderate',
  'strong ground frost': 'strong',
};

quantity('frost_risk', (c) => {
  const i = c.inputs;
  const e = c.expected;
  if (e.frost_point_degC !== undefined) {
    // The reference (VDI 3786-4, RUBclim) takes RH relative to ice below 0 °C; the library's
    // default is WMO's RH over water, so the case is run with rhOver = 'ice'.
    near(d.frostPoint(i.t_degC, i.rh_pct, 'ice'), e.frost_point_degC, c.tolerance!.degC, 'frost point (RH over ice)');
    near(d.dewPoint(i.t_degC, i.rh_pct), e.dew_point_over_water_degC, c.tolerance!.degC, 'dew point');
    mark('frost_risk', c, 'frost_point_degC', 'dew_point_over_water_degC');
  } else if (i.t_5cm_degC !== undefined) {
    const [month, day] = (i.date as string).split('-').map(Number);
    const w = d.groundFrostWarning(i.t_5cm_degC, i.elev_m, month!, day!);
    expect(w.level).toBe(Number((e.warning_level as string).match(/level (\d)/)![1]));
    expect(w.intensity).toBe(GROUND_FROST[e.description]);
    mark('frost_risk', c, 'warning_level', 'description');
  } else {
    expect(d.isFrostEvent(i.tmin_screen_degC)).toBe(e.frost_event);
    mark('frost_risk', c, 'frost_event');
  }
});
