/**
 * `WeatherService`: gathers what the Free fields need from the tile store and
 * hands it to the pure assembly (./assemble.ts).
 *
 * Lookups per request: the nwp variables of the version's plan at the valid
 * time (./variables.ts), the nwp 2 m temperature three hours earlier (trend),
 * the DEM's elevation at the point (only without `alt`), and, rarely, the
 * state variables a condition is derived from when the product's weather code
 * is unusable there. `tryObserve` is the hot path: synchronous, cached chunks
 * only, no promise; it returns undefined when a chunk is not cached yet and
 * the caller then awaits `observe`, which loads what is missing and answers
 * through the same assembly.
 */
import { describeResolution } from '../../geo/grid.js';
import type { Manifest } from '../../tiles/manifest.js';
import type { TileStore } from '../../tiles/reader.js';
import { TileError, type PointSample, type TileErrorCode } from '../../tiles/types.js';
import { assembleFreeFields } from './assemble.js';
import { isUsableProductCode } from './condition.js';
import type { FreeFields } from './schema.js';
import { mapTileError } from './tile-errors.js';
import { TREND_HOURS } from './trend.js';
import { freeVariablePlan, TREND_VARIABLES, type VariablePlan } from './variables.js';

/** A validated point request. */
export interface PointQuery {
  /** Degrees north. */
  lat: number;
  /** Degrees east. */
  lon: number;
  /** Altitude of the point, m; undefined → the DEM. */
  altM?: number;
  /** Valid time, ms since the epoch; undefined → now (current conditions). */
  timeMs?: number;
}

export interface WeatherServiceOptions {
  /** Current time, ms since the epoch (tests freeze it). Default Date.now. */
  clock?: () => number;
  /** Forecast product (default 'nwp'). */
  product?: string;
  /** Elevation product for points without `alt` (default 'dem'). */
  demProduct?: string;
}

/** What a published version means for the lookups, computed once per version. */
interface VersionInfo {
  version: string;
  resolution: string;
  sample: boolean;
  plan: VariablePlan;
}

const TREND_MS = TREND_HOURS * 3600_000;
const ELEVATION = ['elevation'] as const;
/** Inputs that may be absent: their TileErrors just mean "no value". */
const PAST_OPTIONAL: readonly TileErrorCode[] = ['TIME_OUT_OF_RANGE'];
const DEM_OPTIONAL: readonly TileErrorCode[] = ['PRODUCT_NOT_PUBLISHED', 'OUTSIDE_GRID'];

export class WeatherService {
  readonly product: string;
  readonly demProduct: string;
  private readonly clock: () => number;
  private info: VersionInfo | null = null;

  constructor(
    private readonly tiles: TileStore,
    opts: WeatherServiceOptions = {},
  ) {
    this.clock = opts.clock ?? Date.now;
    this.product = opts.product ?? 'nwp';
    this.demProduct = opts.demProduct ?? 'dem';
  }

  /**
   * The Free fields from cached chunks only; undefined when something must be
   * loaded first. Throws ApiError. (The hot path: direct calls, no closures;
   * the variable lists are per-version constants, which the tile store
   * resolves once.)
   */
  tryObserve(q: PointQuery): FreeFields | undefined {
    const tiles = this.tiles;
    const t = q.timeMs ?? this.clock();
    const info = this.versionInfo(q);
    let now: PointSample | undefined;
    try {
      now = tiles.trySample(this.product, q.lat, q.lon, t, info.plan.primary);
    } catch (err) {
      throw mapTileError(err, { timeRequested: q.timeMs !== undefined });
    }
    if (!now) return undefined;
    if (info.plan.conditionFallback.length > 0 && !isUsableProductCode(now.values.weather_code)) {
      const extra = tiles.trySample(this.product, q.lat, q.lon, t, info.plan.conditionFallback);
      if (!extra) return undefined;
      Object.assign(now.values, extra.values);
    }
    let past: PointSample | null | undefined;
    try {
      past = tiles.trySample(this.product, q.lat, q.lon, t - TREND_MS, TREND_VARIABLES);
    } catch (err) {
      past = optionalInput(err, PAST_OPTIONAL);
    }
    if (past === undefined) return undefined;
    let dem: PointSample | null | undefined = null;
    if (q.altM === undefined) {
      try {
        dem = tiles.trySample(this.demProduct, q.lat, q.lon, null, ELEVATION);
      } catch (err) {
        dem = optionalInput(err, DEM_OPTIONAL);
      }
      if (dem === undefined) return undefined;
    }
    return this.assemble(q, t, info, now, past, dem);
  }

  /** The Free fields, loading chunks as needed. Throws ApiError. */
  async observe(q: PointQuery): Promise<FreeFields> {
    const warm = this.tryObserve(q);
    if (warm) return warm;
    const tiles = this.tiles;
    const t = q.timeMs ?? this.clock();
    const info = this.versionInfo(q);
    let now: PointSample;
    try {
      now = await tiles.sample(this.product, q.lat, q.lon, t, info.plan.primary);
    } catch (err) {
      throw mapTileError(err, { timeRequested: q.timeMs !== undefined });
    }
    if (info.plan.conditionFallback.length > 0 && !isUsableProductCode(now.values.weather_code)) {
      Object.assign(now.values, (await tiles.sample(this.product, q.lat, q.lon, t, info.plan.conditionFallback)).values);
    }
    let past: PointSample | null;
    try {
      past = await tiles.sample(this.product, q.lat, q.lon, t - TREND_MS, TREND_VARIABLES);
    } catch (err) {
      past = optionalInput(err, PAST_OPTIONAL);
    }
    let dem: PointSample | null = null;
    if (q.altM === undefined) {
      try {
        dem = await tiles.sample(this.demProduct, q.lat, q.lon, null, ELEVATION);
      } catch (err) {
        dem = optionalInput(err, DEM_OPTIONAL);
      }
    }
    return this.assemble(q, t, info, now, past, dem);
  }

  /** The live version's info (recomputed only when the version changes); 503 when nothing is published. */
  private versionInfo(q: PointQuery): VersionInfo {
    const m: Manifest | null = this.tiles.manifest(this.product);
    if (!m) {
      throw mapTileError(new TileError('PRODUCT_NOT_PUBLISHED', `no data published yet for product '${this.product}'`, { product: this.product }), {
        timeRequested: q.timeMs !== undefined,
      });
    }
    if (this.info?.version !== m.version) {
      this.info = { version: m.version, resolution: describeResolution(m.grid), sample: m.source.sample === true, plan: freeVariablePlan(m) };
    }
    return this.info;
  }

  private assemble(q: PointQuery, t: number, info: VersionInfo, now: PointSample, past: PointSample | null, dem: PointSample | null): FreeFields {
    return assembleFreeFields({
      lat: q.lat,
      lon: q.lon,
      altM: q.altM,
      product: this.product,
      resolution: info.resolution,
      sample: info.sample,
      now,
      validTimeMs: t,
      pastTempC: past?.values.temperature_2m ?? null,
      demElevationM: dem?.values.elevation ?? null,
    });
  }
}

/** A lookup's error: null when it is a TileError with one of `codes` (that input is optional), else rethrown. */
function optionalInput(err: unknown, codes: readonly TileErrorCode[]): null {
  if (err instanceof TileError && codes.includes(err.code)) return null;
  throw err;
}
