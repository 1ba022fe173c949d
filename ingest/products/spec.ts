/**
 * The shape of a product's variables table: one entry per canonical variable
 * (docs/architecture.md, "Canonical variables"), naming the source variables it comes from
 * across producers and how it is stored. Tables are written
 * `as const satisfies Record<Name, VariableSpec>` so that adding a variable
 * forces its metadata.
 */

/** How a stored value relates to time. */
export type Aggregation =
  /** Value at the valid time (temperature, wind, cloud cover, a max-gust over the step). */
  | 'instant'
  /** Amount over the step ending at the valid time (precipitation, mm). */
  | 'amount'
  /** Mean flux over the step ending at the valid time (radiation, W/m²). */
  | 'mean'
  /** Does not vary in time (elevation): stored as [y, x]. */
  | 'static';

export type { Interpolation, NeighbourMask } from '../../tiles/manifest.js';
import type { Interpolation, NeighbourMask } from '../../tiles/manifest.js';

export interface VariableSpec {
  /** Canonical unit (docs/architecture.md, "Canonical variables"). Source units are converted to it (ingest/mapping/units.ts). */
  units: string;
  aggregation: Aggregation;
  /** Smallest step worth keeping, in `units`; the tile writer packs int16 with it when the range allows. */
  precision: number;
  interpolation: Interpolation;
  /** Height above ground the variable is defined at (2 m, 10 m): a field on another height does not match. */
  heightM?: number;
  /**
   * Soil layer, cm below the surface [top, bottom]: the field must come on a
   * depth/soil level whose value is `top` (GRIB depthBelowLandLayer level,
   * ERA5 0/7/28/100); a field without a level matches by name alone.
   */
  layerCm?: readonly [number, number];
  /**
   * With `layerCm`: the field is at one depth d below the surface, top < d ≤
   * bottom, not a layer (ICON's T_SO, the layer's temperature, at its middle:
   * 0.5, 2, 6, 18 ... cm; DWD names the first depth 1 cm).
   */
  atDepth?: true;
  /**
   * Ocean model fields: a field on a depth level no deeper than this (m)
   * matches, as the sea surface value (the model's top level: 1.0182 m in
   * the Copernicus Marine MED physics); deeper levels do not.
   */
  topDepthM?: number;
  /** CF long_name / standard_name written into the store. */
  longName: string;
  standardName?: string;
  /** Source variable names, case-insensitive: GRIB shortNames (ecCodes, ECMWF and DWD/COSMO tables), NetCDF variable names. */
  names: readonly string[];
  /** GRIB paramIds (ecCodes parameter database) that mean this variable. */
  paramIds?: readonly number[];
  /**
   * GRIB2 parameters (`discipline.category.number`, optionally `@centre` for
   * a centre's local numbers) that mean this variable when ecCodes names
   * them under no shortName, with the unit of their code table (ecCodes then
   * gives none): ICON-2I's ASWDIR_S and W_SO under centre 80.
   */
  gribParameters?: Readonly<Record<string, string>>;
  /** CF standard_names that mean this variable (used when the name is not recognised). */
  standardNames?: readonly string[];
  /** Values outside this range (canonical units) are missing: e.g. a DEM's 9999 "no data". */
  validRange?: readonly [number, number];
  /** Values below are raised to it: de-accumulation and packing noise (precipitation −0.001 mm → 0). */
  min?: number;
  /**
   * A horizontal vector component and the variable holding the other one:
   * stored towards east (u) and north (v), so grid-relative sources are
   * turned to true north at ingest (ingest/mapping/wind-rotation.ts).
   */
  vector?: { component: 'u' | 'v'; partner: string };
}

/**
 * A variable the product stores: also how the point reader treats it
 * (written into the manifest, the contract with the API).
 */
export interface StoredVariableSpec extends VariableSpec {
  /** Neighbours that may contribute at a point: any, or only sea or land cells (tiles/masks.ts). */
  mask: NeighbourMask;
  /**
   * Ingest gate checks (ingest/gate/) that cannot judge this variable, and
   * why: a variable missing by design on most cells at some times (the
   * clear-sky index at night) is exempt from the finite-fraction and
   * collapse checks; its physical range is still checked.
   */
  gateExempt?: { checks: readonly ('finite-fraction' | 'collapse')[]; why: string };
  /**
   * Cache group: variables the same requests read together (tiles/read/block.ts).
   * A request decodes only the groups it reads, so keep what every request
   * needs apart from what only some do.
   */
  block: string;
}
