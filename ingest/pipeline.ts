/**
 * One ingest run (ingest/ingest-types.ts): read every file → map through the
 * product (match, units, de-accumulation) → one grid, cropped to the domain →
 * time axis (newest run wins) → derived variables → the ingest gate
 * (ingest/gate/: nothing wrong goes live) → tile writer, which publishes
 * atomically. Shared by `meteopunto ingest`, `meteopunto demo` and the
 * BullMQ processor. Errors are ReadError (a file cannot be decoded) or
 * IngestError (the product cannot use what the files hold, or the gate
 * refused it: GateError), both naming files.
 */
import { basename } from 'node:path';
import { writeProductVersion } from '../tiles/write/writer.js';
import type { PublishResult } from '../tiles/types.js';
import { publishYears } from './products/reanalysis/years.js';
import { ingestStreamed } from './products/reanalysis/streamed.js';
import { assembleStack, toWriterInput } from './assemble.js';
import { deriveIndices } from './indices/derive-indices.js';
import { IngestError, type IngestProgress, type IngestRequest } from './ingest-types.js';
import type { IngestReport } from './ingest-report.js';
import { describeGrid, selectGrid } from './mapping/grid-choice.js';
import { mapFields, type TaggedField } from './mapping/map-fields.js';
import { getProduct } from './products/registry.js';
import { runOrderSource } from './products/store-meta.js';
import { readFile } from './readers.js';
import { applyMasks } from './masks.js';
import { carryOverEarlierSteps } from './carry-over.js';
import { runFollowers } from './followers.js';
import { rotateVectorsToTrueNorth } from './mapping/wind-rotation.js';
import { ingestDomain, type Domain } from './mapping/domain.js';
import { DomainConfigError } from '../config/domain.js';
import { allowedChecks, runGate } from './gate/gate.js';
import { sourceSeries, type SourceSeries } from './gate/source-series.js';

/** METEOPUNTO_DOMAIN, a malformed value reported as an IngestError (nothing published). */
function domainOrError(): Domain {
  try {
    return ingestDomain();
  } catch (e) {
    if (e instanceof DomainConfigError) throw new IngestError(e.message);
    throw e;
  }
}

/** Fractions of the whole run at which each stage starts (reading dominates). */
// Shares of a run on the sample grid: reading, the precomputed indices, writing (docs/operations.md, "Sample data").
const STAGE_START = { read: 0, derive: 0.35, write: 0.65, publish: 1 } as const;

export async function runIngest(req: IngestRequest): Promise<IngestReport> {
  const product = getProduct(req.product);
  if (product.ingest) return product.ingest(req);
  if (req.files.length === 0) throw new IngestError(`product ${product.name}: no input files given`);
  const allow = allowedChecks(req.allow);
  const domain = req.domain ?? domainOrError();
  const progress = (stage: keyof typeof STAGE_START, fraction: number, message?: string) =>
    req.onProgress?.({ stage, fraction, ...(message ? { message } : {}) } satisfies IngestProgress);

  // The source model says what its accumulations cover (ingest/mapping/time-conventions.ts).
  const model = req.source?.model ?? product.model?.(req.files);
  // A reanalysis given as files of consecutive times (the CDS's months) is staged file by file: a year never whole in memory.
  if (req.stream !== false) {
    const streamed = await ingestStreamed(req, { product, domain, allow, model, progress });
    if (streamed) return withFollowers(req, streamed, progress);
  }

  // read
  const tagged: TaggedField[] = [];
  const series: SourceSeries[] = [];
  // A GeoTIFF decodes only the pixels over the domain (a national DEM would not fit in memory whole).
  const box = [domain.lonMin, domain.latMin, domain.lonMax, domain.latMax] as const;
  for (const [i, file] of req.files.entries()) {
    req.signal?.throwIfAborted();
    progress('read', STAGE_START.derive * (i / req.files.length), `reading ${basename(file)} (${i + 1}/${req.files.length})`);
    const fields = await readFile(file, { box });
    series.push(...sourceSeries(file, fields));
    for (const field of fields) tagged.push({ field, file });
  }
  req.signal?.throwIfAborted();

  // derive: map, choose the grid, assemble the time axis, derive missing variables
  progress('derive', STAGE_START.derive, `mapping ${tagged.length} fields to product ${product.name}`);
  const seen = describeSeen(tagged);
  const mapped = mapFields(product, tagged, model ? { model } : {});
  tagged.length = 0; // the source arrays now belong to `mapped`
  const names = req.files.map((f) => basename(f));
  if (mapped.fields.length === 0) {
    const why = mapped.skipped.filter((s) => s.reason !== 'not a variable of this product').map((s) => `${s.file} ${s.name}: ${s.reason}`);
    throw new IngestError(
      `${req.files.join(', ')}: no variable product ${product.name} knows; found ${seen}` + (why.length ? ` (${why.join('; ')})` : ''),
    );
  }
  // Before any cropping or regridding: the angles belong to the source grid.
  mapped.notes.push(...rotateVectorsToTrueNorth(product, mapped.fields));
  const nearest = new Set(Object.entries(product.variables).filter(([, v]) => v.interpolation === 'nearest').map(([n]) => n));
  const selection = selectGrid(mapped.fields, domain, product.resampleOtherGrids ? { nearest } : undefined);
  mapped.notes.push(...(selection.notes ?? []));
  const stack = assembleStack(product, selection.grid, selection.fields);
  const notes = [...mapped.notes, ...product.complete(stack)];
  product.validate(stack, req.files);
  notes.push(...applyMasks(product, stack));
  req.signal?.throwIfAborted();

  // write + publish (atomic: the writer renames the manifest last)
  const newestRun = selection.fields.reduce((m, f) => Math.max(m, f.referenceTime.getTime()), -Infinity);
  // Files of a forecast product that are no run (cams: EAC4) record no run and are not ordered by one.
  const notARun = product.runOrder === 'forecast' ? (product.notARun?.(selection.fields) ?? null) : null;
  if (notARun) notes.push(notARun.note);
  const recordedModel = model ?? notARun?.model;
  const source = {
    files: names,
    ...(recordedModel ? { model: recordedModel } : {}),
    ...(req.source?.run ? { run: req.source.run } : Number.isFinite(newestRun) && !notARun ? { run: new Date(newestRun).toISOString() } : {}),
    ...(req.source?.sample ? { sample: true } : {}),
    ...(req.source?.note ? { note: req.source.note } : {}),
    ...(notARun ? {} : runOrderSource(product)),
    ...(req.allowOlderRun && product.runOrder === 'forecast' && !notARun ? { allow_older_run: true as const } : {}),
  };
  const input = toWriterInput(product, stack, source);
  if (product.derivesIndices) {
    const span = STAGE_START.write - STAGE_START.derive;
    const indices = await deriveIndices(
      { grid: input.grid, times: input.times, variables: input.variables },
      { signal: req.signal, onProgress: (f) => progress('derive', STAGE_START.derive + f * span, 'deriving indices'), onNote: (m) => notes.push(m) },
    );
    Object.assign(input.variables, indices);
  }
  // The gate: nothing wrong goes live (ingest/gate/); the live version's carried steps passed it before.
  const overrides = await runGate(
    { product, input, fields: selection.fields, series, root: req.root, nowMs: Date.now() },
    req.files, allow,
  );
  if (overrides.length > 0) input.source = { ...input.source, gate_overrides: overrides };
  const carried = await carryOverEarlierSteps(req.root, product, input);
  if (carried) notes.push(carried);
  req.signal?.throwIfAborted();
  progress('write', STAGE_START.write, `writing ${Object.keys(input.variables).length} variables × ${input.times.length} times`);
  let published: PublishResult;
  let periods: IngestReport['periods'];
  if (product.layout === 'periods') {
    // One store per UTC year, each merged with what it holds and published on its own.
    const span = STAGE_START.publish - STAGE_START.write;
    const years = await publishYears(req.root, product, input, {
      ...(req.signal ? { signal: req.signal } : {}),
      onYear: (y, k, n) => progress('write', STAGE_START.write + span * (k / n), `writing ${product.name}/${y} (${k + 1}/${n})`),
    });
    notes.push(...years.notes);
    periods = years.results.map((r) => ({ period: r.manifest.period!, version: r.version, from: r.manifest.coverage!.from, to: r.manifest.coverage!.to, times: r.manifest.times.length }));
    published = years.results[years.results.length - 1]!;
  } else {
    published = await writeProductVersion(req.root, input);
  }
  const times = input.times;
  const over = published.manifest.source.replaced_newer_run;
  return withFollowers(req, {
    ...(over ? { olderRunOver: { run: published.manifest.source.run!, newerRun: over.run, newerVersion: over.version, ...(model ? { model } : {}) } } : {}),
    product: product.name,
    version: published.version,
    ...(periods ? { periods } : {}),
    ...(overrides.length > 0 ? { gateOverrides: overrides } : {}),
    ...(times.length > 0 ? { from: times[0]!.toISOString(), to: times[times.length - 1]!.toISOString() } : {}),
    times: times.length,
    variables: Object.keys(input.variables).sort(),
    published: published.manifest.published,
    grid: selection.grid,
    gridDescription: describeGrid(selection.grid),
    files: names,
    dropped: selection.dropped,
    skipped: mapped.skipped,
    notes,
  }, progress);
}

/** After a publish: the products that follow this one (sm100 after nwp), built and added to the report. */
async function withFollowers(req: IngestRequest, report: IngestReport, progress: (stage: keyof typeof STAGE_START, fraction: number, message?: string) => void): Promise<IngestReport> {
  progress('publish', STAGE_START.publish, `published ${report.product} ${report.version}`);
  const followers = await runFollowers(req.root, report.product, {
    ...(req.signal ? { signal: req.signal } : {}),
    onStart: (f) => progress('publish', STAGE_START.publish, `building ${f} from ${report.product} ${report.version}`),
  });
  for (const f of followers) report.notes.push(...f.notes);
  const derived = followers.flatMap((f) => (f.published ? [{ product: f.product, version: f.published.version }] : []));
  return derived.length > 0 ? { ...report, derived } : report;
}

/** 'file: 2t [K], tp [kg m**-2]; file2: ...' for error messages. */
function describeSeen(tagged: readonly TaggedField[]): string {
  const byFile = new Map<string, Set<string>>();
  for (const { file, field } of tagged) {
    let s = byFile.get(file);
    if (!s) byFile.set(file, (s = new Set()));
    s.add(`${field.name}${field.level ? `@${field.level.type}:${field.level.value}` : ''} [${field.units || 'no units'}]`);
  }
  if (byFile.size === 0) return 'no fields at all';
  if (byFile.size === 1) return [...byFile.values()][0]!.size ? [...[...byFile.values()][0]!].join(', ') : 'no fields';
  return [...byFile].map(([f, s]) => `${basename(f)}: ${[...s].join(', ')}`).join('; ');
}
