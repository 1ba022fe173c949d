/**
 * What an ingest job is: its self-contained data, built from a product's
 * configuration, and its id. The id is derived from the product and the run
 * (`nwp@2026-11-21T12Z`), so the same run enqueued twice (two schedule ticks,
 * an operator) is one BullMQ job and is ingested once.
 */
import { createHash } from 'node:crypto';
import { stat } from 'node:fs/promises';
import { basename, isAbsolute, resolve } from 'node:path';
import type { AdsSourceConfig, CopernicusMarineSourceConfig, HttpSourceConfig, ProductJobsConfig, RetryInPlaceConfig } from './config-schema.js';
import { DEFAULT_RUN } from './config.js';
import type { AdsSourceSpec, HttpFetchOptions, HttpFileSpec, IngestJobData, MarineSourceSpec } from './job-types.js';
import { latestRun, runKey } from './run-time.js';
import { adsRequests } from './sources/ads-requests.js';
import { DEFAULT_RETRY_DELAYS } from './sources/retry.js';
import { parseSteps } from './sources/steps.js';
import { fillTemplate, usesStep } from './sources/url-template.js';

/** BullMQ forbids ':' in custom ids (its own separator), so product and key are joined with '@'. */
export function ingestJobId(product: string, key: string): string {
  return `${product}@${key}`;
}

/** Compact UTC stamp for keys that are not model runs: `20261121T120500Z`. */
export function stampKey(at: Date): string {
  return at.toISOString().replace(/[-:]/g, '').replace(/\.\d+Z$/, 'Z');
}

/** The run a tick at `at` should fetch, per the product's run cycle. */
export function runForTick(cfg: ProductJobsConfig, at: Date): Date {
  const run = cfg.run ?? DEFAULT_RUN;
  return latestRun(at, run.cycleHours, run.availableAfterMinutes);
}

const MB = 1024 * 1024;

function fileName(url: string, decompress: HttpFileSpec['decompress']): string {
  const path = new URL(url).pathname;
  const name = decodeURIComponent(basename(path)) || 'download';
  return decompress === 'bzip2' ? name.replace(/\.bz2$/i, '') : name;
}

/** Expands the product's URL templates for one run (× steps) into the files an ingest job downloads. */
export function httpFiles(product: string, cfg: ProductJobsConfig, run: Date): HttpFileSpec[] {
  if (cfg.source.kind !== 'http') throw new Error(`product '${product}' has no http source`);
  const src = cfg.source;
  const steps = src.steps ? parseSteps(src.steps) : [];
  const files: HttpFileSpec[] = [];
  const names = new Set<string>();
  for (const template of src.urls) {
    for (const step of usesStep(template) ? steps : [undefined]) {
      const url = fillTemplate(template, { run, product, step, ...(src.root ? { root: src.root } : {}) });
      const decompress = src.decompress === 'bzip2' || ((src.decompress ?? 'auto') === 'auto' && /\.bz2$/i.test(new URL(url).pathname)) ? 'bzip2' : 'none';
      let name = fileName(url, decompress);
      // Two templates may end in the same file name (different directories): keep both.
      for (let i = 1; names.has(name); i++) name = `${i}-${fileName(url, decompress)}`;
      names.add(name);
      const checksumUrl = src.checksumUrl ? fillTemplate(src.checksumUrl, { run, product, step, url, ...(src.root ? { root: src.root } : {}) }) : undefined;
      files.push({ url, name, decompress, ...(checksumUrl ? { checksumUrl } : {}) });
    }
  }
  return files;
}

/** Job data and id for one run of a configured product (schedule ticks and `jobs enqueue`). */
export function configuredIngestJob(
  root: string,
  product: string,
  cfg: ProductJobsConfig,
  opts: { run?: Date; now: Date; trigger: IngestJobData['trigger'] },
): { id: string; data: IngestJobData } {
  const base = { product, ...(cfg.model ? { model: cfg.model } : {}), trigger: opts.trigger };
  if (cfg.source.kind === 'inbox') {
    const dir = isAbsolute(cfg.source.dir) ? cfg.source.dir : resolve(root, cfg.source.dir);
    const settleMs = Math.round((cfg.source.settleSeconds ?? 5) * 1000);
    // An inbox has no run: each claim is its own job, keyed by when it was asked for.
    const data: IngestJobData = { ...base, ...(opts.run ? { run: opts.run.toISOString() } : {}), source: { kind: 'inbox', dir, settleMs } };
    return { id: ingestJobId(product, `inbox-${stampKey(opts.run ?? opts.now)}`), data };
  }
  const run = opts.run ?? runForTick(cfg, opts.now);
  if (cfg.source.kind === 'ads') return { id: ingestJobId(product, runKey(run)), data: { ...base, run: run.toISOString(), source: adsSpec(product, cfg.source, run) } };
  if (cfg.source.kind === 'copernicus-marine') return { id: ingestJobId(product, runKey(run)), data: { ...base, run: run.toISOString(), source: marineSpec(cfg.source, run) } };
  // A MeteoHub run is found from the provider's run list first: jobs/resolve-job.ts.
  if (cfg.source.kind === 'meteohub') throw new Error(`product '${product}': a meteohub source is resolved from its run list (resolveIngestJob)`);
  const data: IngestJobData = { ...base, run: run.toISOString(), source: { kind: 'http', files: httpFiles(product, cfg, run), options: httpOptions(cfg.source) } };
  return { id: ingestJobId(product, runKey(run)), data };
}

/** Download options of an HTTP-like source (http, meteohub) with their defaults. */
export function httpOptions(src: Pick<HttpSourceConfig, 'maxBytes' | 'timeouts' | 'parallel' | 'notFound' | 'checksumAlgorithm' | 'maxWaitSeconds' | 'retryInPlace'> & { basicAuth?: HttpSourceConfig['basicAuth'] }): HttpFetchOptions {
  const t = src.timeouts ?? {};
  return {
    maxBytes: src.maxBytes ?? 1024 * MB,
    headersMs: Math.round((t.headersSeconds ?? 30) * 1000),
    idleMs: Math.round((t.idleSeconds ?? 60) * 1000),
    totalMs: Math.round((t.totalSeconds ?? 1800) * 1000),
    parallel: src.parallel ?? 4,
    notFound: src.notFound ?? 'retry',
    checksumAlgorithm: src.checksumAlgorithm ?? 'sha256',
    deadlineMs: Math.round((src.maxWaitSeconds ?? 3600) * 1000),
    retry: retryDelays(src.retryInPlace),
    ...(src.basicAuth ? { basicAuth: { userEnv: src.basicAuth.userEnv, passwordEnv: src.basicAuth.passwordEnv } } : {}),
  };
}

/**
 * Job data and id for files already on this machine (`jobs enqueue --file`).
 * The id hashes each file's absolute path, size and mtime: the same files
 * enqueued twice are one job, an edited file is a new one.
 */
export async function localIngestJob(product: string, paths: string[], opts: { run?: Date; model?: string }): Promise<{ id: string; data: IngestJobData }> {
  const abs = paths.map((p) => resolve(p));
  const hash = createHash('sha256').update(product);
  for (const p of abs) {
    const s = await stat(p).catch((err: NodeJS.ErrnoException) => {
      throw new Error(`--file ${p}: ${err.code === 'ENOENT' ? 'no such file' : err.message}`);
    });
    if (!s.isFile()) throw new Error(`--file ${p}: not a regular file`);
    hash.update(`\0${p}\0${s.size}\0${s.mtimeMs}`);
  }
  const data: IngestJobData = {
    product,
    ...(opts.run ? { run: opts.run.toISOString() } : {}),
    ...(opts.model ? { model: opts.model } : {}),
    source: { kind: 'local', paths: abs },
    trigger: 'operator',
  };
  const key = opts.run ? `${runKey(opts.run)}-files-${hash.digest('hex').slice(0, 10)}` : `files-${hash.digest('hex').slice(0, 12)}`;
  return { id: ingestJobId(product, key), data };
}

/** Delays of the retries in place from the source's `retryInPlace` (defaults: ECMWF's datastores client). */
function retryDelays(r: RetryInPlaceConfig | undefined): { firstDelayMs: number; maxDelayMs: number } {
  return {
    firstDelayMs: r?.firstDelaySeconds !== undefined ? Math.round(r.firstDelaySeconds * 1000) : DEFAULT_RETRY_DELAYS.firstDelayMs,
    maxDelayMs: r?.maxDelaySeconds !== undefined ? Math.round(r.maxDelaySeconds * 1000) : DEFAULT_RETRY_DELAYS.maxDelayMs,
  };
}

/** The ADS job spec of one run: its requests filled in; the key stays a variable name, read by the worker. */
export function adsSpec(product: string, src: AdsSourceConfig, run: Date): AdsSourceSpec {
  const t = src.timeouts ?? {};
  const { requests } = adsRequests(product, src, run);
  return {
    kind: 'ads',
    api: src.api,
    dataset: src.dataset,
    requests,
    keyEnv: src.keyEnv,
    pollMs: Math.round((src.pollSeconds ?? 30) * 1000),
    options: {
      maxBytes: src.maxBytes ?? 1024 * MB,
      headersMs: Math.round((t.headersSeconds ?? 60) * 1000),
      idleMs: Math.round((t.idleSeconds ?? 120) * 1000),
      totalMs: Math.round((t.totalSeconds ?? 3600) * 1000),
      parallel: src.parallel ?? 1,
      notFound: 'fail',
      checksumAlgorithm: 'sha256',
      deadlineMs: Math.round((src.maxWaitSeconds ?? 3 * 3600) * 1000),
      retry: retryDelays(src.retryInPlace),
    },
  };
}

/** A Copernicus Marine job: the datasets and the run; the files are found from the STAC catalogue when it runs. */
export function marineSpec(src: CopernicusMarineSourceConfig, run: Date): MarineSourceSpec {
  return {
    kind: 'copernicus-marine',
    stac: src.stac,
    datasets: src.datasets.map((d) => ({ product: d.product, dataset: d.dataset, daysBack: d.daysBack ?? 0, daysAhead: d.daysAhead ?? 0, ...(d.latest ? { latest: d.latest } : {}) })),
    run: run.toISOString(),
    options: httpOptions({ ...src, notFound: 'fail' }),
  };
}
