/**
 * A reanalysis ingest publishes per UTC year: the files' times are split by
 * year, and each year is merged with the version already published for it
 * (same grid and source), so files of one year holding different variables
 * (20CRv3 ships one file per variable per year) or different months build
 * one store. New values win where both have the time; a variable only the
 * old version has keeps its values, NaN at times only the new files bring.
 * Each year is published on its own (tiles/write/writer.ts: atomic), under a lock
 * on the year's directory so that two ingests of one year never lose each
 * other's variables.
 */
import { mkdirSync } from 'node:fs';
import lockfile from 'proper-lockfile';
import { productDir } from '../../../config/paths.js';
import { describeGrid } from '../../mapping/grid-choice.js';
import { sameGrid } from '../../../geo/grid.js';
import { openLiveVersion, readFieldSteps } from '../../../tiles/read/field-reader.js';
import type { ProductVersionInput, PublishResult, VariableInput } from '../../../tiles/types.js';
import type { TimeInterval } from '../../../tiles/manifest.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { HISTORY_START_YEAR } from '../../../tiles/history-start.js';
import { IngestError } from '../../ingest-types.js';
import { deriveIndices } from '../../indices/derive-indices.js';
import type { Product } from '../product.js';
import { isSeamOnly, seamDrop, seamReplacedNote } from './seam.js';

/** Earliest year the service answers from reanalysis (docs/history.md). */
export const FIRST_YEAR = HISTORY_START_YEAR;

/**
 * The part of `input` in each UTC year, years ascending (statics go to every
 * year). A time at 1 January 00 UTC also closes the year before when the
 * input has times in it: an amount or mean stored there covers the end of
 * that year (a daily file's 31 December), which is asked of that year's store.
 * `earlier`: years that hold times other than 1 January 00 UTC in earlier
 * parts of the same series (a streamed ingest, ./streamed.ts).
 */
export function splitByYear(input: ProductVersionInput, earlier: ReadonlySet<number> = new Set()): Map<number, ProductVersionInput> {
  const idx = new Map<number, number[]>();
  const add = (y: number, k: number) => {
    let l = idx.get(y);
    if (!l) idx.set(y, (l = []));
    l.push(k);
  };
  const years = new Set([...earlier, ...input.times.map((t) => t.getUTCFullYear())]);
  const onlyBoundary = new Map<number, boolean>([...earlier].map((y) => [y, false]));
  input.times.forEach((t) => {
    const y = t.getUTCFullYear();
    onlyBoundary.set(y, (onlyBoundary.get(y) ?? true) && isNewYear(t));
  });
  input.times.forEach((t, k) => {
    const y = t.getUTCFullYear();
    const closes = isNewYear(t) && years.has(y - 1) && !onlyBoundary.get(y - 1);
    if (closes) add(y - 1, k);
    // Alone in its year, the boundary only closes the year before.
    if (!closes || !onlyBoundary.get(y)) add(y, k);
  });
  const out = new Map<number, ProductVersionInput>();
  for (const [year, ks] of [...idx].sort((a, b) => a[0] - b[0])) {
    const variables: Record<string, VariableInput> = {};
    for (const [name, v] of Object.entries(input.variables)) variables[name] = v.static ? v : { ...v, values: ks.map((k) => v.values[k]!) };
    out.set(year, { ...input, times: ks.map((k) => input.times[k]!), variables, meta: { ...input.meta, layout: 'periods', period: String(year) } });
  }
  return out;
}

function isNewYear(t: Date): boolean {
  return t.getUTCMonth() === 0 && t.getUTCDate() === 1 && t.getTime() % 86_400_000 === 0;
}

/** `year` merged with its live version (in place); a note, or null when nothing was published for it. */
export async function mergeWithPublished(root: string, product: Product, year: ProductVersionInput): Promise<string | null> {
  const key = `${product.name}/${year.meta!.period}`;
  const prev = await openLiveVersion(root, key);
  if (!prev) return null;
  const m = prev.manifest;
  const oldModel = m.source.model ?? '';
  const newModel = year.source.model ?? '';
  // Published from another source's steps across the boundary alone (./seam.ts): the year's own files replace them.
  if ((!sameGrid(m.grid, year.grid) || oldModel !== newModel) && isSeamOnly(Number(year.meta!.period), [...prev.state.timesMs])) {
    return seamReplacedNote(key, oldModel, [...prev.state.timesMs], newModel);
  }
  if (!sameGrid(m.grid, year.grid)) {
    throw new IngestError(`${key} is published on another grid (${describeGrid(m.grid)}; these files: ${describeGrid(year.grid)}): one year holds one grid`);
  }
  if (oldModel !== newModel) throw new IngestError(`${key} holds ${oldModel || 'an unnamed source'}, these files ${newModel || 'an unnamed source'}: one year holds one source`);

  const oldTimes = [...prev.state.timesMs];
  const all = [...new Set([...oldTimes, ...year.times.map((t) => t.getTime())])].sort((a, b) => a - b);
  const newAt = new Map(year.times.map((t, k) => [t.getTime(), k]));
  const oldAt = new Map(oldTimes.map((t, k) => [t, k]));
  const cells = year.grid.nx * year.grid.ny;
  const nan = () => new Float32Array(cells).fill(NaN);
  const names = new Set([...Object.keys(year.variables), ...Object.keys(m.variables)]);
  const variables: Record<string, VariableInput> = {};
  for (const name of names) {
    const spec = product.variables[name];
    if (!spec) continue; // no longer in the catalogue
    const fresh = year.variables[name];
    const old = prev.state.vars.get(name);
    if (old?.isStatic || fresh?.static) {
      variables[name] = fresh ?? { ...metaOf(spec), static: true, values: await readFieldSteps(prev, name, [0]) };
      continue;
    }
    const oldInterval = m.variables[name]?.interval;
    if (fresh && old && !sameInterval(fresh.interval, oldInterval)) {
      throw new IngestError(`${key}: ${name} is published as ${describeInterval(oldInterval)}, these files give ${describeInterval(fresh.interval)}: one year holds one time meaning per variable`);
    }
    const oldValues = old ? await readFieldSteps(prev, name, oldTimes.map((_, k) => k)) : null;
    variables[name] = {
      ...(fresh ?? { ...metaOf(spec), ...(oldInterval ? { interval: oldInterval } : {}) }),
      values: all.map((t) => {
        const n = newAt.get(t);
        const o = oldAt.get(t);
        // A step the new files leave empty (the start of their first interval) keeps what was published there.
        if (fresh && n !== undefined && !(allMissing(fresh.values[n]!) && oldValues && o !== undefined)) return fresh.values[n]!;
        return oldValues && o !== undefined ? oldValues[o]! : nan();
      }),
    };
  }
  year.variables = variables;
  year.times = all.map((t) => new Date(t));
  year.source = { ...year.source, files: [...new Set([...m.source.files, ...year.source.files])] };
  return `${key}: merged with ${m.version} (${oldTimes.length} time(s), ${Object.keys(m.variables).length} variable(s))`;
}

function allMissing(values: Float32Array): boolean {
  for (let i = 0; i < values.length; i++) if (values[i] === values[i]) return false;
  return true;
}

function sameInterval(a: TimeInterval | undefined, b: TimeInterval | undefined): boolean {
  return a?.statistic === b?.statistic && a?.seconds === b?.seconds;
}

function describeInterval(i: TimeInterval | undefined): string {
  if (!i) return 'instantaneous values';
  return `the ${i.statistic} over ${i.seconds !== undefined ? `${i.seconds / 3600} h` : 'each step'}`;
}

export function metaOf(spec: Product['variables'][string]): Omit<VariableInput, 'values'> {
  return {
    units: spec.units, precision: spec.precision, longName: spec.longName, ...(spec.standardName ? { standardName: spec.standardName } : {}),
    interpolation: spec.interpolation, mask: spec.mask, block: spec.block,
  };
}

/**
 * Publish every year of `input`: merge, derive what the merge makes derivable
 * (dew point once temperature and humidity meet, the precomputed index),
 * write. One lock per year.
 */
export async function publishYears(
  root: string,
  product: Product,
  input: ProductVersionInput,
  opts: { signal?: AbortSignal; onYear?: (year: number, k: number, n: number) => void } = {},
): Promise<{ results: PublishResult[]; notes: string[] }> {
  const years = splitByYear(input);
  const inputMs = input.times.map((t) => t.getTime());
  const early = [...years.keys()].filter((y) => y < FIRST_YEAR);
  if (early.length > 0) throw new IngestError(`${product.name}: times before ${FIRST_YEAR} are not served (years ${early.join(', ')})`);
  const results: PublishResult[] = [];
  const notes: string[] = [];
  let k = 0;
  for (const [y, year] of years) {
    opts.signal?.throwIfAborted();
    opts.onYear?.(y, k++, years.size);
    const dir = productDir(root, `${product.name}/${y}`);
    mkdirSync(dir, { recursive: true });
    const release = await lockfile.lock(dir, { retries: { retries: 600, minTimeout: 200, maxTimeout: 2000 }, stale: 60_000, realpath: false });
    try {
      // Steps another source brings across the boundary into a year it does not hold: dropped there, with a warning.
      const seam = await seamDrop(root, product.name, y, year, year.source.model ?? '', inputMs);
      if (seam) {
        notes.push(seam);
        continue;
      }
      const note = await mergeWithPublished(root, product, year);
      if (note) notes.push(note);
      notes.push(...completeMerged(product, year));
      // The stored index (Tmrt) on the merged year, as for the forecast: the API reads it from the same store
      // as the base fields. Only when the year holds its inputs.
      const indices = await deriveIndices({ grid: year.grid, times: year.times, variables: year.variables }, { ...(opts.signal ? { signal: opts.signal } : {}), onNote: (m) => notes.push(m) });
      Object.assign(year.variables, indices);
      if (Object.keys(indices).length) notes.push(`${year.meta!.period}: indices ${Object.keys(indices).sort().join(', ')}`);
      results.push(await writeProductVersion(root, year));
    } finally {
      await release();
    }
  }
  return { results, notes };
}

/** Run the product's derivations over a merged year (they only fill what is absent). */
export function completeMerged(product: Product, year: ProductVersionInput): string[] {
  const series = new Map<string, Float32Array[]>();
  const statics = new Map<string, Float32Array>();
  for (const [name, v] of Object.entries(year.variables)) (v.static ? statics.set(name, v.values[0]!) : series.set(name, v.values));
  const before = new Set(series.keys());
  const notes = product.complete({ grid: year.grid, times: year.times, series, statics });
  // Derived from states given as means (a dew point from daily means): such a mean too.
  const states = [...before].filter((n) => product.variables[n]?.aggregation === 'instant').map((n) => year.variables[n]!.interval);
  const shared = states.length > 0 && states.every((i) => i !== undefined && sameInterval(i, states[0])) ? states[0] : undefined;
  for (const [name, values] of series) {
    if (before.has(name)) continue;
    const spec = product.variables[name];
    if (spec) year.variables[name] = { ...metaOf(spec), values, ...(shared && spec.aggregation === 'instant' ? { interval: shared } : {}) };
  }
  return notes.map((n) => `${year.meta!.period}: ${n}`);
}
