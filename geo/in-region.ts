/**
 * Whether a point lies in a region (a product's manifest `region`): its box,
 * then its polygon when it has one (San Marino's border for sm100). Points on
 * the border count as inside (turf's default).
 */
import { booleanPointInPolygon } from '@turf/boolean-point-in-polygon';
import type { MultiPolygon } from 'geojson';

/** What a region needs to be tested against (a manifest's `region`). */
export interface RegionShape {
  /** [west, south, east, north], degrees. */
  bbox: readonly [number, number, number, number];
  /** GeoJSON MultiPolygon coordinates (lon, lat), when the box is not the region. */
  polygon?: number[][][][];
}

const geometries = new WeakMap<RegionShape, MultiPolygon>();

export function inRegion(region: RegionShape, lat: number, lon: number): boolean {
  // Indexed, not destructured: the router tests ~9 regions per every-product answer.
  const b = region.bbox;
  if (!(lat >= b[1] && lat <= b[3] && lon >= b[0] && lon <= b[2])) return false;
  if (!region.polygon) return true;
  let g = geometries.get(region);
  if (!g) {
    g = { type: 'MultiPolygon', coordinates: region.polygon };
    geometries.set(region, g);
  }
  return booleanPointInPolygon([lon, lat], g);
}
