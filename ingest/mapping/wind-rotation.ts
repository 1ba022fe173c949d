/**
 * Vector components to true north. Models on rotated grids (COSMO-2I, ICON
 * LAM output on its native grid) give u/v along the grid's axes; a direction
 * computed from them is off by the local angle between grid north and true
 * north (−1.7° to +5.1° across Italy on COSMO-2I's grid). Every u/v pair a
 * product declares (VariableSpec.vector) is turned here, once, at ingest, so
 * the tiles and the API only ever hold east/north components.
 */
import { gridNorthAngles } from '../../geo/grid-north.js';
import type { GridDef } from '../../geo/grid.js';
import { IngestError } from '../ingest-types.js';
import type { CanonicalField } from './map-fields.js';
import type { Product } from '../products/product.js';

/** Angles per grid, computed once per ingest (a grid is shared by all its fields). */
type AngleCache = Map<string, { cos: Float64Array; sin: Float64Array }>;

function gridKey(g: GridDef): string {
  return JSON.stringify(g);
}

function anglesOf(cache: AngleCache, grid: GridDef): { cos: Float64Array; sin: Float64Array } {
  const key = gridKey(grid);
  let a = cache.get(key);
  if (!a) {
    const alpha = gridNorthAngles(grid);
    a = { cos: alpha.map(Math.cos), sin: alpha.map(Math.sin) };
    cache.set(key, a);
  }
  return a;
}

/**
 * Turns the grid-relative u/v pairs of `fields` to east/north in place
 * (new value arrays); returns notes for the ingest report. A grid-relative
 * component without its partner at the same time on the same grid cannot be
 * turned and is refused, never stored as if it were east/north.
 */
export function rotateVectorsToTrueNorth(product: Product, fields: CanonicalField[]): string[] {
  const pairs = Object.entries(product.variables).filter(([, s]) => s.vector?.component === 'u').map(([u, s]) => [u, s.vector!.partner] as const);
  if (pairs.length === 0) return [];
  const cache: AngleCache = new Map();
  const notes: string[] = [];
  for (const [uName, vName] of pairs) {
    const key = (f: CanonicalField) => `${f.validTime.getTime()}|${gridKey(f.grid)}`;
    const vs = new Map(fields.filter((f) => f.variable === vName).map((f) => [key(f), f]));
    const usedV = new Set<CanonicalField>();
    let turned = 0;
    let maxDeg = 0;
    let minDeg = 0;
    for (const u of fields.filter((f) => f.variable === uName)) {
      const v = vs.get(key(u));
      if (v) usedV.add(v);
      const gridRelative = u.vectorAxes === 'grid' || v?.vectorAxes === 'grid';
      if (!gridRelative || u.grid.kind === 'regular_ll') continue; // on a lat/lon grid, grid axes are east and north
      if (!v) throw new IngestError(`${u.file}: ${u.source} is relative to the rotated grid but no ${vName} at ${u.validTime.toISOString()} on the same grid: cannot turn it to true north`);
      const { cos, sin } = anglesOf(cache, u.grid);
      const ue = new Float32Array(u.values.length);
      const ve = new Float32Array(v.values.length);
      for (let n = 0; n < ue.length; n++) {
        // Grid east is (cos α, −sin α) and grid north (sin α, cos α) in east/north coordinates.
        const gu = u.values[n]!;
        const gv = v.values[n]!;
        ue[n] = gu * cos[n]! + gv * sin[n]!;
        ve[n] = -gu * sin[n]! + gv * cos[n]!;
      }
      u.values = ue;
      v.values = ve;
      u.vectorAxes = v.vectorAxes = 'earth';
      turned++;
      if (turned === 1) {
        for (let n = 0; n < cos.length; n++) {
          const d = (Math.atan2(sin[n]!, cos[n]!) * 180) / Math.PI;
          if (d > maxDeg) maxDeg = d;
          if (d < minDeg) minDeg = d;
        }
      }
    }
    for (const v of fields.filter((f) => f.variable === vName && f.vectorAxes === 'grid' && f.grid.kind !== 'regular_ll' && !usedV.has(f))) {
      throw new IngestError(`${v.file}: ${v.source} is relative to the rotated grid but no ${uName} at ${v.validTime.toISOString()} on the same grid: cannot turn it to true north`);
    }
    if (turned > 0) notes.push(`${uName}/${vName}: ${turned} step(s) turned from grid to true north (grid north ${minDeg.toFixed(1)}° to ${maxDeg.toFixed(1)}° from true north)`);
  }
  return notes;
}
