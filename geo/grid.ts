/**
 * Grid definitions shared by readers, the tile store and the point reader.
 *
 * Every grid in Meteopunto is *normalised* by its reader: values are stored
 * row-major `[y][x]`, x increasing eastward (`dx > 0`), y increasing northward
 * (`dy > 0`), so index (i, j) sits at `x0 + i·dx`, `y0 + j·dy` in the grid's own
 * coordinates (geographic degrees, or rotated degrees for rotated grids).
 * Scanning-mode flags, descending latitudes and 0..360 longitudes are resolved
 * once, at read time, never on the hot path.
 */
import proj4 from 'proj4';

export interface RegularLatLonGrid {
  kind: 'regular_ll';
  nx: number;
  ny: number;
  /** Longitude of column 0, degrees east, in -180..180. */
  x0: number;
  /** Latitude of row 0 (the southernmost row), degrees north. */
  y0: number;
  /** Column spacing, degrees (> 0). */
  dx: number;
  /** Row spacing, degrees (> 0). */
  dy: number;
}

export interface RotatedLatLonGrid {
  kind: 'rotated_ll';
  nx: number;
  ny: number;
  /** Rotated longitude of column 0, degrees, in -180..180. */
  x0: number;
  /** Rotated latitude of row 0 (southernmost), degrees. */
  y0: number;
  dx: number;
  dy: number;
  /** Latitude of the rotated grid's southern pole, degrees (COSMO-2I: -47). */
  southPoleLat: number;
  /** Longitude of the rotated grid's southern pole, degrees (COSMO-2I: 10). */
  southPoleLon: number;
  /** Rotation about the new polar axis, degrees (GRIB angleOfRotation). */
  angle: number;
}

export type GridDef = RegularLatLonGrid | RotatedLatLonGrid;

/** Fractional grid index: (x, y) = (0, 0) is the centre of cell [0][0]. */
export interface GridIndex {
  x: number;
  y: number;
}

/** Wrap a longitude into -180..180 (GRIB and NetCDF give 0..360 too). */
export function wrapLon(lonDeg: number): number {
  // In range already: return it untouched (the modulo below adds float noise, 7.2 → 7.199999999999989).
  if (lonDeg >= -180 && lonDeg <= 180) return lonDeg;
  const w = ((((lonDeg + 180) % 360) + 360) % 360) - 180;
  return w === -180 && lonDeg > 0 ? 180 : w;
}

const rotatedProjCache = new Map<string, proj4.Converter>();

/**
 * proj4 converter geographic → rotated lat/lon for a rotated-pole grid.
 * ob_tran with o_lat_p = −(south pole latitude) and lon_0 = south pole
 * longitude reproduces the GRIB/COSMO rotated-pole convention
 * (see test/geo/grid.test.ts for the hand-derived check).
 */
function rotatedConverter(g: RotatedLatLonGrid): proj4.Converter {
  const key = `${g.southPoleLat},${g.southPoleLon},${g.angle}`;
  let c = rotatedProjCache.get(key);
  if (!c) {
    const def = `+proj=ob_tran +o_proj=longlat +o_lon_p=${-g.angle} +o_lat_p=${-g.southPoleLat} +lon_0=${g.southPoleLon} +R=6371229 +no_defs`;
    c = proj4('+proj=longlat +R=6371229 +no_defs', def);
    rotatedProjCache.set(key, c);
  }
  return c;
}

/** Geographic (lat, lon) → the grid's own coordinates (lon-like x, lat-like y), degrees. */
export function toGridCoords(grid: GridDef, latDeg: number, lonDeg: number): { x: number; y: number } {
  if (grid.kind === 'regular_ll') return { x: wrapLon(lonDeg), y: latDeg };
  const [x, y] = rotatedConverter(grid).forward([lonDeg, latDeg]) as [number, number];
  return { x, y };
}

/** The grid's own coordinates → geographic (lat, lon) degrees. */
export function fromGridCoords(grid: GridDef, x: number, y: number): { lat: number; lon: number } {
  if (grid.kind === 'regular_ll') return { lat: y, lon: wrapLon(x) };
  const [lon, lat] = rotatedConverter(grid).inverse([x, y]) as [number, number];
  return { lat, lon: wrapLon(lon) };
}

/**
 * Geographic point → fractional index in the grid, or null when the point is
 * outside the grid (more than half a cell beyond its edge cells).
 */
export function gridIndexOf(grid: GridDef, latDeg: number, lonDeg: number): GridIndex | null {
  const c = toGridCoords(grid, latDeg, lonDeg);
  let x = (c.x - grid.x0) / grid.dx;
  // Global grids wrap: a point west of x0 may be reachable by adding 360°.
  if (x < -0.5) x += 360 / grid.dx;
  const y = (c.y - grid.y0) / grid.dy;
  if (x < -0.5 || y < -0.5 || x > grid.nx - 0.5 || y > grid.ny - 0.5) return null;
  return { x, y };
}

/** Geographic position of cell (i, j). */
export function cellLatLon(grid: GridDef, i: number, j: number): { lat: number; lon: number } {
  return fromGridCoords(grid, grid.x0 + i * grid.dx, grid.y0 + j * grid.dy);
}

/** Human-readable resolution, for `temperature_source` and manifests. */
export function describeResolution(grid: GridDef): string {
  const km = grid.dy * 111.195;
  return km < 1 ? `${Math.round(km * 1000)} m` : `${km.toFixed(km < 10 ? 1 : 0)} km`;
}

/** The grid's steps as printed: three significant digits (0.0417°, not 0.04166666559°), both when they differ (0.03° × 0.025°). */
export function gridSteps(grid: GridDef): string {
  const deg = (v: number) => `${Number(v.toPrecision(3))}°`;
  return Math.abs(grid.dx - grid.dy) < 1e-9 ? deg(grid.dx) : `${deg(grid.dx)} × ${deg(grid.dy)}`;
}

export function sameGrid(a: GridDef, b: GridDef, tolDeg = 1e-6): boolean {
  if (a.kind !== b.kind || a.nx !== b.nx || a.ny !== b.ny) return false;
  const close = (p: number, q: number) => Math.abs(p - q) <= tolDeg;
  if (!close(a.x0, b.x0) || !close(a.y0, b.y0) || !close(a.dx, b.dx) || !close(a.dy, b.dy)) return false;
  if (a.kind === 'rotated_ll' && b.kind === 'rotated_ll') {
    return close(a.southPoleLat, b.southPoleLat) && close(a.southPoleLon, b.southPoleLon) && close(a.angle, b.angle);
  }
  return true;
}

/**
 * Geographic bounding box [west, south, east, north] of the grid's cells
 * (cell edges included: half a cell beyond the outer centres). Rotated grids:
 * the outline traced cell by cell through the rotation.
 */
export function gridBounds(grid: GridDef): [number, number, number, number] {
  const box = [Infinity, Infinity, -Infinity, -Infinity] as [number, number, number, number];
  const add = (i: number, j: number) => {
    const p = fromGridCoords(grid, grid.x0 + i * grid.dx, grid.y0 + j * grid.dy);
    box[0] = Math.min(box[0], p.lon);
    box[1] = Math.min(box[1], p.lat);
    box[2] = Math.max(box[2], p.lon);
    box[3] = Math.max(box[3], p.lat);
  };
  const [iA, iB, jA, jB] = [-0.5, grid.nx - 0.5, -0.5, grid.ny - 0.5];
  if (grid.kind === 'regular_ll') {
    add(iA, jA);
    add(iB, jB);
  } else {
    for (let i = 0; i <= grid.nx; i++) { add(iA + i, jA); add(iA + i, jB); }
    for (let j = 0; j <= grid.ny; j++) { add(iA, jA + j); add(iB, jA + j); }
  }
  return box;
}
