/**
 * The 'mslp_and_altitude_correction' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * Pressure and altitude: temperature moved along a lapse rate, and sea-level pressure by the
 * standard lapse, the WMO (gridpp) reduction with and without humidity, Open-Meteo's formula
 * and the ICAO atmosphere.
 */
import * as d from '../../../science/index.js';
import { quantity, mark, near } from './harness.js';

quantity('mslp_and_altitude_correction', (c) => {
  const i = c.inputs;
  const e = c.expected;
  const t = c.tolerance!;
  if (i.t_model_degC !== undefined) {
    near(d.altitudeCorrectedTemperature(i.t_model_degC, i.z_model_m, i.z_target_m), e.t_target_degC, t.t_degC, 'T');
    mark('mslp_and_altitude_correction', c, 't_target_degC');
  } else if (e.mslp_hPa !== undefined) {
    near(d.seaLevelPressureStandardLapse(i.p_station_hPa, i.elev_m, i.t2m_degC), e.mslp_hPa, t.mslp_hPa, 'MSLP');
    mark('mslp_and_altitude_correction', c, 'mslp_hPa');
  } else {
    const base = { surfacePressureHpa: i.p_station_hPa, elevationM: i.elev_m, temperatureC: i.t2m_degC };
    near(d.seaLevelPressure({ ...base, relativeHumidityPct: i.rh_pct }), e.mslp_wmo_gridpp_hPa, t.mslp_hPa, 'WMO');
    near(d.seaLevelPressure(base), e.mslp_wmo_gridpp_no_humidity_hPa, t.mslp_hPa, 'WMO dry');
    near(d.seaLevelPressureStandardLapse(i.p_station_hPa, i.elev_m, i.t2m_degC), e.mslp_openmeteo_formula_hPa, t.mslp_hPa, 'Open-Meteo');
    near(d.seaLevelPressureIcao(i.p_station_hPa, i.elev_m), e.mslp_icao_std_atm_hPa, t.mslp_hPa, 'ICAO');
    mark('mslp_and_altitude_correction', c, 'mslp_wmo_gridpp_hPa', 'mslp_wmo_gridpp_no_humidity_hPa', 'mslp_openmeteo_formula_hPa', 'mslp_icao_std_atm_hPa');
  }
});
