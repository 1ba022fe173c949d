/**
 * Contracts of the tile store, shared by its writer (ingest side) and its
 * point reader (API side). Implementations: tiles/writer.ts, tiles/reader.ts.
 */
import type { GridDef } from '../geo/grid.js';
import type { Manifest } from './manifest.js';

/** One canonical variable handed to the writer. */
export interface VariableInput {
  /** Canonical unit, as in DESIGN.md. */
  units: string;
  /** Time-varying: one Float32Array per time step (length = times.length). Static (elevation): exactly one array. NaN = missing. */
  values: Float32Array[];
  static?: boolean;
  /**
   * Smallest step worth keeping, in the variable's unit (temperature 0.01).
   * The writer packs to int16 with scale_factor = precision when the value
   * range fits, else stores float32.
   */
  precision: number;
  longName?: string;
  standardName?: string;
}

/** Everything one new version of a product's store holds. */
export interface ProductVersionInput {
  product: string;
  grid: GridDef;
  /** Valid times, ascending. */
  times: Date[];
  variables: Record<string, VariableInput>;
  source: Manifest['source'];
}

export interface PublishResult {
  product: string;
  version: string;
  path: string;
  manifest: Manifest;
}

/** One interpolated point: the valid time asked for and canonical values (null = missing there). */
export interface PointSample {
  time: string;
  values: Record<string, number | null>;
}

/** Codes the tile layer throws; the API maps them to HTTP statuses (api/errors.ts). */
export type TileErrorCode =
  | 'PRODUCT_NOT_PUBLISHED' // no current.json yet → 503
  | 'OUTSIDE_GRID' // point not covered by the product's grid → 404
  | 'TIME_OUT_OF_RANGE'; // asked time outside the store's time axis → 404 with the covered range

export class TileError extends Error {
  constructor(
    readonly code: TileErrorCode,
    message: string,
    readonly detail: { product: string; from?: string; to?: string } = { product: '' },
  ) {
    super(message);
    this.name = 'TileError';
  }
}
