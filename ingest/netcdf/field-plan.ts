/**
 * Decides, per NetCDF variable, whether it is a gridded field and how to cut
 * it into 2-D SourceFields: which dimension is x, which is y, which carry
 * time, reference time, forecast period or level, which are singleton
 * dimensions to squeeze. Coordinates, bounds, grid mappings and scalars are
 * not fields; a candidate the reader cannot use gets a skip reason (reported
 * when a file yields no field at all).
 */
import type { GridDef } from '../../geo/grid.js';
import type { NcDataset, NcVariable } from './model.js';
import { attrText, isNumericType } from './model.js';
import { coordRole, type CoordRole } from './cf-coords.js';
import { gridMappingOf } from './cf-grid-mapping.js';
import { xAxis, yAxis } from './cf-grid.js';
import type { CoordCache, TimeCoord } from './coord-values.js';
import type { SlabGeometry } from './slab.js';

export type DimRole = 'x' | 'y' | 'time' | 'reftime' | 'period' | 'level' | 'squeeze';

export interface DimPlan {
  name: string;
  len: number;
  role: DimRole;
  /** Element stride in the raw array. */
  stride: number;
  coord?: NcVariable;
}

export interface Level {
  type: string;
  value: number;
}

export interface VariablePlan {
  v: NcVariable;
  dims: DimPlan[];
  grid: GridDef;
  geometry: SlabGeometry;
  /** Scalar (or singleton) time coordinates when the variable has no time dimension. */
  scalarTime?: TimeCoord;
  scalarRefMs?: number;
  scalarLevel?: Level;
}

export type PlanResult = { plan: VariablePlan } | { skip: string } | { ignore: true };

/** Names other variables point at as coordinates, bounds, grid mappings or measures: never fields. */
export function referencedNames(ds: NcDataset): Set<string> {
  const out = new Set<string>();
  for (const v of ds.variables) {
    for (const a of ['coordinates', 'bounds', 'climatology', 'grid_mapping', 'cell_measures', 'ancillary_variables', 'formula_terms']) {
      const text = attrText(v, a);
      if (!text) continue;
      // "area: cell_area", "crs: lat lon", "a: var1 b: var2": keep the bare names.
      for (const tok of text.split(/\s+/)) if (tok && !tok.endsWith(':')) out.add(tok);
    }
  }
  return out;
}

export function levelOf(coord: NcVariable, value: number): Level {
  return { type: attrText(coord, 'standard_name') ?? coord.name, value };
}

/** Scalar coordinates the variable names in `coordinates`, then file-wide scalar time variables. */
function scalarCoords(ds: NcDataset, v: NcVariable, cache: CoordCache): NcVariable[] {
  const listed = (attrText(v, 'coordinates') ?? '')
    .split(/\s+/)
    .map((n) => cache.variable(n))
    .filter((c): c is NcVariable => c !== undefined);
  const fileWide = ds.variables.filter((c) => {
    const r = coordRole(c);
    return (r === 'time' || r === 'reftime') && c.shape.reduce((p, s) => p * s, 1) === 1;
  });
  return [...listed, ...fileWide].filter((c) => c.shape.reduce((p, s) => p * s, 1) === 1 && !v.dims.includes(c.name));
}

export function planVariable(ds: NcDataset, v: NcVariable, referenced: Set<string>, cache: CoordCache): PlanResult {
  if (!isNumericType(v.type) || v.shape.length < 2) return { ignore: true };
  if (referenced.has(v.name) || v.attrs.has('grid_mapping_name')) return { ignore: true };
  const ownRole = coordRole(v);
  if (ownRole === 'lat' || ownRole === 'lon') return { ignore: true }; // 2-D auxiliary lat/lon

  const strides: number[] = new Array(v.shape.length);
  let s = 1;
  for (let i = v.shape.length - 1; i >= 0; i--) {
    strides[i] = s;
    s *= v.shape[i]!;
  }
  const dims: DimPlan[] = [];
  const roles: (CoordRole | null)[] = [];
  for (let i = 0; i < v.dims.length; i++) {
    const name = v.dims[i]!;
    const coord = cache.coordinateOf(name);
    const r = coord ? coordRole(coord) : null;
    roles.push(r);
    dims.push({ name, len: v.shape[i]!, role: 'squeeze', stride: strides[i]!, coord });
  }
  const xi = roles.findIndex((r) => r === 'lon' || r === 'rlon');
  const yi = roles.findIndex((r) => r === 'lat' || r === 'rlat');
  if (roles.includes('projx') || roles.includes('projy')) return { skip: `${v.name}: projected x/y grid (not latitude/longitude) is not supported` };
  if (xi < 0 || yi < 0) return { skip: `${v.name}: no latitude/longitude dimensions (dims: ${v.dims.join(', ')})` };
  const rotated = roles[xi] === 'rlon';
  if (rotated !== (roles[yi] === 'rlat')) return { skip: `${v.name}: mixes rotated and geographic axes` };

  const seen = new Set<DimRole>();
  for (let i = 0; i < dims.length; i++) {
    const d = dims[i]!;
    const r = roles[i];
    let role: DimRole | undefined;
    if (i === xi) role = 'x';
    else if (i === yi) role = 'y';
    else if (r === 'time' || r === 'reftime' || r === 'period') role = r;
    else if (r === 'vertical') role = 'level';
    else if (d.len === 1) role = 'squeeze';
    if (!role) return { skip: `${v.name}: dimension ${d.name} (${d.len} values) is neither time nor a vertical level` };
    if (role !== 'squeeze' && role !== 'level' && seen.has(role)) return { skip: `${v.name}: two ${role} dimensions` };
    seen.add(role);
    d.role = role;
  }
  if (dims.filter((d) => d.role === 'level').length > 1) return { skip: `${v.name}: more than one vertical dimension` };

  const xd = dims[xi]!;
  const yd = dims[yi]!;
  const x = xAxis(cache.values(xd.coord!), xd.name, xd.coord!.type === 'f4');
  const y = yAxis(cache.values(yd.coord!), yd.name, yd.coord!.type === 'f4');
  let grid: GridDef;
  const nx = x.srcIndex.length;
  const ny = y.srcIndex.length;
  if (rotated) {
    const gm = gridMappingOf(ds, v);
    if (gm.kind !== 'rotated_latitude_longitude') {
      return { skip: `${v.name}: rotated axes need a rotated_latitude_longitude grid_mapping (found ${gm.kind === 'unsupported' ? gm.name : gm.kind})` };
    }
    grid = { kind: 'rotated_ll', nx, ny, x0: x.start, y0: y.start, dx: x.step, dy: y.step, southPoleLat: gm.southPoleLat, southPoleLon: gm.southPoleLon, angle: gm.angle };
  } else {
    grid = { kind: 'regular_ll', nx, ny, x0: x.start, y0: y.start, dx: x.step, dy: y.step };
  }

  const plan: VariablePlan = {
    v,
    dims,
    grid,
    geometry: { xIndex: x.srcIndex, yIndex: y.srcIndex, xStride: xd.stride, yStride: yd.stride },
  };
  // Singleton vertical dimension: keep its level.
  const squeezedLevel = dims.find((d) => d.role === 'squeeze' && d.coord && coordRole(d.coord) === 'vertical');
  if (squeezedLevel) plan.scalarLevel = levelOf(squeezedLevel.coord!, cache.values(squeezedLevel.coord!)[0]!);
  for (const c of scalarCoords(ds, v, cache)) {
    const r = coordRole(c);
    if (r === 'time' && !seen.has('time') && !plan.scalarTime) plan.scalarTime = cache.time(c);
    else if (r === 'reftime' && !seen.has('reftime') && plan.scalarRefMs === undefined) plan.scalarRefMs = cache.time(c).ms[0];
    else if (r === 'vertical' && !seen.has('level') && !plan.scalarLevel) plan.scalarLevel = levelOf(c, cache.values(c)[0]!);
  }
  return { plan };
}

