/**
 * CF grid mappings (CF Conventions 1.11 Appendix F,
 * https://cfconventions.org/cf-conventions/cf-conventions.html#appendix-grid-mappings).
 * Supported: latitude_longitude (or none) and rotated_latitude_longitude.
 *
 * Rotated pole: CF gives the position of the rotated grid's *north* pole
 * (grid_north_pole_latitude/longitude) and an optional rotation
 * north_pole_grid_longitude; GRIB and geo/grid.ts give the *south* pole. The
 * south pole is the antipode: latitude −φN, longitude λN − 180° (wrapped).
 * CF's PROJ equivalent is `ob_tran +o_lat_p=φN +o_lon_p=north_pole_grid_longitude
 * +lon_0=180+λN`; geo/grid.ts builds `+o_lon_p=−angle`, hence
 * angle = −north_pole_grid_longitude (0 for every operational model).
 */
import { wrapLon } from '../../geo/grid.js';
import type { NcDataset, NcVariable } from './model.js';
import { attrNumber, attrText } from './model.js';

export type GridMapping =
  | { kind: 'latitude_longitude' }
  | { kind: 'rotated_latitude_longitude'; southPoleLat: number; southPoleLon: number; angle: number }
  | { kind: 'unsupported'; name: string };

/** Rotated-pole parameters from CF north-pole attributes (see file comment). */
export function rotatedFromNorthPole(gridNorthPoleLatDeg: number, gridNorthPoleLonDeg: number, northPoleGridLonDeg = 0) {
  return {
    southPoleLat: -gridNorthPoleLatDeg,
    southPoleLon: wrapLon(gridNorthPoleLonDeg - 180),
    angle: northPoleGridLonDeg === 0 ? 0 : -northPoleGridLonDeg,
  };
}

/** The grid mapping a data variable names in its `grid_mapping` attribute. */
export function gridMappingOf(ds: NcDataset, v: NcVariable): GridMapping {
  const ref = attrText(v, 'grid_mapping');
  if (!ref) return { kind: 'latitude_longitude' };
  // CF 1.7 extended form "crs: lat lon": the mapping variable is the first name.
  const name = ref.split(/[:\s]+/)[0]!;
  const gm = ds.variables.find((x) => x.name === name);
  if (!gm) return { kind: 'unsupported', name: `missing grid_mapping variable "${name}"` };
  const kind = attrText(gm, 'grid_mapping_name');
  if (kind === 'latitude_longitude') return { kind };
  if (kind === 'rotated_latitude_longitude') {
    const lat = attrNumber(gm, 'grid_north_pole_latitude');
    const lon = attrNumber(gm, 'grid_north_pole_longitude');
    if (lat === undefined || lon === undefined) {
      return { kind: 'unsupported', name: `${name} lacks grid_north_pole_latitude/longitude` };
    }
    return { kind, ...rotatedFromNorthPole(lat, lon, attrNumber(gm, 'north_pole_grid_longitude') ?? 0) };
  }
  return { kind: 'unsupported', name: kind ?? `${name} without grid_mapping_name` };
}
