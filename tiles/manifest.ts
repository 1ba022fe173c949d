/**
 * `tiles/<product>/current.json`: the manifest naming the live version of a
 * product's store. It is replaced by an atomic rename, so a reader sees either
 * the old manifest or the new one, never a mix.
 */
import type { GridDef } from '../geo/grid.js';

export interface VariableInfo {
  /** Canonical unit ('°C', 'hPa', 'm/s', '%', ...). */
  units: string;
  /** On-disk packing: int16 with scale/offset, or float32 where precision or range forbid int16. */
  dtype: 'int16' | 'float32';
  scale_factor?: number;
  add_offset?: number;
  /** True when the variable does not vary in time (elevation): stored as [y, x]. */
  static?: boolean;
}

export interface Manifest {
  /** Manifest format version. */
  format: 1;
  product: string;
  /** Directory name of the live version under tiles/<product>/, e.g. '20261121T120000Z-1a2b3c.zarr'. */
  version: string;
  /** When this version was published (ISO 8601, UTC). */
  published: string;
  grid: GridDef;
  /** Valid times of the time axis, ISO 8601 UTC, ascending. */
  times: string[];
  /** Spatial chunk edge (cells); every chunk spans the whole time axis. */
  chunk: { y: number; x: number };
  variables: Record<string, VariableInfo>;
  /** Where the data came from: file names, model, run; 'sample' marks demo data. */
  source: { files: string[]; model?: string; run?: string; sample?: boolean; note?: string };
}
