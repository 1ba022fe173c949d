/**
 * proj4 definitions for the coordinate reference systems DEMs of Italy come
 * in, by EPSG code (a GeoTIFF's ProjectedCSTypeGeoKey or
 * GeographicTypeGeoKey). proj4 itself knows only 4326, 4269 and 3857; the
 * rest are the EPSG registry's parameters written out:
 *
 * - 326zz / 327zz  WGS 84 / UTM zone zz N / S (TINITALY 10 m is EPSG:32632)
 * - 258zz          ETRS89 / UTM zone zz N
 * - 4258, 6706     ETRS89, RDN2008 geographic (GRS80; within 1 m of WGS 84 here)
 * - 7791 … 7793    RDN2008 / UTM zones 32 … 34 N
 * - 3035           ETRS89 / LAEA Europe (EU-DEM)
 *
 * Monte Mario (Gauss–Boaga, EPSG:3003/3004) and ED50 need a datum shift
 * whose parameters vary across Italy by tens of metres: refused, with how to
 * reproject the file instead.
 */

const GEOGRAPHIC: Record<number, string> = {
  4326: '+proj=longlat +datum=WGS84 +no_defs',
  4258: '+proj=longlat +ellps=GRS80 +no_defs',
  6706: '+proj=longlat +ellps=GRS80 +no_defs',
};

/** The proj4 definition of EPSG `code`, or an Error saying the code is not supported and what to do. */
export function proj4Definition(code: number): string {
  const geo = GEOGRAPHIC[code];
  if (geo) return geo;
  if (code === 3857) return 'EPSG:3857';
  if (code === 3035) return '+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +units=m +no_defs';
  if (code >= 32601 && code <= 32660) return `+proj=utm +zone=${code - 32600} +datum=WGS84 +units=m +no_defs`;
  if (code >= 32701 && code <= 32760) return `+proj=utm +zone=${code - 32700} +south +datum=WGS84 +units=m +no_defs`;
  if (code >= 25828 && code <= 25838) return `+proj=utm +zone=${code - 25800} +ellps=GRS80 +units=m +no_defs`;
  if (code >= 7791 && code <= 7793) return `+proj=utm +zone=${code - 7791 + 32} +ellps=GRS80 +units=m +no_defs`;
  throw new Error(
    `EPSG:${code} is not a supported DEM coordinate system (WGS 84, ETRS89 and RDN2008 geographic or UTM, LAEA Europe, Web Mercator); ` +
      `reproject the file first, e.g. gdalwarp -t_srs EPSG:4326 in.tif out.tif`,
  );
}

/** True for definitions in degrees (the pixel spacing is converted to metres for the sampling density). */
export function isGeographic(definition: string): boolean {
  return definition.includes('+proj=longlat');
}
