/**
 * Where the writer takes a variable's step planes from: the input's own
 * arrays, or a spill file on disk (./plane-spill.ts) that an ingest filled
 * group by group, so that a year of hourly planes (134 MB per variable as
 * float32) is never held whole. The writer reads one time chunk at a time.
 */
import { finiteRange } from '../codecs/packing.js';

export interface PlaneSource {
  /** Steps held (1 for a static variable). */
  readonly length: number;
  /** Finite min and max over every value (NaN ignored, ±Infinity kept), null when all NaN: the packing's range. */
  range(): { min: number; max: number } | null;
  /** Planes [t0, t0 + n) (fewer at the end of the axis), each grid-sized; valid until the next read. */
  read(t0: number, n: number): readonly Float32Array[];
}

/** The planes of an in-memory variable. */
export function memoryPlanes(values: readonly Float32Array[]): PlaneSource {
  return {
    length: values.length,
    range: () => finiteRange(values),
    read: (t0, n) => values.slice(t0, t0 + n),
  };
}
