/**
 * What a product is: its variables table and the rules that turn mapped,
 * assembled fields into what its store holds. The generic steps (matching,
 * unit conversion, de-accumulation, grid choice, cropping, time axis) are
 * shared (ingest/mapping/map-fields.ts, ingest/assemble.ts); a product adds only
 * what is its own.
 */
import type { GridDef } from '../../geo/grid.js';
import type { Region, TimeInterval, TimeLayout } from '../../tiles/manifest.js';
import type { SourceField } from '../field.js';
import type { PublishResult } from '../../tiles/types.js';
import type { IngestRequest } from '../ingest-types.js';
import type { IngestReport } from '../ingest-report.js';
import type { StoredVariableSpec, VariableSpec } from './spec.js';

/**
 * The assembled content of one product version on one grid: time-varying
 * variables as one array per time step (same length as `times`, NaN where a
 * step is missing), static ones as a single array.
 */
export interface VariableStack {
  grid: GridDef;
  /** Valid times, ascending, unique. */
  times: Date[];
  series: Map<string, Float32Array[]>;
  statics: Map<string, Float32Array>;
  /** Series that are a sum or mean over the interval ending at each time (manifest `interval`); absent: instantaneous. */
  intervals?: Map<string, TimeInterval>;
  /**
   * The interval every instantaneous quantity of the files was given over
   * (a daily file's means), so that what `complete` derives from them (dew
   * point from daily means) is marked the same.
   */
  stateInterval?: TimeInterval;
}

/** A field the product recognised as a variable although nothing names it, with the reason (reported). */
export interface FallbackMatch {
  field: SourceField;
  variable: string;
  note: string;
}

export interface Product {
  readonly name: string;
  readonly summary: string;
  /** Static products (dem) have no time axis. */
  readonly static: boolean;
  /** `static`, a rolling `forecast`, or `periods` (one store per UTC year). */
  readonly layout: TimeLayout;
  /**
   * Response field groups the product feeds (the API's builders read by
   * group: 'base' Free fields, 'developer' indices, 'elevation' for the
   * altitude correction, 'cams', 'coastal', 'soil', 'uv').
   */
  readonly feeds: readonly string[];
  /** Among products feeding one group that cover a point and time, the highest priority answers (sm100 over nwp over reanalysis). */
  readonly priority: number;
  /** Where it is meant to answer; default the grid's bounding box. */
  readonly region?: Region;
  /** Masked variables: how far a point may be from the nearest cell of the right kind, km. */
  readonly searchRadiusKm?: number;
  /**
   * Sources on different grids: resample the variables of the other grids
   * onto the chosen one (ingest/mapping/resample.ts) instead of dropping them.
   */
  readonly resampleOtherGrids?: boolean;
  /** Forecast products: hours of the previous version kept before a new run's first step (ingest/carry-over.ts). */
  readonly carryHours?: number;
  /**
   * `forecast`: every version is one forecast run of one model (manifest
   * `source.model`, `source.run`), and a later run supersedes an earlier
   * one, so the switch refuses a version whose run is older than the live
   * version's of the same model (tiles/write/publish.ts). `none`: a version's
   * run says nothing about which content is newer (observations, analyses,
   * a merged year, sources of several reference times in one version).
   */
  readonly runOrder: RunOrder;
  /**
   * A `forecast` product's files that are no forecast run (cams: the EAC4
   * reanalysis), told from the fields mapped: the model recorded when the
   * operator names none, and a note; that version records no run and is not
   * ordered by run. Null: one forecast run.
   */
  notARun?(fields: readonly FieldTimes[]): { model: string; note: string } | null;
  /**
   * The derived indices (UTCI, WBGT, UV, frost, ET0: ingest/indices/) are
   * computed on the grid at ingest and stored beside the product's variables,
   * so that readers only interpolate them.
   */
  readonly derivesIndices?: boolean;
  /** What the store may hold: canonical variables. */
  readonly variables: Readonly<Record<string, StoredVariableSpec>>;
  /** Inputs of derivations, never stored. */
  readonly auxiliary: Readonly<Record<string, VariableSpec>>;
  /**
   * Derive stored variables from others on the assembled stack (dew point
   * from humidity, ...). Mutates the stack; returns one note per derivation.
   */
  complete(stack: VariableStack): string[];
  /** Reject a stack the product cannot publish; throws IngestError. */
  validate(stack: VariableStack, files: readonly string[]): void;
  /**
   * Last resort when no field of a file matches by name, paramId or
   * standard_name (dem: a single unnamed field of a file given as a DEM).
   */
  fallback?(fieldsOfOneFile: readonly SourceField[]): FallbackMatch | null;
  /** The source model recorded in the manifest when the operator names none (reanalysis: ERA5 or 20CRv3, from the file names). */
  model?(files: readonly string[]): string;
  /**
   * A product built from another product's published versions (sm100 from
   * nwp): after every publish of `product`, `derive` builds and publishes a
   * matching version of this one (ingest/followers.ts), its manifest's
   * `derived_from` naming the version it came from, so that the router never
   * pairs it with another version of `product`.
   */
  readonly follows?: { product: string; derive(root: string, signal?: AbortSignal): Promise<FollowOutcome> };
  /** A product whose input is not a set of fields mapped to its variables (sm100: a DEM) runs its own ingest. */
  readonly ingest?: (req: IngestRequest) => Promise<IngestReport>;
}

/** What Product.notARun reads of each mapped field (ingest/mapping/map-fields.ts, CanonicalField): its source name and times. */
export interface FieldTimes {
  source: string;
  referenceTime: Date;
  validTime: Date;
}

/** How the versions of a product are ordered by their run (Product.runOrder). */
export type RunOrder = 'forecast' | 'none';

/** What a follower did after a publish: its new version, or why none (notes). */
export interface FollowOutcome {
  product: string;
  published: PublishResult | null;
  notes: string[];
}

/** Look a variable up in the product's tables (stored first, then auxiliary). */
export function specOf(product: Product, variable: string): VariableSpec | undefined {
  return product.variables[variable] ?? product.auxiliary[variable];
}
