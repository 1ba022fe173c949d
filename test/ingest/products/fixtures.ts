/** Small hand-made source fields for product unit tests. */
import type { GridDef } from '../../../geo/grid.js';
import type { SourceField } from '../../../ingest/field.js';

export const SMALL_GRID: GridDef = { kind: 'regular_ll', nx: 3, ny: 2, x0: 10, y0: 42, dx: 1, dy: 1 };

export const RUN = new Date('2024-03-01T00:00:00Z');

export function hours(h: number, from: Date = RUN): Date {
  return new Date(from.getTime() + h * 3_600_000);
}

/** A field on SMALL_GRID (or `grid`) with every cell equal to `value` (or the given array). */
export function field(over: Partial<SourceField> & { name: string; units: string; value?: number | number[] }): SourceField {
  const grid = over.grid ?? SMALL_GRID;
  const n = grid.nx * grid.ny;
  const values = Array.isArray(over.value) ? Float32Array.from(over.value) : new Float32Array(n).fill(over.value ?? 0);
  const { value: _v, ...rest } = over;
  return {
    referenceTime: RUN,
    validTime: RUN,
    stepType: 'instant',
    grid,
    values,
    ...rest,
  };
}
