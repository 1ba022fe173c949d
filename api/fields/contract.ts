/**
 * Response builders: one per field group of weather.php (base Free fields,
 * Developer indices, cams, coastal, soil, ...), each in its folder beside
 * its field assembly and schema. A builder declares its plan, the `fields=`
 * names that select its fields, which feeds it reads (a feed is what
 * products say they feed in their manifests: 'base', 'elevation', 'cams',
 * ...) and which variables, and turns the interpolated values into its
 * response fields. The weather service
 * (api/weather/service.ts) routes every feed once per request, pins the
 * answering versions, merges the variable lists of the builders reading the
 * same version into one lookup, then runs the builders in order; widget.php
 * runs the same builders.
 *
 * Adding a field group: a folder here with its builder, and its line in
 * ./registry.ts; plan gating, the response schema and the service read it
 * from there.
 */
import type { TSchema } from '@sinclair/typebox';
import type { SunAtPoint } from '../../geo/solar.js';
import type { Manifest } from '../../tiles/manifest.js';
import type { PointSample } from '../../tiles/types.js';
import type { Plan } from '../access/contract.js';
import type { Miss } from '../router/route.js';
import type { AltitudeCorrection } from './base/altitude.js';

/** One point request, validated. */
export interface PointRequest {
  /** Degrees north / east. */
  lat: number;
  lon: number;
  /** Altitude of the point, m (undefined: not given). */
  altM?: number | undefined;
  /** Valid time, ms since the epoch: `time=` or now. */
  timeMs: number;
  /** Whether `time=` was given (errors differ). */
  timeRequested: boolean;
}

/** A feed as a builder sees it: the answering version and its values at the point. */
export interface FeedView {
  manifest: Manifest;
  /** The version's valid times, ms (shared: do not modify). */
  timesMs: Float64Array;
  /** Values at the valid time (static feeds: without time). */
  now: PointSample;
  /** Values `history.offsetMs` earlier, same version; null when outside its time axis. */
  past: PointSample | null;
  /** Higher-priority products that cover the point but were passed over, and why (sm100 built from an nwp run no longer live). */
  passedOver: readonly Miss[];
}

export interface FeedRead {
  feed: string;
  /**
   * The variables to read from the answering version. Called once per
   * version (the result is cached with the version): return the same array
   * for the same manifest.
   */
  variables(m: Manifest): readonly string[];
  /** Read only when this says so (the DEM only without `alt`); default always. */
  when?(q: PointRequest): boolean;
  /** Read without a time (static products). */
  static?: boolean;
  /** Also read these variables `offsetMs` before the valid time from the same version (offsetMs < 0). */
  history?: { offsetMs: number; variables: readonly string[] };
  /** Read these too, in a second lookup of the same version, when `when(now)` (rare: the weather code unusable at the point). */
  extra?: { variables(m: Manifest): readonly string[]; when(now: PointSample): boolean };
  /** Without an answering product the request fails naming `what` ("weather"); otherwise the builder sees null. */
  required?: { what: string };
}

/** What the base builder computes for the builders after it, so every field agrees with the reported temperature. */
export interface SharedResults {
  correction: AltitudeCorrection | null;
  /** Altitude-corrected 2 m temperature, °C, unrounded. */
  temperatureC: number | null;
  dewPointC: number | null;
  humidityPct: number | null;
  /** DEM elevation at the point, m, when read. */
  demElevationM: number | null;
}

export interface BuildContext {
  q: PointRequest;
  /** The `fields=` names selected (every one the plan allows when `fields=` is absent). */
  groups: ReadonlySet<string>;
  /** The feed's view, or null when no product answers it here (only for feeds not `required`). */
  feed(name: string): FeedView | null;
  shared: SharedResults;
  /** The Sun at the request's point, each instant computed once per answer. */
  sun: SunAtPoint;
  /** The response being built; builders add their fields. */
  out: Record<string, unknown>;
}

export interface FieldBuilder<G extends string = string> {
  name: string;
  /** Lowest plan that gets these fields. */
  minPlan: Plan;
  /**
   * The `fields=` names this builder answers, each with the response fields
   * it selects (of `properties`). Its other properties come whenever the plan
   * allows; a builder whose properties all belong to names runs only when
   * one of them is selected.
   */
  groups: { readonly [name in G]: readonly string[] };
  reads: readonly FeedRead[];
  /** Response properties it may set (TypeBox), in response order. */
  properties: Readonly<Record<string, TSchema>>;
  /** Of those, the ones always present when the builder runs. */
  required: readonly string[];
  build(ctx: BuildContext): void;
}

/** A builder with its `fields=` names kept as literal types, so the registry can list them. */
export function defineBuilder<const G extends string = never>(b: FieldBuilder<G>): FieldBuilder<G> {
  return b;
}

/** Whether the builder runs for these selected `fields=` names (the plan checked apart). */
export function builderSelected(b: FieldBuilder, groups: ReadonlySet<string>): boolean {
  const names = Object.keys(b.groups);
  if (names.some((g) => groups.has(g))) return true;
  const grouped = new Set(names.flatMap((g) => b.groups[g]!));
  return Object.keys(b.properties).some((p) => !grouped.has(p));
}
