/**
 * `tiles/<product>/current.json` (period products: `tiles/<product>/<period>/current.json`):
 * the manifest naming the live version of a product's store. It is replaced
 * by an atomic rename, so a reader sees either the old manifest or the new
 * one, never a mix.
 *
 * The manifest is the contract between ingest and the API (docs/architecture.md): it
 * says everything the point reader and the product router need — per variable
 * its unit, packing, interpolation rule and neighbour mask; the time layout
 * and coverage; the region; the response field groups the product feeds and
 * its priority among products feeding the same group. The API picks products
 * from manifests, never from product names in code.
 */
import type { GridDef } from '../geo/grid.js';

/** How the point reader interpolates a variable: bilinear + linear in time, or the nearest cell and step (categories). */
export type Interpolation = 'linear' | 'nearest';

/**
 * Which neighbours may contribute: any, or only cells of one kind (sea for
 * marine variables, land for soil), by the store's `land_sea_mask`
 * (tiles/masks.ts).
 */
export type NeighbourMask = 'any' | 'sea' | 'land';

/**
 * A value that is a statistic over the interval ending at its time (an
 * amount, a mean) rather than the value at that instant: precipitation
 * totals, mean radiation, a daily file's daily means. The point reader takes
 * such a value from the step whose interval holds the asked time instead of
 * blending two steps (docs/api.md, "Time").
 */
export interface TimeInterval {
  statistic: 'sum' | 'mean';
  /**
   * Length of the interval, s, when every value covers the same (3600 for an
   * ERA5 1-hour total, 86400 for a daily mean): a time farther than this
   * before the step's time lies in no value's interval (null). Absent: the
   * interval is the step from the previous time (a forecast's 1-hour, then
   * 3-hour amounts).
   */
  seconds?: number;
}

/** `static`: no time axis; `forecast`: one rolling store; `periods`: one store per UTC year. */
export type TimeLayout = 'static' | 'forecast' | 'periods';

export interface VariableInfo {
  /** Canonical unit ('°C', 'hPa', 'm/s', '%', ...). */
  units: string;
  /** On-disk packing: int16 with scale/offset, or float32 where precision or range forbid int16. */
  dtype: 'int16' | 'float32';
  scale_factor?: number;
  add_offset?: number;
  /** True when the variable does not vary in time (elevation): stored as [y, x]. */
  static?: boolean;
  interpolation: Interpolation;
  /** A statistic over the interval ending at each time; absent: the value at that instant. */
  interval?: TimeInterval;
  mask: NeighbourMask;
  /**
   * Masked variables: how far (km, great circle) from the point the centre of
   * a cell of the mask's kind may lie and still count; no such cell within
   * it, and the variable is null there. The variables of one kind in a store
   * share one radius (the nearest-cell indices are computed with it).
   */
  search_radius_km?: number;
  /**
   * Cache group: variables read together by the same requests share decoded
   * blocks in the reader's cache (tiles/read/block.ts), so a request decodes only
   * the groups it reads.
   */
  block: string;
}

/** Where a product has data worth routing to: a box, and optionally a polygon inside it. */
export interface Region {
  /** Short name for messages ('Italy', 'San Marino'). */
  name: string;
  /** [west, south, east, north], degrees. */
  bbox: [number, number, number, number];
  /** GeoJSON MultiPolygon coordinates (lon, lat), when the box is not the region. */
  polygon?: number[][][][];
}

export interface Manifest {
  /** Manifest format version. */
  format: 2;
  product: string;
  /** Period products: the period this store holds (a UTC year, '1950'). */
  period?: string;
  /** Directory name of the live version, e.g. '20261121T120000Z-1a2b3c.zarr'. */
  version: string;
  /** When this version was published (ISO 8601, UTC). */
  published: string;
  grid: GridDef;
  /** Valid times of the time axis, ISO 8601 UTC, ascending (empty for static stores). */
  times: string[];
  /**
   * Chunk shape: spatial edge (cells) and, for long time axes, steps per
   * chunk (`t`, tiles/write/chunking.ts); without `t` every chunk spans the
   * whole time axis.
   */
  chunk: { y: number; x: number; t?: number };
  variables: Record<string, VariableInfo>;
  layout: TimeLayout;
  /** First and last valid time; null for static stores. */
  coverage: { from: string; to: string } | null;
  region: Region;
  /** Response field groups this product feeds ('base', 'developer', 'elevation', 'cams', ...). */
  feeds: string[];
  /** Among products feeding one group and covering a point and time, the highest priority answers. */
  priority: number;
  /** Stores written before the radius moved into each masked variable's entry: the one radius of them all. */
  search_radius_km?: number;
  /**
   * Where the data came from: file names, model, run; 'sample' marks demo
   * data; `gate_overrides` the ingest gate's checks an operator allowed for
   * this version, with what each found (docs/gate.md); `run_order`
   * 'forecast': `run` is a forecast run of `model`, and the switch refuses a
   * version whose run is older than the live one's of the same model
   * (tiles/write/publish.ts), unless an operator set `allow_older_run`: then
   * `replaced_newer_run` is the live run it went back over, if it did.
   */
  source: {
    files: string[]; model?: string; run?: string; sample?: boolean; note?: string;
    gate_overrides?: { check: string; findings: string[] }[];
    run_order?: 'forecast';
    allow_older_run?: true;
    replaced_newer_run?: { run: string; version: string };
  };
  /** Products derived from another one's version (sm100 from nwp): which, and that version's grid spacing ('2.2 km'). */
  derived_from?: { product: string; version: string; resolution?: string };
}

/** `tiles/<product>/index.json` of a period product: its published periods. */
export interface PeriodIndex {
  format: 2;
  product: string;
  /** Period → its live version and coverage, in period order. */
  periods: Record<string, { version: string; from: string; to: string }>;
}
