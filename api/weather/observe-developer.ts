/**
 * The Developer fields (comfort, uv_index, wbgt, frost, et0) at a point, for
 * keys whose plan receives them. Runs after the Free fields, with its own
 * lookup of the inputs at the same point and valid time, and the same pure
 * altitude correction and moisture rule as the Free path (./altitude.ts,
 * ./humidity.ts), so every index agrees with the temperature the response
 * reports. Sync on warm chunks (undefined → await the async form).
 */
import type { TileStore } from '../../tiles/reader.js';
import { TileError, type PointSample } from '../../tiles/types.js';
import type { FieldGroup } from '../access/contract.js';
import { altitudeCorrection, correctTemperature } from './altitude.js';
import { DEVELOPER_VARIABLES, developerFields, radiationStepHours, type DeveloperFields } from './developer/index.js';
import { moistureAtPoint } from './humidity.js';

/** Everything the Developer fields read at the valid time: the Free inputs they share, the indices' inputs and the precomputed indices. */
const VARIABLES = [
  ...new Set<string>([
    ...DEVELOPER_VARIABLES,
    'dew_point_2m',
    'relative_humidity_2m',
    'wind_u_10m',
    'wind_v_10m',
    'elevation',
    'direct_radiation',
    'longwave_radiation',
    'utci',
    'uv_index',
    'uv_index_clear_sky',
    'et0',
  ]),
];
const ELEVATION = ['elevation'] as const;

export interface DeveloperQuery {
  lat: number;
  lon: number;
  altM?: number;
  /** The response's valid time, ms since the epoch. */
  timeMs: number;
}

type Look = (product: string, lat: number, lon: number, t: number | null, v: readonly string[]) => PointSample | undefined;

/** Synchronous: undefined when a chunk must be loaded first. */
export function tryObserveDeveloper(tiles: TileStore, q: DeveloperQuery, groups: ReadonlySet<FieldGroup>, product = 'nwp', demProduct = 'dem'): DeveloperFields | undefined {
  const look: Look = (p, la, lo, t, v) => tiles.trySample(p, la, lo, t, v);
  const now = look(product, q.lat, q.lon, q.timeMs, VARIABLES);
  if (!now) return undefined;
  let demElevation: number | null = null;
  if (q.altM === undefined) {
    const dem = demOrNull(() => look(demProduct, q.lat, q.lon, null, ELEVATION));
    if (dem === undefined) return undefined;
    demElevation = dem?.values.elevation ?? null;
  }
  return assemble(tiles, product, q, groups, now, demElevation);
}

/** Loads what is missing, then answers like the synchronous form. */
export async function observeDeveloper(tiles: TileStore, q: DeveloperQuery, groups: ReadonlySet<FieldGroup>, product = 'nwp', demProduct = 'dem'): Promise<DeveloperFields> {
  const now = await tiles.sample(product, q.lat, q.lon, q.timeMs, VARIABLES);
  let demElevation: number | null = null;
  if (q.altM === undefined) {
    try {
      demElevation = (await tiles.sample(demProduct, q.lat, q.lon, null, ELEVATION)).values.elevation ?? null;
    } catch (err) {
      if (!(err instanceof TileError)) throw err;
    }
  }
  return assemble(tiles, product, q, groups, now, demElevation);
}

function demOrNull(fn: () => PointSample | undefined): PointSample | null | undefined {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TileError) return null; // no DEM there: no point elevation
    throw err;
  }
}

function assemble(tiles: TileStore, product: string, q: DeveloperQuery, groups: ReadonlySet<FieldGroup>, now: PointSample, demElevationM: number | null): DeveloperFields {
  const v = now.values;
  const correction = altitudeCorrection(v.elevation ?? null, q.altM, demElevationM);
  const temperatureC = correctTemperature(v.temperature_2m ?? null, correction);
  const moisture = moistureAtPoint({ gridTempC: v.temperature_2m ?? null, gridDewPointC: v.dew_point_2m ?? null, gridRhPct: v.relative_humidity_2m ?? null }, temperatureC);
  const u = v.wind_u_10m;
  const w = v.wind_v_10m;
  const times = tiles.manifest(product)?.times ?? [];
  return developerFields(
    {
      time: new Date(q.timeMs),
      lat: q.lat,
      lon: q.lon,
      stepHours: radiationStepHours(times, q.timeMs),
      temperatureC,
      relativeHumidityPct: moisture.humidityPct,
      dewPointC: moisture.dewPointC,
      windSpeed10mMs: u != null && w != null ? Math.hypot(u, w) : null,
      gridElevationM: v.elevation ?? null,
      pointElevationM: correction.applied ? correction.pointElevationM : (q.altM ?? demElevationM),
      values: v,
    },
    groups,
  );
}
