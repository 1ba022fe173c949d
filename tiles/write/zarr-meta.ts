/**
 * Zarr v2 metadata documents (`.zarray`, `.zattrs`) for the tile store, with
 * the CF attributes xarray decodes: `_ARRAY_DIMENSIONS`, `scale_factor`,
 * `add_offset`, time units, `grid_mapping` for rotated grids.
 * Spec: https://zarr-specs.readthedocs.io/en/latest/v2/v2.0.html,
 * CF-1.8 §4 (coordinates), §5.6 (grid mappings), §8.1 (packing).
 */
import type { GridDef } from '../../geo/grid.js';
import { ZSTD_COMPRESSOR } from '../codecs/zstd.js';
import type { TimeInterval } from '../manifest.js';

export type ZarrDtype = '<i2' | '<f4' | '<f8' | '<i8' | '<i4';

export interface ZArray {
  zarr_format: 2;
  shape: number[];
  chunks: number[];
  dtype: ZarrDtype;
  compressor: typeof ZSTD_COMPRESSOR | null;
  /** JSON has no NaN: Zarr v2 spells it "NaN". */
  fill_value: number | 'NaN' | null;
  order: 'C';
  filters: { id: 'shuffle'; elementsize: number }[] | null;
  dimension_separator: '.';
}

export type Attrs = Record<string, unknown>;

/** Name of the CF grid-mapping variable of rotated grids. */
export const ROTATED_MAPPING = 'rotated_latitude_longitude';

/** Time units of the `time` coordinate (int64 seconds). */
export const TIME_UNITS = 'seconds since 1970-01-01 00:00:00';

export function zarray(
  shape: number[], chunks: number[], dtype: ZarrDtype, fill: number | 'NaN' | null, compressed = true, filters: ZArray['filters'] = null,
): ZArray {
  return {
    zarr_format: 2,
    shape,
    chunks,
    dtype,
    compressor: compressed ? ZSTD_COMPRESSOR : null,
    fill_value: fill,
    order: 'C',
    filters,
    dimension_separator: '.',
  };
}

/** Dimension names of the spatial axes: (lat, lon) for regular grids, (rlat, rlon) for rotated ones. */
export function spatialDims(grid: GridDef): [y: string, x: string] {
  return grid.kind === 'rotated_ll' ? ['rlat', 'rlon'] : ['lat', 'lon'];
}

/** Attributes of the 1-D axis coordinates. */
export function axisAttrs(grid: GridDef): { y: Attrs; x: Attrs } {
  const [yd, xd] = spatialDims(grid);
  if (grid.kind === 'rotated_ll') {
    return {
      y: { _ARRAY_DIMENSIONS: [yd], standard_name: 'grid_latitude', long_name: 'latitude in rotated pole grid', units: 'degrees', axis: 'Y' },
      x: { _ARRAY_DIMENSIONS: [xd], standard_name: 'grid_longitude', long_name: 'longitude in rotated pole grid', units: 'degrees', axis: 'X' },
    };
  }
  return {
    y: { _ARRAY_DIMENSIONS: [yd], standard_name: 'latitude', long_name: 'latitude', units: 'degrees_north', axis: 'Y' },
    x: { _ARRAY_DIMENSIONS: [xd], standard_name: 'longitude', long_name: 'longitude', units: 'degrees_east', axis: 'X' },
  };
}

/**
 * CF rotated_latitude_longitude mapping (CF-1.8 appendix F): the grid's north
 * pole is the antipode of the GRIB southern pole.
 */
export function rotatedMappingAttrs(grid: Extract<GridDef, { kind: 'rotated_ll' }>): Attrs {
  const npLon = grid.southPoleLon - 180 < -180 ? grid.southPoleLon + 180 : grid.southPoleLon - 180;
  return {
    _ARRAY_DIMENSIONS: [],
    grid_mapping_name: 'rotated_latitude_longitude',
    grid_north_pole_latitude: -grid.southPoleLat,
    grid_north_pole_longitude: npLon,
    north_pole_grid_longitude: grid.angle,
  };
}

/** 2-D geographic lat/lon auxiliary coordinates of a rotated grid. */
export function auxLatLonAttrs(grid: GridDef): { lat: Attrs; lon: Attrs } {
  const dims = spatialDims(grid);
  return {
    lat: { _ARRAY_DIMENSIONS: dims, standard_name: 'latitude', long_name: 'latitude', units: 'degrees_north' },
    lon: { _ARRAY_DIMENSIONS: dims, standard_name: 'longitude', long_name: 'longitude', units: 'degrees_east' },
  };
}

export function timeAttrs(): Attrs {
  return { _ARRAY_DIMENSIONS: ['time'], standard_name: 'time', long_name: 'valid time', units: TIME_UNITS, calendar: 'proleptic_gregorian', axis: 'T' };
}

/** Attributes of one data variable. */
export function variableAttrs(
  grid: GridDef,
  opts: {
    static: boolean; units: string; longName?: string; standardName?: string; scale?: number; offset?: number; precision: number;
    interpolation: string; mask: string; searchRadiusKm?: number | undefined; interval?: TimeInterval;
  },
): Attrs {
  const dims = spatialDims(grid);
  const a: Attrs = { _ARRAY_DIMENSIONS: opts.static ? dims : ['time', ...dims], units: opts.units };
  if (opts.longName) a.long_name = opts.longName;
  if (opts.standardName) a.standard_name = opts.standardName;
  if (opts.scale !== undefined) {
    a.scale_factor = opts.scale;
    a.add_offset = opts.offset ?? 0;
  }
  a.precision = opts.precision;
  // Meteopunto's read rules, for tools that open the store directly (the manifest is authoritative).
  a.interpolation = opts.interpolation;
  // CF §7.3 cell_methods: a sum or mean over the interval ending at the time (CF's bounds are not written: manifest `interval`).
  if (opts.interval) a.cell_methods = `time: ${opts.interval.statistic}`;
  if (opts.mask !== 'any') {
    a.neighbour_mask = opts.mask;
    a.search_radius_km = opts.searchRadiusKm!;
  }
  if (grid.kind === 'rotated_ll') {
    a.grid_mapping = ROTATED_MAPPING;
    a.coordinates = 'lat lon';
  }
  return a;
}
