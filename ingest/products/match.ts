/**
 * Which variable of a product a source field is: by name (GRIB shortName,
 * NetCDF variable name; case-insensitive), then GRIB paramId, then CF
 * standard_name, on a level that fits (a 2 m variable on 2 m or the surface,
 * nothing on pressure or model levels: ERA5's `z` on 1000 hPa is not the
 * orography).
 */
import type { SourceField } from '../field.js';
import type { Product } from './product.js';
import type { VariableSpec } from './spec.js';

export type MatchOutcome =
  | { ok: true; variable: string; spec: VariableSpec }
  | { ok: false; reason: string };

/** Level types of fields that are not at the surface (ecCodes typeOfLevel names and CF-ish names). */
const NON_SURFACE_LEVEL = /isobaric|pressure|hybrid|sigma|theta|potentialvorticity|depth|soil|generalvertical|isotherm|tropopause|cloudbase|cloudtop|nominaltop|maxwind/i;
const HEIGHT_LEVEL = /height/i;
/** Below-ground layers (ecCodes depthBelowLandLayer, depthBelowLand; CF-ish depth/soil names). */
const SOIL_LEVEL = /depth|soil/i;

interface Entry {
  variable: string;
  spec: VariableSpec;
}

/** Index of the product's tables, built once per product. */
export class VariableIndex {
  private readonly byName = new Map<string, Entry>();
  private readonly byParamId = new Map<number, Entry>();
  private readonly byStandardName = new Map<string, Entry>();

  constructor(product: Product) {
    // Stored variables first: a name listed in both tables means the stored one.
    for (const table of [product.variables, product.auxiliary]) {
      for (const [variable, spec] of Object.entries(table)) {
        const entry = { variable, spec };
        for (const n of [variable, ...spec.names]) if (!this.byName.has(n.toLowerCase())) this.byName.set(n.toLowerCase(), entry);
        for (const id of spec.paramIds ?? []) if (!this.byParamId.has(id)) this.byParamId.set(id, entry);
        for (const s of spec.standardNames ?? []) if (!this.byStandardName.has(s)) this.byStandardName.set(s, entry);
      }
    }
  }

  match(field: SourceField): MatchOutcome {
    const entry =
      this.byName.get(field.name.toLowerCase()) ??
      (field.paramId !== undefined && field.paramId > 0 ? this.byParamId.get(field.paramId) : undefined) ??
      (field.standardName ? this.byStandardName.get(field.standardName) : undefined);
    if (!entry) return { ok: false, reason: 'not a variable of this product' };
    const levelProblem = levelMismatch(field, entry.spec);
    if (levelProblem) return { ok: false, reason: `${entry.variable}? ${levelProblem}` };
    return { ok: true, variable: entry.variable, spec: entry.spec };
  }
}

function levelMismatch(field: SourceField, spec: VariableSpec): string | null {
  const level = field.level;
  if (!level) return null;
  if (spec.layerCm) {
    if (!SOIL_LEVEL.test(level.type)) return `on level ${level.type} ${level.value}, not a soil layer`;
    if (level.value !== spec.layerCm[0]) return `soil layer from ${level.value} cm, expected ${spec.layerCm[0]} cm`;
    return null;
  }
  if (NON_SURFACE_LEVEL.test(level.type)) return `on level ${level.type} ${level.value}, not a surface field`;
  if (HEIGHT_LEVEL.test(level.type)) {
    const want = spec.heightM ?? 0;
    if (level.value !== want) return `at ${level.value} m above ground, expected ${want} m`;
  }
  return null;
}
