/**
 * Source fields → canonical fields of a product: match, convert units,
 * turn accumulations into per-step amounts and mean fluxes. Fields the
 * product cannot use are reported with the reason, never silently lost.
 */
import type { GridDef } from '../../geo/grid.js';
import type { SourceField } from '../field.js';
import type { SkippedField } from '../ingest-report.js';
import type { TimeInterval } from '../../tiles/manifest.js';
import { deaccumulate, inferIntervalStarts, type AccumPoint } from './accumulation.js';
import { accumulationConvention, conventionStart, type AccumulationConvention } from './time-conventions.js';
import { VariableIndex } from './match.js';
import type { Product } from '../products/product.js';
import type { Aggregation, VariableSpec } from '../products/spec.js';
import { applyValueRule, unitRule, type UnitRule } from './units.js';

/** A source field with the file it came from. */
export interface TaggedField {
  field: SourceField;
  file: string;
}

/** One canonical (or auxiliary) variable at one valid time, in canonical units. */
export interface CanonicalField {
  variable: string;
  aggregation: Aggregation;
  validTime: Date;
  referenceTime: Date;
  grid: GridDef;
  values: Float32Array;
  file: string;
  /** Source variable name, for reports. */
  source: string;
  /** For amounts and means: length of the step the value covers, s. */
  stepSeconds?: number;
  /** A sum or mean over the `seconds` before `validTime` (amounts, mean fluxes, a daily file's means); absent: the value at that instant. */
  interval?: { statistic: TimeInterval['statistic']; seconds: number };
  /** Vector components: along the grid's axes or east/north, as the source said (SourceField.vectorAxes). */
  vectorAxes?: 'grid' | 'earth';
  /** The source gave no time (SourceField.timeless): refused by the ingest gate unless static. */
  timeless?: true;
}

/** A field left out, and why (shown by `meteopunto ingest`). */
export interface MappedFields {
  fields: CanonicalField[];
  skipped: SkippedField[];
  notes: string[];
}

interface Pending {
  tagged: TaggedField;
  variable: string;
  spec: VariableSpec;
  rule: Extract<UnitRule, { kind: 'amount' | 'rate' }>;
  /** Explicit interval start (ms) or null when it must be inferred from the series. */
  startMs: number | null;
  /** What the file's source says an amount without an explicit interval covers (./time-conventions.ts). */
  convention: AccumulationConvention;
}

/** `model`: the source model the ingest names (reanalysis: ERA5, ERA5-Land), which says what accumulations cover. */
export function mapFields(product: Product, tagged: readonly TaggedField[], opts: { model?: string } = {}): MappedFields {
  const index = new VariableIndex(product);
  const out: MappedFields = { fields: [], skipped: [], notes: [] };
  const pending: Pending[] = [];

  const matchedFiles = new Set<string>();
  const byFile = new Map<string, TaggedField[]>();
  for (const t of tagged) pushTo(byFile, t.file, t);

  for (const t of tagged) {
    const f = t.field;
    const m = index.match(f);
    if (!m.ok) {
      out.skipped.push(skip(t, m.reason));
      continue;
    }
    const rule = unitRule(m.units, m.spec.units);
    if (!rule) {
      out.skipped.push(skip(t, `${m.variable}: units '${m.units}' cannot be converted to '${m.spec.units}'`));
      continue;
    }
    matchedFiles.add(t.file);
    if (m.spec.aggregation === 'amount' || m.spec.aggregation === 'mean') {
      if (rule.kind === 'value') {
        out.skipped.push(skip(t, `${m.variable}: '${m.units}' is not an amount or a rate`));
        continue;
      }
      pending.push({ tagged: t, variable: m.variable, spec: m.spec, rule, startMs: explicitStart(f), convention: accumulationConvention(opts.model, t.file) });
      continue;
    }
    if (rule.kind !== 'value') {
      out.skipped.push(skip(t, `${m.variable}: '${m.units}' is an amount, expected an instantaneous value`));
      continue;
    }
    if (emptyStatistic(f)) {
      out.skipped.push(skip(t, `${m.variable}: a ${f.stepType} over a zero-length interval (step ${f.validTime.toISOString()} = its start) holds no value: missing there`));
      continue;
    }
    out.fields.push(instantField(t, m.variable, m.spec, rule));
  }

  // Files where nothing matched: a product may still recognise their content (dem).
  if (product.fallback) {
    for (const [file, fields] of byFile) {
      if (matchedFiles.has(file)) continue;
      const fb = product.fallback(fields.map((t) => t.field));
      if (!fb) continue;
      const spec = product.variables[fb.variable]!;
      const t = fields.find((x) => x.field === fb.field)!;
      const rule = unitRule(fb.field.units, spec.units) ?? { kind: 'value' as const, scale: 1, offset: 0 };
      if (rule.kind !== 'value') continue;
      out.skipped = out.skipped.filter((s) => !(s.file === file && s.name === skip(t, '').name));
      out.fields.push(instantField(t, fb.variable, spec, rule));
      out.notes.push(`${file}: ${fb.note}`);
    }
  }

  const steps = stepFields(pending);
  out.fields.push(...steps.fields);
  out.notes.push(...steps.notes);
  return out;
}

function pushTo<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

function skip(t: TaggedField, reason: string): SkippedField {
  const f = t.field;
  const name = f.level ? `${f.name}@${f.level.type}:${f.level.value}` : f.name;
  return { file: t.file, name, units: f.units, reason };
}

function explicitStart(f: SourceField): number | null {
  if (f.intervalStart) return f.intervalStart.getTime();
  // GRIB accumulations and averages without an explicit start run from the reference time.
  if ((f.stepType === 'accum' || f.stepType === 'avg') && f.referenceTime.getTime() < f.validTime.getTime()) {
    return f.referenceTime.getTime();
  }
  return null;
}

/**
 * A maximum, minimum, mean or accumulation over a zero-length interval:
 * DWD ICON's VMAX_10M and TOT_PREC at step 0 are encoded so, filled with
 * zeros (nothing has been computed yet). Stored, the gust would read 0 m/s
 * at the run's first hour; dropped, that step is missing (null).
 */
function emptyStatistic(f: SourceField): boolean {
  return f.stepType !== 'instant' && f.intervalStart !== undefined && f.intervalStart.getTime() === f.validTime.getTime();
}

function instantField(t: TaggedField, variable: string, spec: VariableSpec, rule: { scale: number; offset: number }): CanonicalField {
  const values = applyValueRule(t.field.values, rule);
  clampToSpec(values, spec);
  return {
    variable,
    aggregation: spec.aggregation,
    validTime: t.field.validTime,
    referenceTime: t.field.referenceTime,
    grid: t.field.grid,
    values,
    file: t.file,
    source: t.field.name,
    ...(t.field.vectorAxes ? { vectorAxes: t.field.vectorAxes } : {}),
    ...meanInterval(t.field),
    ...(t.field.timeless ? { timeless: true as const } : {}),
  };
}

/**
 * A state given as its mean over more than an hour (a daily file's t2m): the
 * interval, so that it is read as one. Hourly means of a state (Copernicus
 * Marine's hourly SST) are read as values at their time stamps.
 */
function meanInterval(f: SourceField): { interval?: CanonicalField['interval'] } {
  if (f.stepType !== 'avg' || f.intervalStart === undefined) return {};
  const seconds = (f.validTime.getTime() - f.intervalStart.getTime()) / 1000;
  return seconds > 3600 ? { interval: { statistic: 'mean', seconds } } : {};
}

/** Apply validRange (outside → NaN) and min (below → min). */
export function clampToSpec(values: Float32Array, spec: VariableSpec): void {
  const range = spec.validRange;
  const min = spec.min;
  if (!range && min === undefined) return;
  for (let i = 0; i < values.length; i++) {
    const v = values[i]!;
    if (range && (v < range[0] || v > range[1])) values[i] = NaN;
    else if (min !== undefined && v < min) values[i] = min;
  }
}

/** Group pending amount/mean fields into series, resolve intervals, de-accumulate. */
function stepFields(pending: readonly Pending[]): { fields: CanonicalField[]; notes: string[] } {
  const series = new Map<string, Pending[]>();
  for (const p of pending) {
    const f = p.tagged.field;
    const level = f.level ? `${f.level.type}:${f.level.value}` : '';
    // Explicit intervals belong to a run (files of one run may split it, one step per file);
    // inferred ones to the series of one file.
    const owner = p.startMs !== null ? `run:${f.referenceTime.getTime()}` : `file:${p.tagged.file}`;
    const key = `${p.variable}|${f.name}|${level}|${owner}|${JSON.stringify(f.grid)}`;
    pushTo(series, key, p);
  }
  const out: CanonicalField[] = [];
  const notes: string[] = [];
  for (const members of series.values()) {
    const times = members.map((p) => p.tagged.field.validTime.getTime());
    const inferred = inferIntervalStarts(times);
    const points: AccumPoint<Pending>[] = members.map((p, k) => {
      const f = p.tagged.field;
      const startMs = p.startMs ?? conventionStart(p.convention, times[k]!) ?? inferred[k]!;
      const seconds = (f.validTime.getTime() - startMs) / 1000;
      const scale = p.rule.kind === 'amount' ? p.rule.scale : p.rule.scale * seconds;
      return { validTime: f.validTime, intervalStart: new Date(startMs), amount: applyValueRule(f.values, { scale, offset: 0 }), meta: p };
    });
    const spacing = minSpacingMs(times);
    const unknown: string[] = [];
    for (const s of deaccumulate(points)) {
      const p = s.meta;
      const seconds = (s.validTime.getTime() - s.stepStart.getTime()) / 1000;
      // A total since 00 UTC with no earlier time of that day in the file: its last step's amount is unknown.
      if (p.startMs === null && p.convention === 'since-00utc' && seconds * 1000 > spacing) {
        unknown.push(s.validTime.toISOString());
        continue;
      }
      const values = s.amount;
      if (p.spec.aggregation === 'mean') for (let i = 0; i < values.length; i++) values[i] = values[i]! / seconds;
      clampToSpec(values, p.spec);
      out.push({
        variable: p.variable,
        aggregation: p.spec.aggregation,
        validTime: s.validTime,
        referenceTime: p.tagged.field.referenceTime,
        grid: p.tagged.field.grid,
        values,
        file: p.tagged.file,
        source: p.tagged.field.name,
        stepSeconds: seconds,
        interval: { statistic: p.spec.aggregation === 'amount' ? 'sum' : 'mean', seconds },
        ...(p.tagged.field.timeless ? { timeless: true as const } : {}),
      });
    }
    if (unknown.length > 0) {
      const p = members[0]!;
      notes.push(`${p.tagged.file}: ${p.tagged.field.name} is a total since 00 UTC (ERA5-Land); at ${unknown.join(', ')} no earlier time of that day is in the file, so the last step's amount is unknown and left missing`);
    }
  }
  return { fields: out, notes };
}

/** Smallest gap between distinct times, ms (Infinity for fewer than two). */
function minSpacingMs(timesMs: readonly number[]): number {
  const sorted = [...new Set(timesMs)].sort((a, b) => a - b);
  let min = Infinity;
  for (let k = 1; k < sorted.length; k++) min = Math.min(min, sorted[k]! - sorted[k - 1]!);
  return min;
}
