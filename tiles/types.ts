/**
 * Contracts of the tile store, shared by its writer (ingest side) and its
 * point reader (API side). Implementations: tiles/write/writer.ts, tiles/read/reader.ts.
 */
import type { GridDef } from '../geo/grid.js';
import type { Interpolation, Manifest, NeighbourMask, Region, TimeInterval, TimeLayout } from './manifest.js';

/** One canonical variable handed to the writer. */
export interface VariableInput {
  /** Canonical unit, as in docs/architecture.md, "Canonical variables". */
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
  /** Point-reader rule (default 'linear'). */
  interpolation?: Interpolation;
  /** A statistic over the interval ending at each time (manifest `interval`); absent: instantaneous. */
  interval?: TimeInterval;
  /** Neighbour mask (default 'any'); 'sea'/'land' need the store's land_sea_mask (tiles/masks.ts). */
  mask?: NeighbourMask;
  /** Masked variables (required for them): the search radius, km (manifest `search_radius_km`). */
  searchRadiusKm?: number;
  /** Cache group (default 'main'): variables read together (tiles/read/block.ts). */
  block?: string;
}

/** What the catalogue says about the product, copied into the manifest (defaults for stores written by tests and tools). */
export interface ProductMeta {
  /** Default: 'static' without times, else 'forecast'. */
  layout?: TimeLayout;
  /** The period of a period product ('1950'); required when layout is 'periods'. */
  period?: string;
  /** Default: the grid's bounding box. */
  region?: Region;
  /** Default: none (the API routes nothing to it). */
  feeds?: readonly string[];
  /** Default 0. */
  priority?: number;
  derivedFrom?: { product: string; version: string; resolution?: string };
}

/** Everything one new version of a product's store holds. */
export interface ProductVersionInput {
  product: string;
  grid: GridDef;
  /** Valid times, ascending. */
  times: Date[];
  variables: Record<string, VariableInput>;
  source: Manifest['source'];
  meta?: ProductMeta;
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
  /**
   * For lists with sea/land-masked variables: per mask kind, the distance (km)
   * from the point to the nearest cell of that kind the values come from (0
   * when the point's own cell is of that kind); null when none lies within the
   * product's search radius.
   */
  distanceKm?: { sea?: number | null; land?: number | null };
}
