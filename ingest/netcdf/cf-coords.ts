/**
 * Identifies CF coordinate variables by their attributes, not only by name:
 * CF Conventions 1.11 section 4 (https://cfconventions.org/cf-conventions/cf-conventions.html#coordinate-types):
 * latitude by units degrees_north (and variants) or standard_name latitude,
 * longitude by degrees_east or standard_name longitude, rotated-pole axes by
 * standard_name grid_latitude/grid_longitude, time by a "<unit> since <date>"
 * units string, vertical by `positive`, axis = Z or a pressure unit; `axis`
 * (X/Y/Z/T) is honoured too. Names are only the last resort.
 */
import { attrText, type AttrValue } from './model.js';
import { effectiveTimeUnits } from './cf-time-reference.js';

export type CoordRole = 'lon' | 'lat' | 'rlon' | 'rlat' | 'projx' | 'projy' | 'time' | 'reftime' | 'period' | 'vertical';

interface CoordLike {
  name: string;
  attrs: ReadonlyMap<string, AttrValue>;
}

const LON_UNITS = new Set(['degrees_east', 'degree_east', 'degree_e', 'degrees_e', 'degreee', 'degreese']);
const LAT_UNITS = new Set(['degrees_north', 'degree_north', 'degree_n', 'degrees_n', 'degreen', 'degreesn']);
const PRESSURE_UNITS = new Set(['pa', 'hpa', 'mbar', 'millibar', 'millibars', 'bar', 'kpa']);
const LENGTH_UNITS = new Set(['m', 'km', 'meter', 'meters', 'metre', 'metres']);

const STANDARD_NAME_ROLE: Record<string, CoordRole> = {
  longitude: 'lon',
  latitude: 'lat',
  grid_longitude: 'rlon',
  grid_latitude: 'rlat',
  projection_x_coordinate: 'projx',
  projection_y_coordinate: 'projy',
  time: 'time',
  forecast_reference_time: 'reftime',
  forecast_period: 'period',
  height: 'vertical',
  depth: 'vertical',
  altitude: 'vertical',
  air_pressure: 'vertical',
  model_level_number: 'vertical',
  height_above_mean_sea_level: 'vertical',
};

const RLON_NAME = /^(rlon|rotated_?lon(gitude)?|grid_?lon(gitude)?)$/i;
const RLAT_NAME = /^(rlat|rotated_?lat(itude)?|grid_?lat(itude)?)$/i;
const LON_NAME = /^(lon|long|longitude|nav_lon)$/i;
const LAT_NAME = /^(lat|latitude|nav_lat)$/i;
const LEVEL_NAME = /^(level|lev|plev|isobaricinhpa|pressure_level|pressure|height|depth|depthbelowlandlayer|heightaboveground)$/i;

/** True when `units` is a CF time-coordinate unit ("hours since 2020-01-01"). */
export function isTimeUnits(units: string | undefined): boolean {
  return units !== undefined && /^\s*\w+\s+since\s+/i.test(units);
}

/** The coordinate role of a (1-D or scalar) variable, or null when it is not a coordinate we know. */
export function coordRole(v: CoordLike): CoordRole | null {
  const sn = attrText(v, 'standard_name')?.toLowerCase();
  if (sn) {
    if (sn in STANDARD_NAME_ROLE) return STANDARD_NAME_ROLE[sn]!;
    if (/^atmosphere_.*_coordinate$|^ocean_.*_coordinate$/.test(sn)) return 'vertical';
  }
  const units = attrText(v, 'units');
  const u = units?.toLowerCase().replace(/\s+/g, '');
  if (u && LON_UNITS.has(u)) return 'lon';
  if (u && LAT_UNITS.has(u)) return 'lat';
  if (isTimeUnits(effectiveTimeUnits(v))) return /forecast_reference_time|^reftime$/i.test(v.name) ? 'reftime' : 'time';

  const axis = attrText(v, 'axis')?.toUpperCase();
  const lengthUnits = u !== undefined && LENGTH_UNITS.has(u);
  if (axis === 'X') return lengthUnits ? 'projx' : RLON_NAME.test(v.name) ? 'rlon' : 'lon';
  if (axis === 'Y') return lengthUnits ? 'projy' : RLAT_NAME.test(v.name) ? 'rlat' : 'lat';
  if (axis === 'Z' || v.attrs.has('positive')) return 'vertical';
  if (axis === 'T') return 'time';
  if (u && PRESSURE_UNITS.has(u)) return 'vertical';

  if (RLON_NAME.test(v.name)) return 'rlon';
  if (RLAT_NAME.test(v.name)) return 'rlat';
  if (LON_NAME.test(v.name)) return 'lon';
  if (LAT_NAME.test(v.name)) return 'lat';
  if (/^(forecast_period|step|leadtime)$/i.test(v.name)) return 'period';
  if (LEVEL_NAME.test(v.name)) return 'vertical';
  return null;
}

export function isXRole(r: CoordRole | null): boolean {
  return r === 'lon' || r === 'rlon' || r === 'projx';
}

export function isYRole(r: CoordRole | null): boolean {
  return r === 'lat' || r === 'rlat' || r === 'projy';
}
