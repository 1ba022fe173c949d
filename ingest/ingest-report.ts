/**
 * What an ingest run reports: the published version, and every field it
 * left out with the reason (never silently lost). Built by the pipeline and
 * by products with an ingest of their own (sm100).
 */
import type { GridDef } from '../geo/grid.js';
import type { IngestResult } from './ingest-types.js';

/** A recognised field the run did not store, and why. */
export interface DroppedField {
  file: string;
  source: string;
  variable: string;
  reason: string;
}

/** A field the product does not use, and why. */
export interface SkippedField {
  file: string;
  /** Source name, with its level when it has one: 'z@isobaricInhPa:1000'. */
  name: string;
  units: string;
  reason: string;
}

/** IngestResult plus what the run left out and why (printed by the CLI, logged by jobs). */
export interface IngestReport extends IngestResult {
  grid: GridDef;
  /** Human-readable grid: kind, size, spacing, resolution. */
  gridDescription: string;
  files: string[];
  /** Recognised fields not stored: on another grid, outside the domain. */
  dropped: DroppedField[];
  /** Fields the product does not use (not its variables, wrong level, unknown units). */
  skipped: SkippedField[];
  /** Derivations and assumptions made (dew point from humidity, DEM fallback, ...). */
  notes: string[];
  /** Versions of the products that follow this one (sm100 after nwp), built after the publish. */
  derived?: { product: string; version: string }[];
  /** Ingest gate checks the operator allowed, with what they found (also in the manifest). */
  gateOverrides?: { check: string; findings: string[] }[];
  /** `allowOlderRun` took effect: this run went live over the newer live run `newerRun` (version `newerVersion`). */
  olderRunOver?: { run: string; newerRun: string; newerVersion: string; model?: string };
  /** Period products: each year published (its store after the merge with what it held). */
  periods?: { period: string; version: string; from: string; to: string; times: number }[];
}
