/**
 * Grid-level precomputation of the stored indices (catalogue.ts: the mean
 * radiant temperature): from the canonical variables of one product version
 * to new canonical variables, cell by cell on the product's own grid with
 * the science/ library, so that the point reader only interpolates. An index
 * is produced only when all its inputs are present; a file with only
 * temperature yields none.
 *
 * Speed (docs/science.md "Precomputed tile variables"): the work is split
 * into bands of rows run on worker threads (./pool.ts), one per core up to
 * 4; the solar geometry per instant (./sun.ts) is taken out of the cell loop.
 * A band carries only the inputs the kernel reads (./kernel.ts SERIES_INPUTS).
 */
import type { GridDef } from '../../geo/grid.js';
import type { VariableInput } from '../../tiles/types.js';
import { bandJob, scatterBand, splitRows } from './bands.js';
import { computableIndices, INDEX_BLOCK, INDEX_VARIABLES, type IndexName } from './catalogue.js';
import { computeBand } from './kernel.js';
import { runBands, defaultWorkerCount } from './pool.js';
import { stepTimings } from './timeline.js';

export { INDEX_VARIABLES, computableIndices, type IndexName, type IndexSpec } from './catalogue.js';

export interface DeriveIndicesInput {
  grid: GridDef;
  /** Valid times, ascending (the product's time axis). */
  times: Date[];
  /** Canonical variables of the product version (tile writer input). */
  variables: Record<string, VariableInput>;
  /** The valid time before `times[0]` when these times continue an earlier part of the axis (ms): the first step's radiation window. */
  previousMs?: number;
}

export interface DeriveIndicesOptions {
  signal?: AbortSignal;
  /** Fraction of the work done, 0..1. */
  onProgress?: (fraction: number) => void;
  /**
   * Worker threads: 0 computes in the calling thread; default one per
   * available core, at most 4 (METEOPUNTO_INDEX_WORKERS overrides).
   */
  workers?: number;
  /** Degradations worth logging (a worker thread that failed; its bands were computed in the calling thread). */
  onNote?: (message: string) => void;
}

/** Bands per worker: small enough to balance land/sea and day/night differences. */
const BANDS_PER_WORKER = 4;

/**
 * The indices computable from `input.variables`, as new variables for the
 * tile writer (units, int16 precision and long names from the catalogue).
 *
 * @returns index name → variable; empty when no index has all its inputs
 */
export async function deriveIndices(
  input: DeriveIndicesInput,
  opts: DeriveIndicesOptions = {},
): Promise<Record<string, VariableInput>> {
  const { grid, times, variables } = input;
  const has = (name: string) => {
    const v = variables[name];
    return v !== undefined && (v.static === true || v.values.length === times.length);
  };
  const outputs = computableIndices(has);
  if (outputs.length === 0 || times.length === 0) return {};
  opts.signal?.throwIfAborted();

  const cells = grid.nx * grid.ny;
  const steps = stepTimings(times, input.previousMs);
  const result: Partial<Record<IndexName, Float32Array[]>> = {};
  for (const name of outputs) result[name] = times.map(() => new Float32Array(cells));

  const workers = opts.workers ?? defaultWorkerCount();
  const ranges = splitRows(grid, Math.max(1, workers) * BANDS_PER_WORKER);
  const jobs = ranges.map((r) => () => bandJob(grid, r, steps, variables, outputs));
  let done = 0;
  const finished = (i: number, band: Parameters<typeof scatterBand>[2]) => {
    scatterBand(ranges[i]!, times.length, band, result);
    opts.onProgress?.(++done / ranges.length);
  };
  if (workers > 0 && ranges.length > 1) {
    await runBands(jobs, workers, finished, opts.signal, opts.onNote);
  } else {
    for (const [i, job] of jobs.entries()) {
      opts.signal?.throwIfAborted();
      finished(i, computeBand(job()));
      // Let the event loop breathe between bands (progress bars, abort).
      await new Promise<void>((r) => setImmediate(r));
    }
  }

  const out: Record<string, VariableInput> = {};
  for (const name of outputs) {
    const spec = INDEX_VARIABLES[name];
    out[name] = {
      units: spec.units, precision: spec.precision, longName: spec.longName, values: result[name]!,
      interpolation: spec.interpolation, mask: 'any', block: INDEX_BLOCK,
    };
  }
  return out;
}
