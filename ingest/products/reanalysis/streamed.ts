/**
 * A reanalysis ingest that never holds its whole series: files are taken one
 * at a time, in the order given (the CDS delivers a year as months), each
 * mapped, checked, split by year, completed and given its indices as the
 * whole-year path (../../pipeline.ts, ./years.ts) does, and its year parts
 * appended to spill files on disk (tiles/write/plane-spill.ts). When the
 * last file is in, the gate judges what was counted of every value
 * (ingest/gate/value-tallies.ts) with the metadata of every field, and only
 * then is each year written from its spill and published, atomically, as
 * before. An ERA5 year of Italy holds 13 variables × 8,761 steps × 3,819
 * cells as float32 (1.74 GB); here one month at a time is in memory.
 *
 * It gives the stores the whole-year path gives, value for value, only when
 * the files split the series cleanly; otherwise it stages nothing more,
 * discards what it staged and answers null, and the caller runs the
 * whole-year path (the files are read again). Clean means: each file maps
 * to fields on one and the same grid, none dropped; each file's times come
 * after the previous file's; static fields (orography) only in the files
 * before the first one with times (the CDS's time-invariant request comes as
 * a file of its own, or with the first month); every file with times gives
 * the same variables with the same metadata; no amount of a forecast run
 * reaching back into the previous file (the whole-year path would
 * de-accumulate it against that file's steps; ERA5's hourly amounts, each
 * over its own hour, never do); no file but the last ending on a year's
 * first hour alone (it may close the year before or open its own); no year
 * already published (the merge with it reads the whole published year); no
 * masked variables.
 */
import { basename } from 'node:path';
import { sameGrid, type GridDef } from '../../../geo/grid.js';
import type { ProductVersionInput, PublishResult, VariableInput } from '../../../tiles/types.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { assembleStack, toWriterInput } from '../../assemble.js';
import { deriveIndices } from '../../indices/derive-indices.js';
import { IngestError, type IngestRequest } from '../../ingest-types.js';
import type { IngestReport } from '../../ingest-report.js';
import { describeGrid, selectGrid } from '../../mapping/grid-choice.js';
import { mapFields, type CanonicalField, type TaggedField } from '../../mapping/map-fields.js';
import { rotateVectorsToTrueNorth } from '../../mapping/wind-rotation.js';
import type { Domain } from '../../mapping/domain.js';
import { productMeta, runOrderSource } from '../store-meta.js';
import { readFile } from '../../readers.js';
import { runGate, type GateOverride } from '../../gate/gate.js';
import type { CheckName } from '../../gate/check.js';
import { sourceSeries, type SourceSeries } from '../../gate/source-series.js';
import { emptyTallies, tallyPart } from '../../gate/value-tallies.js';
import type { Product } from '../product.js';
import { completeMerged, FIRST_YEAR, splitByYear } from './years.js';
import { seamDrop } from './seam.js';
import { closeStagedYear, metaKey, openStagedYear, YearPublished, type StagedYear } from './staged-year.js';

/** The files do not split the series cleanly: the whole-year path must run (nothing was published). */
class NotStreamable extends Error {}

export interface StreamOptions {
  product: Product;
  domain: Domain;
  allow: readonly CheckName[];
  model: string | undefined;
  progress: (stage: 'read' | 'derive' | 'write' | 'publish', fraction: number, message?: string) => void;
}

/** The ingest of `req` file by file, published; null when the files do not split cleanly (nothing published, nothing left staged). */
export async function ingestStreamed(req: IngestRequest, opts: StreamOptions): Promise<IngestReport | null> {
  const { product } = opts;
  if (product.layout !== 'periods' || product.derivesIndices || req.files.length < 2) return null;
  if (Object.values(product.variables).some((s) => s.mask !== 'any')) return null;
  const run = new StreamedRun(req, opts);
  try {
    return await run.run();
  } catch (e) {
    await run.discard();
    if (e instanceof NotStreamable || e instanceof YearPublished) return null;
    throw e;
  }
}

class StreamedRun {
  private readonly years = new Map<number, StagedYear>();
  /** Years with a time other than 1 January 00 UTC staged (./years.ts splitByYear). */
  private readonly fullYears = new Set<number>();
  private readonly fieldsMeta: CanonicalField[] = [];
  private readonly series: SourceSeries[] = [];
  private readonly tallies = emptyTallies();
  private readonly notes = new Set<string>();
  private readonly skipped: IngestReport['skipped'] = [];
  private readonly runs = new Set<number>();
  private grid: GridDef | null = null;
  /** The static fields, from the files before the first one with times. */
  private statics = new Map<string, Float32Array>();
  private variablesKey: string | null = null;
  private lastMs = -Infinity;
  private newestRun = -Infinity;
  private timesCount = 0;
  private firstMs = NaN;
  private variableNames: string[] = [];
  /** The variables the gate judges (the files' own and what `complete` derives; the indices come after it, as in the whole-year path), values not kept. */
  private gateVariables: Record<string, VariableInput> = {};
  /** The last part's indices and spill appends, under way while the next file is read and mapped ({@link settle}). */
  private pending: Promise<void> | null = null;

  constructor(
    private readonly req: IngestRequest,
    private readonly opts: StreamOptions,
  ) {}

  async run(): Promise<IngestReport> {
    const { req, opts } = this;
    const { product } = opts;
    const box = [opts.domain.lonMin, opts.domain.latMin, opts.domain.lonMax, opts.domain.latMax] as const;
    const names = req.files.map((f) => basename(f));
    for (const [i, file] of req.files.entries()) {
      req.signal?.throwIfAborted();
      opts.progress('read', 0.65 * (i / req.files.length), `reading ${basename(file)} (${i + 1}/${req.files.length}), staging it`);
      const fields = await readFile(file, { box });
      this.series.push(...sourceSeries(file, fields));
      await this.stageFile(file, fields.map((field) => ({ field, file })), i === req.files.length - 1);
    }
    await this.settle();
    req.signal?.throwIfAborted();
    if (this.timesCount === 0) throw new NotStreamable('no file with times');
    const source = {
      files: names,
      ...(opts.model ? { model: opts.model } : {}),
      ...(req.source?.run ? { run: req.source.run } : Number.isFinite(this.newestRun) ? { run: new Date(this.newestRun).toISOString() } : {}),
      ...(req.source?.sample ? { sample: true } : {}),
      ...(req.source?.note ? { note: req.source.note } : {}),
      ...runOrderSource(product),
    };

    // The gate, on every value counted and every field's metadata, before anything goes live.
    const skeleton: ProductVersionInput = {
      product: product.name, grid: this.grid!, times: [], source,
      variables: this.gateVariables,
    };
    const overrides: GateOverride[] = await runGate(
      { product, input: skeleton, fields: this.fieldsMeta, series: this.series, root: req.root, nowMs: Date.now(), tallies: this.tallies },
      req.files, opts.allow,
    );
    const finalSource = overrides.length > 0 ? { ...source, gate_overrides: overrides } : source;

    const results: PublishResult[] = [];
    const staged = [...this.years.values()].sort((a, b) => a.year - b.year);
    for (const [k, y] of staged.entries()) {
      req.signal?.throwIfAborted();
      opts.progress('write', 0.65 + 0.35 * (k / staged.length), `writing ${product.name}/${y.year} (${k + 1}/${staged.length})`);
      const input: ProductVersionInput = {
        product: product.name, grid: this.grid!, times: y.times, variables: y.variables, source: finalSource,
        meta: { ...productMeta(product), layout: 'periods', period: String(y.year) },
      };
      results.push(await writeProductVersion(req.root, input, { planes: Object.fromEntries(y.spills) }));
      await this.closeYear(y);
    }
    const last = results[results.length - 1]!;
    return {
      product: product.name,
      version: last.version,
      periods: results.map((r) => ({ period: r.manifest.period!, version: r.version, from: r.manifest.coverage!.from, to: r.manifest.coverage!.to, times: r.manifest.times.length })),
      ...(overrides.length > 0 ? { gateOverrides: overrides } : {}),
      ...(this.timesCount > 0 ? { from: new Date(this.firstMs).toISOString(), to: new Date(this.lastMs).toISOString() } : {}),
      times: this.timesCount,
      variables: [...this.variableNames].sort(),
      published: last.manifest.published,
      grid: this.grid!,
      gridDescription: describeGrid(this.grid!),
      files: names,
      dropped: [],
      skipped: this.skipped,
      notes: [...this.notes],
    };
  }

  /** One file: map, check that it continues the series cleanly, count it for the gate, stage its year parts. */
  private async stageFile(file: string, tagged: TaggedField[], lastFile: boolean): Promise<void> {
    const { product } = this.opts;
    // No time staged yet: this file opens the series (its statics count, its first interval's start is on the axis).
    const first = this.timesCount === 0;
    const mapped = mapFields(product, tagged, this.opts.model ? { model: this.opts.model } : {});
    tagged.length = 0;
    this.skipped.push(...mapped.skipped);
    if (mapped.fields.length === 0) throw new NotStreamable(`${file}: nothing mapped`);
    const ownRuns = new Set<number>();
    for (const f of mapped.fields) {
      const r = f.referenceTime.getTime();
      if (r === f.validTime.getTime()) continue;
      // The whole-year path de-accumulates a run's amounts across files: one starting before this file's own steps needs the earlier file's.
      if (this.runs.has(r) && f.stepSeconds !== undefined && f.validTime.getTime() - f.stepSeconds * 1000 < this.lastMs) {
        throw new NotStreamable(`${file}: an amount of a run of an earlier file reaches back into it`);
      }
      ownRuns.add(r);
    }
    for (const r of ownRuns) this.runs.add(r);
    mapped.notes.push(...rotateVectorsToTrueNorth(product, mapped.fields));
    let selection;
    try {
      // As the whole-year path chooses it (../../pipeline.ts).
      const nearest = new Set(Object.entries(product.variables).filter(([, v]) => v.interpolation === 'nearest').map(([n]) => n));
      selection = selectGrid(mapped.fields, this.opts.domain, product.resampleOtherGrids ? { nearest } : undefined);
    } catch (e) {
      if (e instanceof IngestError) throw new NotStreamable(e.message);
      throw e;
    }
    if (selection.dropped.length > 0 || (this.grid && !sameGrid(this.grid, selection.grid))) throw new NotStreamable(`${file}: another grid`);
    this.grid = selection.grid;
    for (const f of selection.fields) this.newestRun = Math.max(this.newestRun, f.referenceTime.getTime());
    const stack = assembleStack(product, selection.grid, selection.fields, { continues: !first });
    if (!first && stack.statics.size > 0) throw new NotStreamable(`${file}: static fields after the first file with times`);
    if (first) {
      // Given twice, the whole-year path would keep the newer: not worth telling apart here.
      for (const n of stack.statics.keys()) if (this.statics.has(n)) throw new NotStreamable(`${file}: ${n} in two files`);
      for (const [n, v] of this.statics) stack.statics.set(n, v);
      this.statics = stack.statics;
    } else for (const [n, v] of this.statics) stack.statics.set(n, v);
    if (stack.times.length === 0 && stack.series.size === 0) {
      // Time-invariant fields only (the CDS's request for geopotential): the statics of the files that follow.
      for (const n of [...mapped.notes, ...(selection.notes ?? [])]) this.notes.add(n);
      for (const f of selection.fields) this.fieldsMeta.push({ ...f, values: new Float32Array(0) });
      return;
    }
    if (stack.times.length === 0 || stack.times[0]!.getTime() <= this.lastMs) throw new NotStreamable(`${file}: times not after the previous file's`);
    const notes = [...mapped.notes, ...(selection.notes ?? []), ...product.complete(stack)];
    try {
      product.validate(stack, this.req.files);
    } catch (e) {
      if (e instanceof IngestError) throw new NotStreamable(e.message);
      throw e;
    }
    // The metadata the gate's time checks read; the values are counted below and dropped.
    for (const f of selection.fields) this.fieldsMeta.push({ ...f, values: new Float32Array(0) });

    const input = toWriterInput(product, stack, { files: [] });
    const key = Object.entries(input.variables).map(([n, v]) => `${n}:${metaKey(v)}`).join('|');
    if (this.variablesKey !== null && key !== this.variablesKey) throw new NotStreamable(`${file}: other variables than the first file`);
    this.variablesKey = key;
    this.variableNames = Object.keys(input.variables);
    if (first) this.gateVariables = Object.fromEntries(Object.entries(input.variables).map(([n, v]) => [n, v.static ? v : { ...v, values: [] }]));
    tallyPart(product, input, this.tallies, first);
    if (first) this.firstMs = input.times[0]!.getTime();
    this.timesCount += input.times.length;
    this.lastMs = input.times[input.times.length - 1]!.getTime();

    // The previous part's indices (computed while this file was read and mapped) are in: the years and notes as before.
    await this.settle();
    for (const n of notes) this.notes.add(n);
    const parts = splitByYear(input, this.fullYears);
    for (const [y, part] of parts) {
      if (!lastFile && part.times.every(isNewYear) && !this.fullYears.has(y)) throw new NotStreamable(`${file}: ends on the first hour of ${y} alone`);
    }
    const early = [...parts.keys()].filter((y) => y < FIRST_YEAR);
    // The whole-year path says why (its gate first, then ./years.ts).
    if (early.length > 0) throw new NotStreamable(`years before ${FIRST_YEAR}`);
    const inputMs = input.times.map((t) => t.getTime());
    for (const [y, part] of parts) {
      // Another source's year next to this one: its steps across the boundary are dropped there (./seam.ts).
      const seam = this.years.has(y) ? null : await seamDrop(this.req.root, product.name, y, part, this.opts.model ?? '', inputMs);
      if (seam) {
        this.notes.add(seam);
        continue;
      }
      this.opts.progress('derive', 0.65 * ((this.req.files.indexOf(file) + 0.5) / this.req.files.length), `deriving ${product.name}/${y}`);
      await this.stagePart(y, part);
      if (!part.times.every(isNewYear)) this.fullYears.add(y);
    }
  }

  /**
   * A year's part: completed and given its indices as a merged year is (./years.ts), appended to the year's spills.
   * The indices run on their threads while the calling thread goes on to read and map the next file: the rest
   * of the part is {@link pending}, awaited ({@link settle}) before the next part, the gate, or a discard.
   */
  private async stagePart(year: number, part: ProductVersionInput): Promise<void> {
    await this.settle();
    const { product } = this.opts;
    const y = this.years.get(year);
    const previousMs = y ? y.times[y.times.length - 1]!.getTime() : undefined;
    for (const n of completeMerged(product, part)) this.notes.add(n);
    const indices = deriveIndices(
      { grid: part.grid, times: part.times, variables: part.variables, ...(previousMs !== undefined ? { previousMs } : {}) },
      { ...(this.req.signal ? { signal: this.req.signal } : {}), onNote: (m) => this.notes.add(m) },
    );
    const pending = this.finishPart(year, part, indices);
    // Its failure is thrown by settle(); until then it must not count as unhandled.
    pending.catch(() => undefined);
    this.pending = pending;
  }

  /** The previous part's indices appended, its failure thrown. */
  private async settle(): Promise<void> {
    const p = this.pending;
    this.pending = null;
    if (p) await p;
  }

  private async finishPart(year: number, part: ProductVersionInput, pending: Promise<Record<string, VariableInput>>): Promise<void> {
    const indices = await pending;
    let y = this.years.get(year);
    Object.assign(part.variables, indices);
    if (Object.keys(indices).length) this.notes.add(`${year}: indices ${Object.keys(indices).sort().join(', ')}`);
    if (!y) y = await this.openYear(year, part);
    for (const [name, v] of Object.entries(part.variables)) {
      const had = y.variables[name];
      if (!had || metaKey(had) !== metaKey({ ...v, values: v.static ? v.values : [] })) throw new NotStreamable(`${year}: ${name} differs between files`);
      if (!v.static) y.spills.get(name)!.append(v.values);
    }
    if (Object.keys(part.variables).length !== Object.keys(y.variables).length) throw new NotStreamable(`${year}: other variables`);
    y.times.push(...part.times);
  }

  private async openYear(year: number, part: ProductVersionInput): Promise<StagedYear> {
    const y = await openStagedYear(this.req.root, this.opts.product, year, part);
    this.years.set(year, y);
    return y;
  }

  private async closeYear(y: StagedYear): Promise<void> {
    await closeStagedYear(y);
    this.years.delete(y.year);
  }

  /** Remove every spill and release every lock (nothing of this run is published after this). */
  async discard(): Promise<void> {
    await this.settle().catch(() => undefined);
    for (const y of [...this.years.values()]) await this.closeYear(y);
  }
}

function isNewYear(t: Date): boolean {
  return t.getUTCMonth() === 0 && t.getUTCDate() === 1 && t.getTime() % 86_400_000 === 0;
}
