/**
 * Chunk layout of the tile store: a small square spatial tile, and along time
 * either the whole axis or, for long axes, runs of {@link TIME_CHUNK_STEPS}
 * steps. A point lookup reads one chunk per variable in the common case (all
 * four bilinear neighbours in one tile).
 *
 * Short axes (forecasts, up to 1,024 steps): 32-cell tiles over the whole
 * axis (49 hourly steps × 32 × 32 × 2 bytes ≈ 100 KB raw per chunk), so a
 * point's whole forecast is one chunk per variable.
 *
 * Long axes (a reanalysis year: 8,760 hourly steps): 16-cell tiles × 128
 * steps (5.3 days), 32,768 values (64 KiB int16) per chunk. `time=` asks a
 * random hour of the year, so what a cold lookup decodes is what matters:
 * with year-long chunks (8 cells × 8,760 steps, 1.1 MB each) the Free
 * fields' base block took 27–94 ms to decode on the shared 2-core VM, with
 * 256 steps 5.2 ms; halving that to 128 cut the CPU of a `time=` request by
 * a third and the collector's mark-compacts by 40 % (a cache of the same
 * bytes holds the same share of the year, so misses are about as many, each
 * half the work), for twice the files: 18,001 per ERA5 year of Italy instead
 * of 9,161, about 1.8 million for a century (docs/benchmarks-journal.md).
 * With edge E the
 * 2×2 neighbourhood crosses a tile boundary for a fraction 1 − ((E−1)/E)² of
 * points (6 % at 32, 12 % at 16).
 */

/** Upper bound on values per chunk of a short axis (2 MiB as int16). */
export const MAX_CHUNK_VALUES = 1 << 20;
export const MAX_CHUNK_EDGE = 32;
/** Spatial edge and steps per chunk of long time axes. */
export const LONG_AXIS_EDGE = 16;
export const TIME_CHUNK_STEPS = 128;

/** Chunk shape for a store with `nTimes` time steps (0 or 1 for static-only stores): spatial edge, steps per chunk. */
export function chooseChunkShape(nTimes: number): { edge: number; steps: number } {
  const t = Math.max(1, nTimes);
  if (t * MAX_CHUNK_EDGE * MAX_CHUNK_EDGE <= MAX_CHUNK_VALUES) return { edge: MAX_CHUNK_EDGE, steps: t };
  return { edge: LONG_AXIS_EDGE, steps: TIME_CHUNK_STEPS };
}

/** Number of chunks along an axis of `n` cells. */
export function chunkCount(n: number, edge: number): number {
  return Math.ceil(n / edge);
}
