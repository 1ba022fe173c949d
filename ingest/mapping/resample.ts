/**
 * A field on another grid resampled onto the store's grid, for products
 * whose sources come on different grids but mean the same surface (marine:
 * the 0.05° SST L4 and the 1/24° or 1/12° wave models). Per target cell
 * centre: bilinear over the four source cells around it that have a value,
 * weights renormalised (a coastal sea cell takes only the source's sea
 * values, never a fill), or the value of the nearest of them for `nearest`
 * variables (directions, codes); NaN when none of the four has a value or
 * the centre is outside the source grid. Same rule as the point reader
 * (tiles/read/point-rules.ts), applied once per cell.
 */
import { cellLatLon, gridIndexOf, type GridDef } from '../../geo/grid.js';

/**
 * Where each target cell centre falls on the source grid: the four source
 * cells around it and their bilinear weights (index −1 / weight 0 where a
 * neighbour is off the grid). Computed once per pair of grids: sm100 applies
 * one plan to every variable and time step.
 */
export interface ResamplePlan {
  cells: number;
  /** 4 per target cell. */
  index: Int32Array;
  weight: Float32Array;
}

export function resamplePlan(source: GridDef, target: GridDef): ResamplePlan {
  const cells = target.nx * target.ny;
  const index = new Int32Array(cells * 4).fill(-1);
  const weight = new Float32Array(cells * 4);
  const wraps = source.kind === 'regular_ll' && Math.abs(source.nx * source.dx - 360) < source.dx / 2;
  for (let j = 0; j < target.ny; j++) {
    for (let i = 0; i < target.nx; i++) {
      const p = cellLatLon(target, i, j);
      const g = gridIndexOf(source, p.lat, p.lon);
      if (!g) continue;
      const x0 = Math.floor(g.x);
      const y0 = Math.floor(g.y);
      const fx = g.x - x0;
      const fy = g.y - y0;
      const t = j * target.nx + i;
      for (let k = 0; k < 4; k++) {
        const dx = k & 1;
        const dy = k >> 1;
        let xi = x0 + dx;
        const yi = y0 + dy;
        if (wraps) xi = ((xi % source.nx) + source.nx) % source.nx;
        if (xi < 0 || yi < 0 || xi >= source.nx || yi >= source.ny) continue;
        index[t * 4 + k] = yi * source.nx + xi;
        weight[t * 4 + k] = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy);
      }
    }
  }
  return { cells, index, weight };
}

/** `values` (on the plan's source grid) on its target grid. */
export function applyResamplePlan(plan: ResamplePlan, values: ArrayLike<number>, nearest: boolean): Float32Array {
  const out = new Float32Array(plan.cells).fill(NaN);
  const { index, weight } = plan;
  for (let t = 0; t < plan.cells; t++) {
    let sum = 0;
    let wsum = 0;
    let best = NaN;
    let bestW = -1;
    for (let k = t * 4; k < t * 4 + 4; k++) {
      const w = weight[k]!;
      if (!(w > 0)) continue;
      const v = values[index[k]!]!;
      if (v !== v) continue;
      sum += w * v;
      wsum += w;
      if (w > bestW) [best, bestW] = [v, w];
    }
    if (wsum > 0) out[t] = nearest ? best : sum / wsum;
  }
  return out;
}

export function resampleOnto(values: Float32Array, source: GridDef, target: GridDef, nearest: boolean): Float32Array {
  return applyResamplePlan(resamplePlan(source, target), values, nearest);
}
