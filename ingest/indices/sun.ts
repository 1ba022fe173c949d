/**
 * The Sun over a whole grid at one instant, without calling the full solar
 * position per cell.
 *
 * geo/solar.ts (Meeus 1998 / NOAA) spends most of its time on quantities
 * that depend on the instant only: declination δ, Earth–Sun distance and the
 * hour angle, which is H(lon) = H(0°) + lon exactly (apparent sidereal time
 * minus right ascension, Meeus eq. 12.4 and ch. 25). So per instant the
 * library is called once, at (0°, 0°), and per cell
 *
 *   cos z = sin φ sin δ + cos φ cos δ cos(H0 + λ)
 *
 * followed by the library's topocentric parallax z' = z + 8.794″ sin z / d,
 * applied to first order: cos z' = cos z − k sin² z / d, k = 8.794″ in
 * radians (second-order error below 1e-9).
 */
import { cellLatLon, type GridDef } from '../../geo/grid.js';
import { solarGeometry } from '../../science/index.js';

const DEG = Math.PI / 180;
/** Solar horizontal parallax 8.794″, radians (geo/solar.ts). */
const PARALLAX_RAD = (8.794 / 3600) * DEG;

/** What the cells need of the Sun at one instant. */
export interface SunInstant {
  sinDecl: number;
  cosDecl: number;
  /** Local hour angle at longitude 0, degrees. */
  hourAngle0Deg: number;
  /** Earth–Sun distance, AU. */
  distanceAu: number;
}

/** The per-instant part of the solar position (geo/solar.ts solarGeometry at 0°N 0°E). */
export function sunInstant(time: Date): SunInstant {
  const g = solarGeometry(time, 0, 0);
  const d = g.declination * DEG;
  return { sinDecl: Math.sin(d), cosDecl: Math.cos(d), hourAngle0Deg: g.hourAngle, distanceAu: g.distanceAu };
}

/** Per-cell trigonometry of a range of cells. */
export interface CellCoords {
  latDeg: Float64Array;
  lonDeg: Float64Array;
  sinLat: Float64Array;
  cosLat: Float64Array;
}

/**
 * Geographic coordinates of cells [from, to) of a grid, row-major index
 * (geo/grid.ts cellLatLon: rotated grids through proj4).
 */
export function cellCoords(grid: GridDef, from: number, to: number): CellCoords {
  const n = to - from;
  const c: CellCoords = {
    latDeg: new Float64Array(n),
    lonDeg: new Float64Array(n),
    sinLat: new Float64Array(n),
    cosLat: new Float64Array(n),
  };
  for (let k = 0; k < n; k++) {
    const cell = from + k;
    const { lat, lon } = cellLatLon(grid, cell % grid.nx, Math.floor(cell / grid.nx));
    c.latDeg[k] = lat;
    c.lonDeg[k] = lon;
    c.sinLat[k] = Math.sin(lat * DEG);
    c.cosLat[k] = Math.cos(lat * DEG);
  }
  return c;
}

/**
 * Cosine of the topocentric solar zenith angle (not clamped: negative with
 * the Sun below the horizon), as Math.cos(solarPosition(...).zenith).
 */
export function cosZenith(sun: SunInstant, sinLat: number, cosLat: number, lonDeg: number): number {
  const c = sinLat * sun.sinDecl + cosLat * sun.cosDecl * Math.cos((sun.hourAngle0Deg + lonDeg) * DEG);
  const cz = c > 1 ? 1 : c < -1 ? -1 : c;
  return cz - (PARALLAX_RAD * (1 - cz * cz)) / sun.distanceAu;
}
