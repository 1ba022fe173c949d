/**
 * A product store has one grid. When the input spans several (ECMWF ships
 * waves on 1/12°, pressure on 0.5°; a DEM comes as a national and a regional
 * file), the grid carrying the most variables wins; ties go to the grid
 * covering more of the service domain, then to the finer one. Fields on the
 * other grids are reported as dropped, or, for products that ask for it
 * (Product.resampleOtherGrids), resampled onto the winner. The winner is
 * cropped to the domain.
 */
import { describeResolution, sameGrid, type GridDef } from '../../geo/grid.js';
import type { DroppedField } from '../ingest-report.js';
import { IngestError } from '../ingest-types.js';
import { cropGrid, cropValues, cropWindow, isWholeGrid, type CropWindow } from './crop.js';
import { resampleOnto } from './resample.js';
import { SERVICE_DOMAIN, type Domain } from './domain.js';
import type { CanonicalField } from './map-fields.js';

/** A recognised field that is not in the store, and why. */
export interface GridSelection {
  /** The store's grid, cropped. */
  grid: GridDef;
  /** The chosen fields, with values cropped to `grid`. */
  fields: CanonicalField[];
  dropped: DroppedField[];
  /** With `resample`: one note per source resampled onto `grid`. */
  notes?: string[];
}

/**
 * Resample the variables of the other grids onto the chosen one instead of
 * dropping them (./resample.ts); `nearest` names the variables that take the
 * nearest valid source cell rather than a bilinear mean. A variable the
 * chosen grid already carries stays as that grid gives it.
 */
export interface ResampleOthers {
  nearest: ReadonlySet<string>;
}

interface Group {
  grid: GridDef;
  fields: CanonicalField[];
  window: CropWindow | null;
}

export function describeGrid(grid: GridDef): string {
  const kind = grid.kind === 'rotated_ll' ? `rotated lat/lon (south pole ${grid.southPoleLat}, ${grid.southPoleLon})` : 'regular lat/lon';
  return `${kind} ${grid.nx}×${grid.ny}, ${+grid.dx.toFixed(6)}°×${+grid.dy.toFixed(6)}° (~${describeResolution(grid)}), origin ${+grid.x0.toFixed(4)}, ${+grid.y0.toFixed(4)}`;
}

export function selectGrid(fields: readonly CanonicalField[], domain: Domain = SERVICE_DOMAIN, resample?: ResampleOthers): GridSelection {
  const groups: Group[] = [];
  for (const f of fields) {
    const g = groups.find((x) => sameGrid(x.grid, f.grid));
    if (g) g.fields.push(f);
    else groups.push({ grid: f.grid, fields: [f], window: cropWindow(f.grid, domain) });
  }
  const dropped: DroppedField[] = [];
  const usable = groups.filter((g) => g.window !== null);
  for (const g of groups) if (!g.window) dropped.push(...describeDropped(g.fields, `grid ${describeGrid(g.grid)} does not cover the service domain`));
  if (usable.length === 0) {
    const files = [...new Set(fields.map((f) => f.file))].join(', ');
    throw new IngestError(`${files}: no grid covers the service domain (lat ${domain.latMin}..${domain.latMax}, lon ${domain.lonMin}..${domain.lonMax})`);
  }
  const score = (g: Group) => new Set(g.fields.map((f) => f.variable)).size;
  const cells = (g: Group) => g.window!.nx * g.window!.ny;
  usable.sort((a, b) => score(b) - score(a) || cells(b) - cells(a) || a.grid.dy - b.grid.dy);
  const best = usable[0]!;
  const others = usable.slice(1);
  if (!resample) {
    for (const g of others) {
      dropped.push(...describeDropped(g.fields, `on another grid (${describeGrid(g.grid)}); the store keeps ${describeGrid(best.grid)}`));
    }
  }
  const w = best.window!;
  const grid = isWholeGrid(best.grid, w) ? best.grid : cropGrid(best.grid, w);
  const chosen = grid === best.grid ? best.fields : best.fields.map((f) => ({ ...f, grid, values: cropValues(f.values, best.grid, w) }));
  if (!resample || others.length === 0) return { grid, fields: chosen, dropped };
  return { grid, dropped, ...resampleOthers(chosen, others, grid, resample) };
}

function resampleOthers(chosen: CanonicalField[], others: readonly Group[], grid: GridDef, r: ResampleOthers): { fields: CanonicalField[]; notes: string[] } {
  const fields = [...chosen];
  const notes: string[] = [];
  const onGrid = new Set(chosen.map((f) => f.variable));
  for (const g of others) {
    const taken = g.fields.filter((f) => !onGrid.has(f.variable));
    const kept = g.fields.filter((f) => onGrid.has(f.variable));
    for (const f of taken) fields.push({ ...f, grid, values: resampleOnto(f.values, g.grid, grid, r.nearest.has(f.variable)) });
    const vars = [...new Set(taken.map((f) => f.variable))];
    const byNearest = vars.filter((v) => r.nearest.has(v));
    const rule = `bilinear over the source cells with values, weights renormalised${byNearest.length ? `; ${byNearest.join(', ')} from the nearest of them` : ''}`;
    if (vars.length) notes.push(`${vars.join(', ')} resampled from ${describeGrid(g.grid)} onto ${describeGrid(grid)} (${rule})`);
    if (kept.length) notes.push(`${[...new Set(kept.map((f) => f.variable))].join(', ')} on ${describeGrid(g.grid)} not used: the store's grid carries them`);
  }
  return { fields, notes };
}

function describeDropped(fields: readonly CanonicalField[], reason: string): DroppedField[] {
  const seen = new Map<string, DroppedField>();
  for (const f of fields) {
    const key = `${f.file}|${f.source}|${f.variable}`;
    if (!seen.has(key)) seen.set(key, { file: f.file, source: f.source, variable: f.variable, reason });
  }
  return [...seen.values()];
}
