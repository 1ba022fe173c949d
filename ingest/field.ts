/**
 * What every reader yields: one 2-D field at one valid time, on a normalised
 * grid (see geo/grid.ts), in the *source's* naming and units. Products
 * (ingest/products/) turn source fields into canonical variables.
 */
import type { GridDef } from '../geo/grid.js';

export type StepType = 'instant' | 'accum' | 'avg' | 'max' | 'min';

export interface SourceField {
  /** Source short name as the producer names it: GRIB shortName ('2t', 'tp', 'hsurf'), NetCDF variable name ('t2m', 'pm2p5'). */
  name: string;
  /** GRIB paramId or discipline/category/number, when known; helps disambiguate names. */
  paramId?: number;
  /** Long name / CF standard_name, when known. */
  longName?: string;
  standardName?: string;
  /** Source units string ('K', 'kg m**-2', 'm', '%', ...). */
  units: string;
  /** Vertical level, when the source gives one ('heightAboveGround' 2, 'surface' 0, 'depthBelowLandLayer' 7, ...); soil layers in cm, with their bottom when known. */
  level?: { type: string; value: number; bottomCm?: number };
  /** GRIB2 discipline.category.number (WMO code table 4.2) and the originating centre, for parameters ecCodes does not name. */
  gribParameter?: { code: string; centre?: string };
  /** Analysis/run time the field belongs to (equals validTime for analyses and reanalyses). */
  referenceTime: Date;
  /** Time the values are valid at (end of the interval for accumulations). */
  validTime: Date;
  /**
   * The file gives this field no time at all (a NetCDF without time or
   * reference-time coordinate): `validTime` is then a placeholder (the Unix
   * epoch), right only for static variables; the ingest gate refuses it for
   * anything else (ingest/gate/time-axis.ts).
   */
  timeless?: true;
  /** How the value relates to time; accumulations start at `intervalStart`. */
  stepType: StepType;
  intervalStart?: Date;
  grid: GridDef;
  /**
   * For vector components (u, v): resolved along the grid's axes or towards
   * east/north. GRIB `resolutionAndComponentFlags` bit 5 (ecCodes
   * `uvRelativeToGrid`); CF `x_wind`/`y_wind` vs `eastward_wind`/`northward_wind`.
   * Undefined when the source does not say.
   */
  vectorAxes?: 'grid' | 'earth';
  /** Row-major [y][x] on the normalised grid; NaN where the source marks a value missing (bitmap, _FillValue). */
  values: Float32Array;
}

/** What the caller wants of a file, for readers that can read part of it. */
export interface ReadOptions {
  /**
   * The area needed, WGS 84 degrees [west, south, east, north]: GeoTIFF
   * decodes only the pixels covering it, NetCDF reads regular
   * latitude/longitude fields over it plus the crop margin (a NetCDF4
   * hyperslab); GRIB reads everything. The pipeline crops later either way.
   */
  box?: readonly [number, number, number, number];
}

/** A reader turns one file into fields. Readers never guess: an unreadable file throws ReadError. */
export interface Reader {
  /** Short name of the format ('grib', 'netcdf', 'geotiff'). */
  readonly format: string;
  /** True when this reader recognises the file (by magic bytes, not by extension). */
  sniff(head: Uint8Array): boolean;
  read(path: string, options?: ReadOptions): Promise<SourceField[]>;
}

/** A file that cannot be decoded: names the file and the reason. */
export class ReadError extends Error {
  readonly code = 'READ_ERROR';
  constructor(
    readonly file: string,
    readonly reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options);
    this.name = 'ReadError';
  }
}
