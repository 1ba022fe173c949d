/**
 * A field on another grid resampled onto the store's grid, for products
 * whose sources come on different grids but mean the same surface (marine:
 * the 0.05° SST L4 and the 1/24° or 1/12° wave models). Per target cell
 * centre: bilinear over the four source cells around it that have a value,
 * weights renormalised (a coastal sea cell takes only the source's sea
 * values, never a fill), or the value of the nearest of them for `nearest`
 * variables (directions, codes); NaN when none of the four has a value or
 * the centre is outside the source grid. Same rule as the point reader
 * (tiles/point-rules.ts), applied once per cell.
 */
import { cellLatLon, gridIndexOf, type GridDef } from '../../geo/grid.js';

export function resampleOnto(values: Float32Array, source: GridDef, target: GridDef, nearest: boolean): Float32Array {
  const out = new Float32Array(target.nx * target.ny).fill(NaN);
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
      let sum = 0;
      let wsum = 0;
      let best = NaN;
      let bestW = -1;
      for (let k = 0; k < 4; k++) {
        const dx = k & 1;
        const dy = k >> 1;
        let xi = x0 + dx;
        const yi = y0 + dy;
        if (wraps) xi = ((xi % source.nx) + source.nx) % source.nx;
        if (xi < 0 || yi < 0 || xi >= source.nx || yi >= source.ny) continue;
        const w = (dx ? fx : 1 - fx) * (dy ? fy : 1 - fy);
        const v = values[yi * source.nx + xi]!;
        if (v !== v || !(w > 0)) continue;
        sum += w * v;
        wsum += w;
        if (w > bestW) [best, bestW] = [v, w];
      }
      if (wsum > 0) out[j * target.nx + i] = nearest ? best : sum / wsum;
    }
  }
  return out;
}
