/**
 * One sm100 version from one nwp version (issue "San Marino on a 100 m
 * grid"): every nwp variable resampled onto the 100 m grid by its rule
 * (bilinear, nearest for categories), then per time step
 *
 *   T₁₀₀ = T_nwp + γ · (z₁₀₀ − z_nwp)
 *
 * with T_nwp, z_nwp the model temperature and orography at the cell centre,
 * z₁₀₀ the cell's DEM elevation (./terrain.ts) and γ = dT/dz fitted on the
 * model's own cells within {@link FIT_RADIUS_KM} of San Marino at that step
 * (science/lapse-rate.ts: Sheridan et al. 2010; gridpp's gradient method;
 * inversions kept, −6.5 K/km where the fit is poor). Then, as the point
 * correction does (api/fields/base/humidity.ts): relative humidity kept and the
 * dew point recomputed at T₁₀₀; surface pressure moved hypsometrically to
 * z₁₀₀; the precomputed index (the mean radiant temperature) computed
 * afresh on the 100 m fields by the same code as nwp's (ingest/indices).
 *
 * Pure apart from reading the two published versions it is given.
 */
import { cellLatLon, gridIndexOf, type GridDef } from '../../../geo/grid.js';
import { dewPoint, pressureAtElevation, relativeHumidity } from '../../../science/index.js';
import { fitTemperatureGradient, type FittedGradient } from '../../../science/lapse-rate.js';
import { readFieldWindow, type CellWindow, type OpenVersion } from '../../../tiles/read/field-reader.js';
import type { VariableInfo } from '../../../tiles/manifest.js';
import type { ProductVersionInput, VariableInput } from '../../../tiles/types.js';
import { variableMeta } from '../store-meta.js';
import { deriveIndices, INDEX_VARIABLES } from '../../indices/derive-indices.js';
import { applyResamplePlan, resamplePlan } from '../../mapping/resample.js';
import { SM100_GRID } from './grid.js';
import { SM100_OWN_VARIABLES, SM100_VARIABLES } from './variables.js';

/** Radius of the fit's neighbourhood around San Marino, km: ICON-2I/COSMO-2I give ~150 cells from the Adriatic coast to the Apennine ridge (0–1,400 m). */
export const FIT_RADIUS_KM = 15;
/** Centre of the neighbourhood: San Marino's centroid. */
export const FIT_CENTRE = { lat: 43.9424, lon: 12.4578 } as const;

export interface DownscaleResult {
  input: ProductVersionInput;
  /** Per nwp time step, the gradient used. */
  gradients: FittedGradient[];
  notes: string[];
}

/** Why a version cannot be downscaled (the caller reports it; nothing is published). */
export class DownscaleSkipped extends Error {}

const INDEX_NAMES = new Set(Object.keys(INDEX_VARIABLES));
const KM_PER_DEG = 111.195;

export async function downscaleVersion(nwp: OpenVersion, terrain: OpenVersion, opts: { signal?: AbortSignal } = {}): Promise<DownscaleResult> {
  const m = nwp.manifest;
  if (!m.variables.temperature_2m) throw new DownscaleSkipped(`nwp ${m.version} has no temperature_2m`);
  if (!m.variables.elevation) throw new DownscaleSkipped(`nwp ${m.version} has no model orography (elevation): the downscaling needs it`);
  const win = windowAround(m.grid);
  if (!win) throw new DownscaleSkipped(`the nwp grid does not cover San Marino`);
  const wgrid = windowGrid(m.grid, win);
  const plan = resamplePlan(wgrid, SM100_GRID);
  const steps = m.times.map((_, k) => k);
  const z100 = (await readFieldWindow(terrain, 'elevation', [], { x0: 0, y0: 0, nx: SM100_GRID.nx, ny: SM100_GRID.ny }))[0]!;
  const zWin = (await readFieldWindow(nwp, 'elevation', [], win))[0]!;
  const zNwp = applyResamplePlan(plan, zWin, false);
  const near = fitCells(wgrid);

  const variables: Record<string, VariableInput> = {};
  const tWin = await readFieldWindow(nwp, 'temperature_2m', steps, win);
  for (const [name, info] of Object.entries(m.variables)) {
    if (info.static || INDEX_NAMES.has(name)) continue;
    opts.signal?.throwIfAborted();
    const fields = name === 'temperature_2m' ? tWin : await readFieldWindow(nwp, name, steps, win);
    variables[name] = { ...metaOf(name, info), values: fields.map((f) => applyResamplePlan(plan, f, info.interpolation === 'nearest')) };
  }
  variables.elevation = { ...metaOf('elevation', m.variables.elevation), values: [z100], static: true, longName: 'surface altitude above mean sea level (mean over the 100 m cell)' };

  const gradients = tWin.map((t) => fitTemperatureGradient(pick(t, near), pick(zWin, near)));
  const gradientField: Float32Array[] = [];
  const r2Field: Float32Array[] = [];
  const cells = SM100_GRID.nx * SM100_GRID.ny;
  const T = variables.temperature_2m!.values;
  const Td = variables.dew_point_2m?.values;
  const RH = variables.relative_humidity_2m?.values;
  const Ps = variables.surface_pressure?.values;
  for (let k = 0; k < steps.length; k++) {
    const g = gradients[k]!;
    const perM = g.gradientKPerKm / 1000;
    gradientField.push(new Float32Array(cells).fill(g.gradientKPerKm));
    r2Field.push(new Float32Array(cells).fill(g.fitted ? g.r2 : NaN));
    const t = T[k]!;
    for (let c = 0; c < cells; c++) {
      const tNwp = t[c]!;
      const dz = z100[c]! - zNwp[c]!;
      const t100 = tNwp + perM * dz;
      t[c] = t100;
      // Relative humidity kept, dew point moved with the temperature (api/fields/base/humidity.ts explains why).
      const rh = Td ? relativeHumidity(tNwp, Td[k]![c]!) : RH ? RH[k]![c]! : NaN;
      if (Td) Td[k]![c] = rh > 0 ? dewPoint(t100, rh) : NaN;
      if (RH && Td) RH[k]![c] = rh;
      if (Ps) Ps[k]![c] = pressureAtElevation(Ps[k]![c]!, zNwp[c]!, z100[c]!, tNwp);
    }
  }
  variables.temperature_gradient = { ...variableMeta(SM100_OWN_VARIABLES.temperature_gradient), values: gradientField };
  variables.temperature_gradient_r2 = { ...variableMeta(SM100_OWN_VARIABLES.temperature_gradient_r2), values: r2Field };

  const times = m.times.map((s) => new Date(s));
  const notes: string[] = [];
  Object.assign(variables, await deriveIndices({ grid: SM100_GRID, times, variables }, { signal: opts.signal, onNote: (n) => notes.push(n) }));
  const fitted = gradients.filter((g) => g.fitted);
  notes.push(
    `${fitted.length} of ${gradients.length} steps with a fitted gradient on ${near.length} nwp cells within ${FIT_RADIUS_KM} km` +
      (fitted.length ? ` (${Math.min(...fitted.map((g) => g.gradientKPerKm)).toFixed(1)} … ${Math.max(...fitted.map((g) => g.gradientKPerKm)).toFixed(1)} K/km)` : ''),
  );
  return {
    input: {
      product: 'sm100',
      grid: SM100_GRID,
      times,
      variables,
      source: {
        files: m.source.files,
        ...(m.source.model ? { model: m.source.model } : {}),
        ...(m.source.run ? { run: m.source.run } : {}),
        ...(m.source.sample ? { sample: true } : {}),
        note: `downscaled from nwp ${m.version} onto ${terrain.manifest.source.files.join(', ')}`,
      },
    },
    gradients,
    notes,
  };
}

/** The nwp cells around San Marino and its fit neighbourhood (2 cells of margin), or null when the grid does not cover them. */
function windowAround(grid: GridDef): CellWindow | null {
  const dLat = FIT_RADIUS_KM / KM_PER_DEG;
  const dLon = dLat / Math.cos((FIT_CENTRE.lat * Math.PI) / 180);
  const [w, s, e, n] = [FIT_CENTRE.lon - dLon, FIT_CENTRE.lat - dLat, FIT_CENTRE.lon + dLon, FIT_CENTRE.lat + dLat];
  const pts = [[s, w], [s, e], [n, w], [n, e], [s, FIT_CENTRE.lon], [n, FIT_CENTRE.lon], [FIT_CENTRE.lat, w], [FIT_CENTRE.lat, e]].map(([la, lo]) => gridIndexOf(grid, la!, lo!));
  if (pts.some((p) => p === null)) return null;
  const xs = pts.map((p) => p!.x);
  const ys = pts.map((p) => p!.y);
  const x0 = Math.max(0, Math.floor(Math.min(...xs)) - 2);
  const y0 = Math.max(0, Math.floor(Math.min(...ys)) - 2);
  const x1 = Math.min(grid.nx - 1, Math.ceil(Math.max(...xs)) + 2);
  const y1 = Math.min(grid.ny - 1, Math.ceil(Math.max(...ys)) + 2);
  return { x0, y0, nx: x1 - x0 + 1, ny: y1 - y0 + 1 };
}

function windowGrid(grid: GridDef, win: CellWindow): GridDef {
  return { ...grid, nx: win.nx, ny: win.ny, x0: grid.x0 + win.x0 * grid.dx, y0: grid.y0 + win.y0 * grid.dy };
}

/** Indices (in the window) of the cells whose centre lies within FIT_RADIUS_KM of FIT_CENTRE. */
function fitCells(wgrid: GridDef): number[] {
  const out: number[] = [];
  const cos = Math.cos((FIT_CENTRE.lat * Math.PI) / 180);
  for (let j = 0; j < wgrid.ny; j++) {
    for (let i = 0; i < wgrid.nx; i++) {
      const p = cellLatLon(wgrid, i, j);
      const dy = (p.lat - FIT_CENTRE.lat) * KM_PER_DEG;
      const dx = (p.lon - FIT_CENTRE.lon) * KM_PER_DEG * cos;
      if (dx * dx + dy * dy <= FIT_RADIUS_KM * FIT_RADIUS_KM) out.push(j * wgrid.nx + i);
    }
  }
  return out;
}

function pick(values: Float32Array, at: readonly number[]): Float32Array {
  const out = new Float32Array(at.length);
  for (let k = 0; k < at.length; k++) out[k] = values[at[k]!]!;
  return out;
}

/** Writer metadata of an nwp variable: the catalogue's entry when it knows it, else what the manifest says. */
function metaOf(name: string, info: VariableInfo): Omit<VariableInput, 'values'> {
  // The nwp version's time meaning (an amount over each step, a daily mean) carries over as it is.
  const interval = info.interval ? { interval: info.interval } : {};
  const spec = SM100_VARIABLES[name];
  if (spec) return { ...variableMeta(spec), ...interval };
  return { units: info.units, precision: info.scale_factor ?? 0.001, interpolation: info.interpolation, mask: info.mask, block: info.block, ...interval };
}
