/**
 * Whether a point lies in a product's region (manifest `region`): its box,
 * then its polygon when it has one (San Marino's border for sm100). Points on
 * the border count as inside (turf's default).
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon } from 'geojson';
import type { Region } from '../../tiles/manifest.js';

const geometries = new WeakMap<Region, MultiPolygon>();

export function inRegion(region: Region, lat: number, lon: number): boolean {
  const [w, s, e, n] = region.bbox;
  if (!(lat >= s && lat <= n && lon >= w && lon <= e)) return false;
  if (!region.polygon) return true;
  let g = geometries.get(region);
  if (!g) {
    g = { type: 'MultiPolygon', coordinates: region.polygon };
    geometries.set(region, g);
  }
  return booleanPointInPolygon([lon, lat], g);
}
