/**
 * Grid-relative u/v → true-north u/v, before anything derives a speed or a
 * direction from them. Rotated-pole models (COSMO-2I) give wind components
 * along the grid's own axes (GRIB resolutionAndComponentFlags bit 5, CF
 * x_wind/grid_eastward_wind); read as east/north they put the direction off
 * by the local grid-north angle (geo/grid-north.ts: −1.7° to +5.1° across
 * Italy on COSMO-2I's grid). Pairs are found from the product's variables:
 * a variable with standard name eastward_wind and one with northward_wind
 * at the same height. A field that says grid-relative on a rotated grid and
 * cannot be turned (no partner component at that time, or a grid this code
 * cannot rotate) is refused, never stored as if it were earth-relative.
 */
import { gridNorthAngles } from '../../geo/grid-north.js';
import { sameGrid, type GridDef } from '../../geo/grid.js';
import { IngestError } from '../ingest-types.js';
import type { CanonicalField } from './map-fields.js';
import type { Product } from './product.js';

/** [u variable, v variable] pairs of a product, from the standard names of its variables. */
export function windPairs(product: Product): [string, string][] {
  const pairs: [string, string][] = [];
  for (const [u, us] of Object.entries(product.variables)) {
    if (us.standardName !== 'eastward_wind') continue;
    const v = Object.entries(product.variables).find(([, vs]) => vs.standardName === 'northward_wind' && vs.heightM === us.heightM);
    if (v) pairs.push([u, v[0]]);
  }
  return pairs;
}

/**
 * Turn every grid-relative u/v pair in `fields` to true north, in place.
 * Returns notes for the ingest report. Earth-relative fields, and fields on
 * regular lat/lon grids (grid north is true north), are left untouched.
 */
export function rotateWindToTrueNorth(product: Product, fields: CanonicalField[]): string[] {
  const notes: string[] = [];
  const angleCache: { grid: GridDef; sin: Float64Array; cos: Float64Array }[] = [];
  const trig = (grid: GridDef) => {
    let c = angleCache.find((a) => sameGrid(a.grid, grid));
    if (!c) {
      const deg = gridNorthAngles(grid)!;
      const sin = new Float64Array(deg.length);
      const cos = new Float64Array(deg.length);
      for (let k = 0; k < deg.length; k++) {
        sin[k] = Math.sin((deg[k]! * Math.PI) / 180);
        cos[k] = Math.cos((deg[k]! * Math.PI) / 180);
      }
      angleCache.push((c = { grid, sin, cos }));
    }
    return c;
  };

  for (const [uName, vName] of windPairs(product)) {
    const needs = (f: CanonicalField) => f.uvRelativeToGrid === true && f.grid.kind !== 'regular_ll';
    const us = fields.filter((f) => f.variable === uName && needs(f));
    const vs = fields.filter((f) => f.variable === vName && needs(f));
    for (const f of [...us, ...vs]) {
      if (f.grid.kind !== 'rotated_ll') {
        throw new IngestError(`${f.file}: ${f.source} is given relative to a ${(f.grid as GridDef).kind} grid, which cannot be turned to true north`);
      }
    }
    let turned = 0;
    for (const u of us) {
      const v = vs.find((x) => x.validTime.getTime() === u.validTime.getTime() && x.referenceTime.getTime() === u.referenceTime.getTime() && sameGrid(x.grid, u.grid));
      if (!v) {
        throw new IngestError(
          `${u.file}: ${u.source} (${uName}) at ${u.validTime.toISOString()} is relative to the rotated grid and has no ${vName} on the same grid and time to turn it to true north with`,
        );
      }
      vs.splice(vs.indexOf(v), 1);
      const { sin, cos } = trig(u.grid);
      const uv = u.values;
      const vv = v.values;
      for (let k = 0; k < uv.length; k++) {
        // Grid axes in (east, north): x̂ = (cos δ, −sin δ), ŷ = (sin δ, cos δ), δ = grid north clockwise from true north.
        const ug = uv[k]!;
        const vg = vv[k]!;
        uv[k] = ug * cos[k]! + vg * sin[k]!;
        vv[k] = -ug * sin[k]! + vg * cos[k]!;
      }
      u.uvRelativeToGrid = false;
      v.uvRelativeToGrid = false;
      turned++;
    }
    if (vs.length > 0) {
      const v = vs[0]!;
      throw new IngestError(
        `${v.file}: ${v.source} (${vName}) at ${v.validTime.toISOString()} is relative to the rotated grid and has no ${uName} on the same grid and time to turn it to true north with`,
      );
    }
    if (turned > 0) notes.push(`${uName}/${vName}: ${turned} steps turned from grid-relative to true north (rotated pole, geo/grid-north.ts)`);
  }
  return notes;
}
