/**
 * The service domain: what weather.php accepts (interface-spec.md §4.1,
 * lat 35..48, lon 5..20.5). Products crop their grids to it, plus a margin of
 * a few cells so that bilinear interpolation at the edge still has neighbours.
 */
export const SERVICE_DOMAIN = {
  latMin: 35,
  latMax: 48,
  lonMin: 5,
  lonMax: 20.5,
} as const;

export type Domain = { latMin: number; latMax: number; lonMin: number; lonMax: number };

/** Cells kept beyond the domain edge on every side. */
export const CROP_MARGIN_CELLS = 2;
