/**
 * One product of the labelled sample dataset (`meteopunto demo`, `npm
 * start`): it writes source files shaped like the real product's (NetCDF,
 * GRIB, ...) and the build ingests them through the real path, exactly as a
 * real file would be. Steps run in the order of ./registry.ts; a step may
 * build on what earlier ones published (a product derived from nwp).
 */
import type { RegularLatLonGrid } from '../../geo/grid.js';
import type { IngestReport } from '../ingest-report.js';

export interface SampleContext {
  /** Data directory the tiles go to. */
  root: string;
  /** Directory for the generated source files. */
  dir: string;
  /** The sample forecast's run time, and its hourly valid times. */
  run: Date;
  times: Date[];
  nwpGrid: RegularLatLonGrid;
  demGrid: RegularLatLonGrid;
  /** Provenance every sample manifest carries (sample: true, model, note). */
  source: { model: string; run: string; sample: true; note: string };
  signal?: AbortSignal;
  say(message: string): void;
}

export interface SampleStep {
  product: string;
  /** The stores it writes when not just `product` (sm100: also its DEM store): `demo` refuses to replace real ones. */
  stores?: readonly string[];
  /** One line for the progress output: what is generated. */
  describe(ctx: SampleContext): string;
  /** Write the source files into ctx.dir; returns their paths (empty: nothing to generate). */
  generate(ctx: SampleContext): Promise<string[]>;
  /** Publish the product (default: runIngest of the generated files with ctx.source). */
  ingest?(ctx: SampleContext, files: string[]): Promise<IngestReport>;
}
