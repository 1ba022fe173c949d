/**
 * Which variable of a product a source field is: by name (GRIB shortName,
 * NetCDF variable name; case-insensitive), then GRIB paramId, then the GRIB2
 * parameter code (for parameters ecCodes does not name under the message's
 * centre), then CF standard_name, on a level that fits (a 2 m variable on
 * 2 m or the surface, nothing on pressure or model levels: ERA5's `z` on
 * 1000 hPa is not the orography). One name may stand for several variables
 * told apart by level (ICON's W_SO on each soil layer).
 */
import type { SourceField } from '../field.js';
import type { Product } from '../products/product.js';
import type { VariableSpec } from '../products/spec.js';

export type MatchOutcome =
  | { ok: true; variable: string; spec: VariableSpec; units: string }
  | { ok: false; reason: string };

/** Level types of fields that are not at the surface (ecCodes typeOfLevel names and CF-ish names). */
const NON_SURFACE_LEVEL = /isobaric|pressure|hybrid|sigma|theta|potentialvorticity|depth|soil|generalvertical|isotherm|tropopause|cloudbase|cloudtop|nominaltop|maxwind/i;
const HEIGHT_LEVEL = /height/i;
/** Below-ground layers (ecCodes depthBelowLandLayer, depthBelowLand; CF-ish depth/soil names). */
const SOIL_LEVEL = /depth|soil/i;
/** An ocean model's depth axis (CF standard_name depth); not the soil's depthBelowLand. */
const OCEAN_DEPTH = /^depth$/i;

interface Entry {
  variable: string;
  spec: VariableSpec;
}

function add<K>(map: Map<K, Entry[]>, key: K, entry: Entry): void {
  const list = map.get(key);
  if (!list) map.set(key, [entry]);
  else if (!list.some((e) => e.variable === entry.variable)) list.push(entry);
}

/** Index of the product's tables, built once per product. */
export class VariableIndex {
  private readonly byName = new Map<string, Entry[]>();
  private readonly byParamId = new Map<number, Entry[]>();
  private readonly byGribCode = new Map<string, Entry[]>();
  private readonly byStandardName = new Map<string, Entry[]>();

  constructor(product: Product) {
    // Stored variables first: a name listed in both tables means the stored one when both fit.
    for (const table of [product.variables, product.auxiliary]) {
      for (const [variable, spec] of Object.entries(table)) {
        const entry = { variable, spec };
        for (const n of [variable, ...spec.names]) add(this.byName, n.toLowerCase(), entry);
        for (const id of spec.paramIds ?? []) add(this.byParamId, id, entry);
        for (const code of Object.keys(spec.gribParameters ?? {})) add(this.byGribCode, code, entry);
        for (const s of spec.standardNames ?? []) add(this.byStandardName, s, entry);
      }
    }
  }

  match(field: SourceField): MatchOutcome {
    const code = field.gribParameter;
    const candidates: [Entry[] | undefined, boolean][] = [
      [this.byName.get(field.name.toLowerCase()), false],
      [field.paramId !== undefined && field.paramId > 0 ? this.byParamId.get(field.paramId) : undefined, false],
      [code ? (code.centre ? this.byGribCode.get(`${code.code}@${code.centre}`) : undefined) ?? this.byGribCode.get(code.code) : undefined, true],
      [field.standardName ? this.byStandardName.get(field.standardName) : undefined, false],
    ];
    for (const [entries, byCode] of candidates) {
      if (!entries) continue;
      let problem: string | null = null;
      for (const e of entries) {
        const p = levelMismatch(field, e.spec);
        if (p === null) return { ok: true, variable: e.variable, spec: e.spec, units: byCode || field.units === 'unknown' ? codeUnits(field, e.spec) : field.units };
        problem ??= `${e.variable}? ${p}`;
      }
      return { ok: false, reason: problem! };
    }
    return { ok: false, reason: 'not a variable of this product' };
  }
}

/** The unit its code table gives a GRIB2 parameter ecCodes left without one; the field's own otherwise. */
function codeUnits(field: SourceField, spec: VariableSpec): string {
  const code = field.gribParameter;
  if (!code || !spec.gribParameters) return field.units;
  return spec.gribParameters[`${code.code}@${code.centre}`] ?? spec.gribParameters[code.code] ?? field.units;
}

function levelMismatch(field: SourceField, spec: VariableSpec): string | null {
  const level = field.level;
  if (!level) return null;
  if (spec.layerCm) {
    if (!SOIL_LEVEL.test(level.type)) return `on level ${level.type} ${level.value}, not a soil layer`;
    const [top, bottom] = spec.layerCm;
    if (spec.atDepth) {
      if (level.bottomCm !== undefined || !(level.value > top && level.value <= bottom)) return `soil level ${describe(level)}, expected a depth in ${top}–${bottom} cm`;
      return null;
    }
    if (level.value !== top || (level.bottomCm !== undefined && level.bottomCm !== bottom)) return `soil layer ${describe(level)}, expected ${top}–${bottom} cm`;
    return null;
  }
  if (spec.topDepthM !== undefined && OCEAN_DEPTH.test(level.type)) {
    return level.value >= 0 && level.value <= spec.topDepthM ? null : `at depth ${level.value} m, deeper than the top level (≤ ${spec.topDepthM} m)`;
  }
  if (NON_SURFACE_LEVEL.test(level.type)) return `on level ${level.type} ${level.value}, not a surface field`;
  if (HEIGHT_LEVEL.test(level.type)) {
    const want = spec.heightM ?? 0;
    if (level.value !== want) return `at ${level.value} m above ground, expected ${want} m`;
  }
  return null;
}

function describe(level: NonNullable<SourceField['level']>): string {
  return level.bottomCm !== undefined ? `${level.value}–${level.bottomCm} cm` : `at ${level.value} cm`;
}
