/**
 * `WeatherService`: gathers what the Free fields need from the tile store and
 * hands it to the pure assembly (./assemble.ts).
 *
 * Three lookups per request: the nwp Free variables at the valid time, the
 * nwp 2 m temperature three hours earlier (trend), and the DEM's elevation at
 * the point (only when `alt` is not given). `tryObserve` is the hot path:
 * synchronous, cached chunks only, no promise; it returns undefined when a
 * chunk is not cached yet and the caller then awaits `observe`, which loads
 * what is missing and answers through the same assembly.
 */
import { describeResolution } from '../../geo/grid.js';
import type { TileStore } from '../../tiles/reader.js';
import { TileError, type PointSample } from '../../tiles/types.js';
import { ApiError } from '../errors.js';
import { assembleFreeFields, FREE_VARIABLES, TREND_VARIABLES } from './assemble.js';
import type { FreeFields } from './schema.js';
import { mapTileError } from './tile-errors.js';
import { TREND_HOURS } from './trend.js';

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

const TREND_MS = TREND_HOURS * 3600_000;
const ELEVATION = ['elevation'] as const;

type Lookup<R> = (product: string, lat: number, lon: number, timeMs: number | null, vars: readonly string[]) => R;

export class WeatherService {
  readonly product: string;
  readonly demProduct: string;
  private readonly clock: () => number;
  /** Resolution text of the last manifest version seen (the manifest changes a few times a day). */
  private resolutionOf = { version: '', text: '' };

  constructor(
    private readonly tiles: TileStore,
    opts: WeatherServiceOptions = {},
  ) {
    this.clock = opts.clock ?? Date.now;
    this.product = opts.product ?? 'nwp';
    this.demProduct = opts.demProduct ?? 'dem';
  }

  /** The Free fields from cached chunks only; undefined when something must be loaded first. Throws ApiError. */
  tryObserve(q: PointQuery): FreeFields | undefined {
    const try_: Lookup<PointSample | undefined> = (p, la, lo, t, v) => this.tiles.trySample(p, la, lo, t, v);
    const t = q.timeMs ?? this.clock();
    const now = this.main(try_, q, t);
    if (!now) return undefined;
    const past = optional(() => try_(this.product, q.lat, q.lon, t - TREND_MS, TREND_VARIABLES), 'TIME_OUT_OF_RANGE');
    if (past === undefined) return undefined;
    let dem: PointSample | null | undefined = null;
    if (q.altM === undefined) {
      dem = optional(() => try_(this.demProduct, q.lat, q.lon, null, ELEVATION), 'PRODUCT_NOT_PUBLISHED', 'OUTSIDE_GRID');
      if (dem === undefined) return undefined;
    }
    return this.assemble(q, t, now, past, dem);
  }

  /** The Free fields, loading chunks as needed. Throws ApiError. */
  async observe(q: PointQuery): Promise<FreeFields> {
    const warm = this.tryObserve(q);
    if (warm) return warm;
    const load: Lookup<Promise<PointSample>> = (p, la, lo, t, v) => this.tiles.sample(p, la, lo, t, v);
    const t = q.timeMs ?? this.clock();
    const now = await this.main(load, q, t);
    const past = await optionalAsync(() => load(this.product, q.lat, q.lon, t - TREND_MS, TREND_VARIABLES), 'TIME_OUT_OF_RANGE');
    const dem = q.altM === undefined
      ? await optionalAsync(() => load(this.demProduct, q.lat, q.lon, null, ELEVATION), 'PRODUCT_NOT_PUBLISHED', 'OUTSIDE_GRID')
      : null;
    return this.assemble(q, t, now, past, dem);
  }

  /** The main lookup, its TileErrors mapped to the API's (context: was a time asked for?). */
  private main<R>(lookup: Lookup<R>, q: PointQuery, t: number): R {
    try {
      const r = lookup(this.product, q.lat, q.lon, t, FREE_VARIABLES);
      if (r instanceof Promise) return r.catch((err: unknown) => Promise.reject(mapTileError(err, { timeRequested: q.timeMs !== undefined }))) as R;
      return r;
    } catch (err) {
      throw mapTileError(err, { timeRequested: q.timeMs !== undefined });
    }
  }

  private assemble(q: PointQuery, t: number, now: PointSample, past: PointSample | null, dem: PointSample | null): FreeFields {
    const manifest = this.tiles.manifest(this.product);
    if (!manifest) throw new ApiError('DATA_NOT_AVAILABLE', `No ${this.product} data has been published yet`);
    if (this.resolutionOf.version !== manifest.version) {
      this.resolutionOf = { version: manifest.version, text: describeResolution(manifest.grid) };
    }
    return assembleFreeFields({
      lat: q.lat,
      lon: q.lon,
      ...(q.altM !== undefined ? { altM: q.altM } : {}),
      product: this.product,
      resolution: this.resolutionOf.text,
      sample: manifest.source.sample === true,
      now,
      validTimeMs: t,
      pastTempC: past?.values.temperature_2m ?? null,
      demElevationM: dem?.values.elevation ?? null,
    });
  }
}

/** Run a lookup; the listed TileError codes become null (that input is optional). */
function optional<R>(fn: () => R, ...codes: TileError['code'][]): R | null {
  try {
    return fn();
  } catch (err) {
    if (err instanceof TileError && codes.includes(err.code)) return null;
    throw err;
  }
}

async function optionalAsync<R>(fn: () => Promise<R>, ...codes: TileError['code'][]): Promise<R | null> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof TileError && codes.includes(err.code)) return null;
    throw err;
  }
}
