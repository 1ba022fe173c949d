/**
 * The 'et0_fao56' cases of ../shared/reference/science_cases.json, run by harness.ts.
 * Reference evapotranspiration (FAO-56 / ASCE-EWRI): the daily Penman-Monteith with its
 * intermediates (FAO-56 example 18 and others) and the hourly FAO-56 and ASCE standardized
 * forms.
 */
import * as d from '../../../science/index.js';
import { quantity, mark, near } from './harness.js';

quantity('et0_fao56', (c) => {
  const i = c.inputs;
  const e = c.expected;
  const t = c.tolerance!;
  if (c.id === 'et0_fao56_ex18') {
    const r = d.et0DailyDetail({
      lat: i.lat_deg,
      elevationM: i.elev_m,
      dayOfYear: 187,
      tMinC: i.tmin_degC,
      tMaxC: i.tmax_degC,
      relativeHumidityMaxPct: i.rhmax_pct,
      relativeHumidityMinPct: i.rhmin_pct,
      sunshineHours: i.sunshine_h,
      windSpeed: i.u10_km_h / 3.6,
      windHeightM: 10,
    });
    near(r.et0, e.et0_mm_day, t.et0_mm_day, 'ET0');
    const f = e.fao56_intermediates_via_pyeto_test;
    near(r.rn, f.rn_MJ_m2_d, 0.01, 'Rn');
    near(r.es, f.es_kPa, 0.001, 'es');
    near(r.ea, f.ea_kPa, 0.001, 'ea');
    near(r.delta, f.delta_kPa_C, 0.001, 'delta');
    near(r.gamma, f.gamma_kPa_C, 0.0001, 'gamma');
    near(r.u2, f.u2_m_s, 0.001, 'u2');
    mark('et0_fao56', c, 'et0_mm_day', 'fao56_intermediates_via_pyeto_test');
  } else if (i.tmin_degC !== undefined) {
    const r = d.et0DailyDetail({
      lat: i.lat_deg,
      elevationM: i.elev_m,
      dayOfYear: i.doy,
      tMinC: i.tmin_degC,
      tMaxC: i.tmax_degC,
      dewPointC: i.tdew_degC,
      shortwaveRadiationMJ: i.rs_MJ_m2_d,
      windSpeed: i.wind_m_s,
      windHeightM: i.wind_height_m,
    });
    near(r.et0, e.et0_mm_day, t.et0_mm_day, 'ET0');
    near(r.ra, c.intermediate!.ra_MJ_m2_d, 0.002, 'Ra');
    near(r.rn, c.intermediate!.rn_MJ_m2_d, 0.005, 'Rn');
    mark('et0_fao56', c, 'et0_mm_day');
  } else if (i.utc_hour_start !== undefined) {
    for (const standard of ['fao56', 'asce'] as const) {
      const r = d.et0HourlyDetail({
        periodStart: new Date(Date.UTC(2023, 0, i.doy, i.utc_hour_start)),
        lat: i.lat_deg,
        lon: i.lon_deg,
        elevationM: i.elev_m,
        temperatureC: i.t_degC,
        dewPointC: i.tdew_degC,
        relativeHumidityPct: i.rh_pct,
        shortwaveRadiation: i.rs_MJ_m2_h / 0.0036,
        windSpeed: i.wind_m_s,
        windHeightM: i.wind_height_m,
        standard,
      });
      const exp = standard === 'fao56' ? e.et0_fao56_hourly_mm_h : e.et0_asce_standardized_mm_h;
      near(r.et0, exp, t.et0_mm_h, `ET0 ${standard}`);
      near(r.ra, c.intermediate!.ra_MJ_m2_h, 0.001, 'Ra');
      near(r.fcd, c.intermediate!.fcd, 0.001, 'fcd');
    }
    mark('et0_fao56', c, 'et0_fao56_hourly_mm_h', 'et0_asce_standardized_mm_h');
  } else {
    throw new Error(`et0_fao56/${c.id}: inputs of no known form`);
  }
}, {
  et0_mm:
    "Open-Meteo's own hourly variant (T+273.16 with W/m2 mixed into Rso, RH-based night Rs/Rso, 10 m log wind) is a different implementation from FAO-56 eq. 53 / ASCE-EWRI as RefET computes it, which the library follows",
});
