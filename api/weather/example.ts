/**
 * A weather.php answer as the server sent it, for the API document's
 * example: a Business key at 40.80 N 14.20 E (the Gulf of Naples, where every
 * field group answers) over the labelled sample dataset, elapsed_ms from a
 * warm request. test/api/openapi.test.ts checks that it validates against
 * the 200 schema and has the fields a live Business answer has, so it
 * cannot drift from what the server sends.
 */
export const WEATHER_EXAMPLE: Readonly<Record<string, unknown>> = {
  icon: 'mainly-clear-day',
  condition: 'mainly_clear',
  temperature: 18.2,
  temperature_source: 'nwp 11 km bilinear, altitude-corrected 0 m → 0 m (dem), lapse 6.5 K/km, sample data',
  dew_point: 16.1,
  humidity: 87,
  pressure_msl: 1012.9,
  wind_speed: 20.2,
  wind_direction: 200,
  wind_gust: 29.9,
  temperature_trend_3h: {
    delta: 0.9,
    label: 'in aumento, +0,9 °C in 3 ore',
  },
  valid_time: '2026-11-26T11:23:35.932Z',
  elapsed_ms: 1.2,
  comfort: {
    value: 18.8,
    category: 'no_thermal_stress',
    category_it: 'nessuno stress termico',
    mean_radiant_temperature: 43,
  },
  uv_index: {
    value: 1.2,
    category: 'low',
    category_it: 'basso',
    clear_sky: 2.1,
    cloud_modification: 0.58,
    source: 'clear-sky UV index (Madronich 2007, NWP total ozone) × cloud modification from satellite effective cloud albedo (CM SAF SARAH, Heliosat clear-sky index)',
  },
  wbgt: {
    sun: 19.4,
    shade: 17,
    risk_level: 'not_significant',
    risk_level_it: 'non significativo',
  },
  frost: {
    risk: 'none',
    risk_it: 'nessuno',
    frost_point: 16.1,
    ground_temperature: 17.7,
    clear_calm: false,
    air_frost: false,
    ground_frost: false,
    deposit: null,
  },
  et0: {
    value: 0.19,
    period_hours: 1,
  },
  air_quality: {
    eaqi: {
      value: 26.2,
      label: 'discreta',
      level: 'fair',
    },
    dominant_pollutant: 'pm2_5',
    pm2_5: 8.1,
    pm10: 12.9,
    nitrogen_dioxide: 7,
    ozone: 71.6,
    sulphur_dioxide: 1.6,
    source: 'cams, meteopunto-sample (sample data)',
  },
  pollen: {
    risk: 'absent',
    risk_it: 'assente',
    species: {
      alder: {
        value: 0,
        risk: 'absent',
        risk_it: 'assente',
      },
      birch: {
        value: 0,
        risk: 'absent',
        risk_it: 'assente',
      },
      grass: {
        value: 0,
        risk: 'absent',
        risk_it: 'assente',
      },
      mugwort: {
        value: 0,
        risk: 'absent',
        risk_it: 'assente',
      },
      olive: {
        value: 0,
        risk: 'absent',
        risk_it: 'assente',
      },
      ragweed: {
        value: 0,
        risk: 'absent',
        risk_it: 'assente',
      }
    },
    source: 'cams, meteopunto-sample (sample data)',
  },
  coastal: {
    sea_surface_temperature: 18,
    wave_height: 1.44,
    wave_direction: 311,
    wave_period: 5.1,
    wave_peak_period: 6.3,
    sea_state: {
      code: 4,
      label: 'molto mosso',
    },
    distance_km: 0,
    source: 'marine, meteopunto-sample (sample data)',
  },
  soil: {
    moisture_0_7cm: 0.193,
    temperature_0_7cm: 11.8,
    moisture_7_28cm: 0.213,
    temperature_7_28cm: 9.4,
    moisture_28_100cm: 0.233,
    temperature_28_100cm: 8.3,
    moisture_100_289cm: 0.253,
    temperature_100_289cm: 8.3,
    moisture_0_1cm: null,
    temperature_0_1cm: null,
    moisture_1_3cm: null,
    temperature_1_3cm: null,
    moisture_3_9cm: null,
    temperature_3_9cm: null,
    moisture_9_27cm: null,
    temperature_9_27cm: null,
    moisture_27_81cm: null,
    temperature_27_81cm: null,
    moisture_81_243cm: null,
    temperature_81_243cm: null,
    distance_km: 8.4,
    source: 'soil, meteopunto-sample (sample data)',
  },
};
