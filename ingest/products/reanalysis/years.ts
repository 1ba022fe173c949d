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
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { HISTORY_START_YEAR } from '../../../tiles/history-start.js';
import { IngestError } from '../../ingest-types.js';
import { deriveIndices } from '../../indices/derive-indices.js';
import type { Product } from '../product.js';

/** Earliest year the service answers from reanalysis (docs/history.md). */
export const FIRST_YEAR = HISTORY_START_YEAR;

/** The part of `input` in each UTC year, years ascending (statics go to every year). */
export function splitByYear(input: ProductVersionInput): Map<number, ProductVersionInput> {
  const idx = new Map<number, number[]>();
  input.times.forEach((t, k) => {
    const y = t.getUTCFullYear();
    let l = idx.get(y);
    if (!l) idx.set(y, (l = []));
    l.push(k);
  });
  const out = new Map<number, ProductVersionInput>();
  for (const [year, ks] of [...idx].sort((a, b) => a[0] - b[0])) {
    const variables: Record<string, VariableInput> = {};
    for (const [name, v] of Object.entries(input.variables)) variables[name] = v.static ? v : { ...v, values: ks.map((k) => v.values[k]!) };
    out.set(year, { ...input, times: ks.map((k) => input.times[k]!), variables, meta: { ...input.meta, layout: 'periods', period: String(year) } });
  }
  return out;
}

/** `year` merged with its live version (in place); a note, or null when nothing was published for it. */
export async function mergeWithPublished(root: string, product: Product, year: ProductVersionInput): Promise<string | null> {
  const key = `${product.name}/${year.meta!.period}`;
  const prev = openLiveVersion(root, key);
  if (!prev) return null;
  const m = prev.manifest;
  if (!sameGrid(m.grid, year.grid)) {
    throw new IngestError(`${key} is published on another grid (${describeGrid(m.grid)}; these files: ${describeGrid(year.grid)}): one year holds one grid`);
  }
  const oldModel = m.source.model ?? '';
  const newModel = year.source.model ?? '';
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
    const oldValues = old ? await readFieldSteps(prev, name, oldTimes.map((_, k) => k)) : null;
    variables[name] = {
      ...(fresh ?? metaOf(spec)),
      values: all.map((t) => {
        const n = newAt.get(t);
        if (fresh && n !== undefined) return fresh.values[n]!;
        const o = oldAt.get(t);
        return oldValues && o !== undefined ? oldValues[o]! : nan();
      }),
    };
  }
  year.variables = variables;
  year.times = all.map((t) => new Date(t));
  year.source = { ...year.source, files: [...new Set([...m.source.files, ...year.source.files])] };
  return `${key}: merged with ${m.version} (${oldTimes.length} time(s), ${Object.keys(m.variables).length} variable(s))`;
}

function metaOf(spec: Product['variables'][string]): Omit<VariableInput, 'values'> {
  return {
    units: spec.units, precision: spec.precision, longName: spec.longName, ...(spec.standardName ? { standardName: spec.standardName } : {}),
    interpolation: spec.interpolation, mask: spec.mask, block: spec.block,
  };
}

/**
 * Publish every year of `input`: merge, derive what the merge makes derivable
 * (dew point once temperature and humidity meet, the precomputed indices),
 * write. One lock per year.
 */
export async function publishYears(
  root: string,
  product: Product,
  input: ProductVersionInput,
  opts: { signal?: AbortSignal; onYear?: (year: number, k: number, n: number) => void } = {},
): Promise<{ results: PublishResult[]; notes: string[] }> {
  const years = splitByYear(input);
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
      const note = await mergeWithPublished(root, product, year);
      if (note) notes.push(note);
      notes.push(...completeMerged(product, year));
      // The Developer indices (UTCI, WBGT, UV, frost, ET0) precomputed on the merged year, as for the forecast:
      // the API reads them from the same store as the base fields. Only those whose inputs the year holds.
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
function completeMerged(product: Product, year: ProductVersionInput): string[] {
  const series = new Map<string, Float32Array[]>();
  const statics = new Map<string, Float32Array>();
  for (const [name, v] of Object.entries(year.variables)) (v.static ? statics.set(name, v.values[0]!) : series.set(name, v.values));
  const before = new Set(series.keys());
  const notes = product.complete({ grid: year.grid, times: year.times, series, statics });
  for (const [name, values] of series) {
    if (before.has(name)) continue;
    const spec = product.variables[name];
    if (spec) year.variables[name] = { ...metaOf(spec), values };
  }
  return notes.map((n) => `${year.meta!.period}: ${n}`);
}
