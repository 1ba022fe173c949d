/**
 * The Developer builder: comfort (UTCI), uv_index, and with their groups
 * wbgt, frost and et0 (./fields.ts), from the same product and
 * version as the base fields — one lookup serves both — at the temperature
 * and humidity the base builder reports.
 */
import { developerFields, DEVELOPER_VARIABLES } from './fields.js';
import { developerResponseProperties } from './schema.js';
import { stepHoursAt } from '../step.js';
import { defineBuilder } from '../contract.js';
import type { Manifest } from '../../../tiles/manifest.js';
import { hypot2 } from '../../../science/hypot.js';

/**
 * Everything the Developer fields read at the valid time (the temperature,
 * humidity and dew point come from the base builder: ctx.shared). The
 * indices the ingest stores (utci, uv_index, et0) are not read: the fields
 * compute their own from the inputs listed here.
 */
const VARIABLES = [...new Set<string>([...DEVELOPER_VARIABLES, 'wind_u_10m', 'wind_v_10m', 'elevation'])];

const SATELLITE = ['effective_cloud_albedo', 'clear_sky_index'];
const OZONE = ['total_ozone'];
const present = new WeakMap<Manifest, readonly string[]>();
/** The satellite variables the answering `uv` product holds (SARAH: the albedo; LSA SAF: the clear-sky index), one array per manifest. */
function satelliteOf(m: Manifest): readonly string[] {
  let v = present.get(m);
  if (!v) present.set(m, (v = SATELLITE.filter((n) => n in m.variables)));
  return v;
}

export const developerBuilder = defineBuilder({
  name: 'developer',
  minPlan: 'developer',
  groups: { wbgt: ['wbgt'], frost: ['frost'], et0: ['et0'] },
  // The satellite term of uv_index, where a `uv` version covers the point and time (null otherwise).
  // CAMS global total ozone for the clear-sky UV index where the base model carries none (ICON open data).
  reads: [{ feed: 'base', variables: () => VARIABLES }, { feed: 'uv', variables: satelliteOf }, { feed: 'ozone', variables: () => OZONE }],
  properties: developerResponseProperties,
  required: [],
  build(ctx) {
    const base = ctx.feed('base')!;
    const v = base.now.values;
    const sh = ctx.shared;
    const c = sh.correction;
    const u = v.wind_u_10m;
    const w = v.wind_v_10m;
    const uv = ctx.feed('uv')?.now.values;
    developerFields(
      {
        timeMs: ctx.q.timeMs,
        lat: ctx.q.lat,
        lon: ctx.q.lon,
        sun: ctx.sun,
        stepHours: stepHoursAt(base.timesMs, ctx.q.timeMs),
        temperatureC: sh.temperatureC,
        relativeHumidityPct: sh.humidityPct,
        dewPointC: sh.dewPointC,
        windSpeed10mMs: u != null && w != null ? hypot2(u, w) : null,
        gridElevationM: v.elevation ?? null,
        satelliteCloudAlbedo: uv?.effective_cloud_albedo ?? null,
        satelliteClearSkyIndex: uv?.clear_sky_index ?? null,
        camsTotalOzoneDu: ctx.feed('ozone')?.now.values.total_ozone ?? null,
        pointElevationM: c?.applied ? c.pointElevationM : (ctx.q.altM ?? sh.demElevationM),
        values: v,
      },
      ctx.groups,
      ctx.out,
    );
  },
});
