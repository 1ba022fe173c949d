import Fastify from 'fastify';
import { Type } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { SunAtPoint } from '../../../../geo/solar.js';
import {
  cloudModificationFromCloudCover,
  cloudModificationFromShortwave,
  dewPoint,
  et0Hourly,
  frostRisk,
  meanRadiantTemperature,
  pressureAtElevation,
  solarPosition,
  utci,
  utciCategory,
  uvIndex,
  uvIndexClearSky,
  wbgt,
  wbgtRisk,
} from '../../../../science/index.js';
import { developerFields } from '../../../../api/fields/developer/fields.js';
import { radiationStepHours, type DeveloperInput } from '../../../../api/fields/developer/inputs.js';
import { developerResponseProperties } from '../../../../api/fields/developer/schema.js';
import { OZONE_SOURCES, UV_SOURCES } from '../../../../api/fields/developer/uv.js';

const ALL = new Set(['wbgt', 'frost', 'et0']);
/** Worklimate's risk classes as it publishes them (worklimate.it, 'NON SIGNIFICATIVO' … 'ALTO'), lower case. */
const WORKLIMATE_IT: Record<string, string> = { not_significant: 'non significativo', low: 'basso', moderate: 'moderato', high: 'alto' };
const r1 = (v: number) => Math.round(v * 10) / 10;
const LAT = 43.94;
const LON = 12.45;
const NOON = new Date('2024-07-15T11:00:00Z');
const MID = new Date(NOON.getTime() - 1_800_000);
const cosZ = (t: Date) => Math.cos((solarPosition(t, LAT, LON).zenith * Math.PI) / 180);

/** Grid values at the point on a hot sunny noon; the grid's Tmrt as ingest/indices computes it. */
const GRID = { t: 30, rh: 45, sw: 800, direct: 600, lw: 380, cloud: 10, ozone: 310, sp: 960, z: 300, u: 2, v: 1 };
const gridMrt = (t: number) => meanRadiantTemperature({ temperature: t, shortwaveRadiation: GRID.sw, directRadiation: GRID.direct, longwaveRadiation: GRID.lw, cosZenith: cosZ(MID) });
const WIND = Math.hypot(GRID.u, GRID.v);

/** The input the route gives for a point at elevation z (altitude correction 0.0065 K/m, RH kept). */
function input(z: number, over: Partial<DeveloperInput> = {}, values: Record<string, number | null> = {}): DeveloperInput {
  const t = GRID.t + 0.0065 * (GRID.z - z);
  return {
    timeMs: NOON.getTime(),
    lat: LAT,
    lon: LON,
    stepHours: 1,
    temperatureC: t,
    relativeHumidityPct: GRID.rh,
    dewPointC: dewPoint(t, GRID.rh),
    windSpeed10mMs: WIND,
    gridElevationM: GRID.z,
    pointElevationM: z,
    values: {
      temperature_2m: GRID.t,
      mean_radiant_temperature: gridMrt(GRID.t),
      shortwave_radiation: GRID.sw,
      cloud_cover: GRID.cloud,
      total_ozone: GRID.ozone,
      surface_pressure: GRID.sp,
      ...values,
    },
    ...over,
    sun: new SunAtPoint(LAT, LON),
  };
}

describe('developerFields equals the library at the point', () => {
  for (const z of [GRID.z, GRID.z + 1000]) {
    it(`for the corrected inputs at ${z} m`, () => {
      const inp = input(z);
      const t = inp.temperatureC!;
      const out = developerFields(inp, ALL);
      // Tmrt recomputed from the fluxes at the corrected temperature: an independent check of the shift.
      const mrt = gridMrt(t);
      const u = utci({ temperature: t, meanRadiantTemperature: mrt, windSpeed10m: WIND, relativeHumidity: GRID.rh });
      // category_it is not asserted: the UTCI has no published Italian wording (docs/science.md).
      expect(out.comfort).toMatchObject({ value: r1(u), category: utciCategory(u), mean_radiant_temperature: r1(mrt) });

      const clear = uvIndexClearSky({ time: NOON, lat: LAT, lon: LON, totalOzone: GRID.ozone });
      const cmf = cloudModificationFromShortwave(GRID.sw, cosZ(MID));
      expect(out.uv_index).toMatchObject({ value: r1(uvIndex(clear, cmf)), clear_sky: r1(clear), source: UV_SOURCES.shortwave });

      const p = pressureAtElevation(GRID.sp, GRID.z, z, GRID.t);
      const w = wbgt({ time: MID, lat: LAT, lon: LON, temperature: t, relativeHumidity: GRID.rh, pressure: p, windSpeed: WIND, windHeight: 10, shortwaveRadiation: GRID.sw });
      expect(out.wbgt).toEqual({ sun: r1(w.sun), shade: r1(w.shade), risk_level: wbgtRisk(w.sun), risk_level_it: WORKLIMATE_IT[wbgtRisk(w.sun)!] });

      const e = et0Hourly({ periodStart: new Date(NOON.getTime() - 3_600_000), lat: LAT, lon: LON, elevationM: z, temperatureC: t, dewPointC: dewPoint(t, GRID.rh), shortwaveRadiation: GRID.sw, windSpeed: WIND, pressureKpa: p / 10 });
      expect(out.et0).toEqual({ value: Math.round(e * 100) / 100, period_hours: 1 });
      expect(out.frost).toMatchObject({ risk: 'none', air_frost: false, deposit: null });
    });
  }

  it('stays consistent with the altitude: 1000 m higher is 6.5 K colder, UTCI and WBGT lower', () => {
    const low = developerFields(input(GRID.z), ALL);
    const high = developerFields(input(GRID.z + 1000), ALL);
    expect(low.comfort!.value - high.comfort!.value).toBeGreaterThan(3);
    expect(low.comfort!.mean_radiant_temperature).toBeGreaterThan(high.comfort!.mean_radiant_temperature);
    expect(low.wbgt!.sun - high.wbgt!.sun).toBeGreaterThan(2);
    expect(low.wbgt!.shade - high.wbgt!.shade).toBeGreaterThan(2);
    expect(high.uv_index).toEqual(low.uv_index);
  });

  it('turns a ground frost into an air frost when the point is higher (night, clear and calm)', () => {
    const night = new Date('2024-03-10T03:00:00Z');
    const values = { temperature_2m: 1.5, cloud_cover: 5, shortwave_radiation: 0 };
    const at = (z: number) => {
      const t = 1.5 + 0.0065 * (GRID.z - z);
      return developerFields(input(z, { timeMs: night.getTime(), temperatureC: t, dewPointC: dewPoint(t, 90), relativeHumidityPct: 90, windSpeed10mMs: 1 }, values), new Set(['frost']));
    };
    const valley = at(GRID.z).frost!;
    const hill = at(GRID.z + 500).frost!;
    const lib = frostRisk({ temperatureC: 1.5, relativeHumidityPct: 90, cloudCoverPct: 5, windSpeed10m: 1 });
    expect(valley).toMatchObject({ risk: lib.risk, ground_temperature: r1(lib.groundTemperature), clear_calm: true, air_frost: false, ground_frost: true });
    expect(hill).toMatchObject({ risk: 'high', air_frost: true, deposit: 'hoar_frost' });
    expect(valley.risk).toBe('moderate');
    expect(at(GRID.z).uv_index).toMatchObject({ value: 0, category: 'low' });
  });
});

describe('uv_index: total ozone from CAMS global where the base model has none', () => {
  const camsOzone = 285;
  it('takes the CAMS value and says so; the NWP ozone wins where the base has it', () => {
    const clear = uvIndexClearSky({ time: NOON, lat: LAT, lon: LON, totalOzone: camsOzone });
    const cmf = cloudModificationFromShortwave(GRID.sw, cosZ(MID));
    const cams = developerFields(input(GRID.z, { camsTotalOzoneDu: camsOzone }, { total_ozone: null }), ALL).uv_index;
    expect(cams).toMatchObject({ value: r1(uvIndex(clear, cmf)), clear_sky: r1(clear) });
    expect(cams!.source).toBe(UV_SOURCES.shortwave.replace(OZONE_SOURCES.nwp, 'CAMS global forecast total ozone'));
    expect(cams!.source).not.toContain('NWP total ozone');
    const nwp = developerFields(input(GRID.z, { camsTotalOzoneDu: camsOzone }), ALL).uv_index;
    expect(nwp).toMatchObject({ clear_sky: r1(uvIndexClearSky({ time: NOON, lat: LAT, lon: LON, totalOzone: GRID.ozone })), source: UV_SOURCES.shortwave });
    expect(developerFields(input(GRID.z, { camsTotalOzoneDu: null }, { total_ozone: null }), ALL).uv_index).toBeNull();
  });
});

describe('developerFields: groups and missing inputs', () => {
  it('always has comfort and uv_index, the rest by group', () => {
    expect(Object.keys(developerFields(input(GRID.z), new Set()))).toEqual(['comfort', 'uv_index']);
    expect(Object.keys(developerFields(input(GRID.z), new Set(['wbgt', 'coastal'])))).toEqual(['comfort', 'uv_index', 'wbgt']);
    expect(Object.keys(developerFields(input(GRID.z), new Set(['frost', 'et0'])))).toEqual(['comfort', 'uv_index', 'frost', 'et0']);
  });

  it('gives null for a field whose inputs are missing, never a guess', () => {
    const none = developerFields(input(GRID.z, {}, { mean_radiant_temperature: null, total_ozone: null, shortwave_radiation: null, cloud_cover: null }), ALL);
    expect(none).toEqual({ comfort: null, uv_index: null, wbgt: null, frost: null, et0: null });
    const noPressure = developerFields(input(GRID.z, {}, { surface_pressure: null }), ALL);
    expect(noPressure.wbgt).toBeNull();
    // FAO-56 takes the pressure from the elevation (eq. 7) when the grid gives none.
    const fromElevation = et0Hourly({ periodStart: new Date(NOON.getTime() - 3_600_000), lat: LAT, lon: LON, elevationM: GRID.z, temperatureC: GRID.t, dewPointC: dewPoint(GRID.t, GRID.rh), shortwaveRadiation: GRID.sw, windSpeed: WIND });
    expect(noPressure.et0).toEqual({ value: Math.round(fromElevation * 100) / 100, period_hours: 1 });
    const noTemp = developerFields(input(GRID.z, { temperatureC: null }), ALL);
    expect(noTemp).toMatchObject({ comfort: null, wbgt: null, frost: null, et0: null });
  });

  it('uses the cloud cover for UV when the product has no radiation, and says so', () => {
    const out = developerFields(input(GRID.z, {}, { shortwave_radiation: null, cloud_cover: 60 }), new Set());
    const clear = uvIndexClearSky({ time: NOON, lat: LAT, lon: LON, totalOzone: GRID.ozone });
    expect(out.uv_index).toMatchObject({ value: r1(clear * cloudModificationFromCloudCover(0.6)), cloud_modification: 0.89, source: UV_SOURCES.cloudCover });
  });

  it('gives comfort null where UTCI is undefined (gale above 17 m/s)', () => {
    expect(developerFields(input(GRID.z, { windSpeed10mMs: 20 }), new Set()).comfort).toBeNull();
  });

  it('brings mean-sea-level pressure down to the point when there is no surface pressure', () => {
    const inp = input(GRID.z + 200, {}, { surface_pressure: null, pressure_msl: 1012 });
    const t = inp.temperatureC!;
    const p = pressureAtElevation(1012, 0, GRID.z + 200, t + 0.0065 * (GRID.z + 200));
    const w = wbgt({ time: MID, lat: LAT, lon: LON, temperature: t, relativeHumidity: GRID.rh, pressure: p, windSpeed: WIND, windHeight: 10, shortwaveRadiation: GRID.sw });
    expect(developerFields(inp, ALL).wbgt).toMatchObject({ sun: r1(w.sun), shade: r1(w.shade) });
  });
});

describe('radiationStepHours', () => {
  const times = ['2024-07-15T00:00:00Z', '2024-07-15T01:00:00Z', '2024-07-15T02:00:00Z', '2024-07-15T05:00:00Z'];
  it('is the gap to the previous time of the step containing the instant', () => {
    expect(radiationStepHours(times, Date.parse('2024-07-14T23:00:00Z'))).toBe(1);
    expect(radiationStepHours(times, Date.parse('2024-07-15T01:00:00Z'))).toBe(1);
    expect(radiationStepHours(times, Date.parse('2024-07-15T02:30:00Z'))).toBe(3);
    expect(radiationStepHours(times, Date.parse('2024-07-15T05:00:00Z'))).toBe(3);
    expect(radiationStepHours(times.slice(0, 1), 0)).toBe(1);
  });
});

describe('developer response schema', () => {
  it('serialises every field through a Fastify response schema unchanged', async () => {
    const app = Fastify();
    const body = developerFields(input(GRID.z), ALL);
    const empty = developerFields(input(GRID.z, {}, { mean_radiant_temperature: null, total_ozone: null }), new Set(['frost']));
    app.get('/full', { schema: { response: { 200: Type.Object({ ...developerResponseProperties }) } } }, async () => body);
    app.get('/partial', { schema: { response: { 200: Type.Object({ ...developerResponseProperties }) } } }, async () => empty);
    const full = await app.inject('/full');
    expect(full.json()).toEqual(JSON.parse(JSON.stringify(body)));
    expect(full.json().frost.deposit).toBeNull();
    expect((await app.inject('/partial')).json()).toEqual({ comfort: null, uv_index: null, frost: empty.frost });
    await app.close();
  });
});
