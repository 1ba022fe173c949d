/**
 * The sm100 grid: 100 m cells over San Marino with a margin of at least
 * 2 km, on a regular latitude/longitude grid (WGS84) so that every tool
 * opens it as it is (xarray, GDAL, the point reader's bilinear in degrees).
 *
 * Spacing 0.00125° in longitude × 0.0009° in latitude: at 43.94° N one
 * degree of longitude is 80.2 km and one of latitude 111.1 km, so the cells
 * are 100.2 m × 100.0 m (within 0.5 % over the grid's 15 km north–south).
 *
 * Extent: the border's bounding box (12.3856–12.4924° E, 43.8921–43.9826° N,
 * geo/regions/san-marino.ts) widened by 2.0 km on each side (0.025° of
 * longitude, 0.018° of latitude) and rounded outwards to the spacing:
 * 12.355–12.525° E, 43.870–44.006° N, 137 × 152 cells.
 */
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { SAN_MARINO_POLYGON } from '../../../geo/regions.js';
import type { Region } from '../../../tiles/manifest.js';

export const SM100_DX_DEG = 0.00125;
export const SM100_DY_DEG = 0.0009;

export const SM100_GRID: RegularLatLonGrid = {
  kind: 'regular_ll',
  nx: 137,
  ny: 152,
  x0: 12.355,
  y0: 43.87,
  dx: SM100_DX_DEG,
  dy: SM100_DY_DEG,
};

/** Where sm100 answers: inside San Marino's border (the grid's margin is only there for the fit and the interpolation). */
export const SM100_REGION: Region = {
  name: 'San Marino',
  bbox: boundsOf(SAN_MARINO_POLYGON.coordinates[0]!),
  polygon: [SAN_MARINO_POLYGON.coordinates as number[][][]],
};

function boundsOf(ring: readonly (readonly number[])[]): [number, number, number, number] {
  const lons = ring.map((p) => p[0]!);
  const lats = ring.map((p) => p[1]!);
  return [Math.min(...lons), Math.min(...lats), Math.max(...lons), Math.max(...lats)];
}
