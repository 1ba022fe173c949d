/**
 * `meteopunto sources check`: for each configured source, is it reachable,
 * and does it return what the product expects? One look per source, cheap
 * and read-only (no data-store job is submitted, no file downloaded whole):
 *
 * - meteohub: the run list parses and its newest complete run has every
 *   variable (sources/meteohub.ts), and its first file starts as a GRIB;
 * - http: the newest run the schedule would fetch answers for the first file
 *   of each URL template (with the source's basic-auth login when it has
 *   one), each starting as what it should be (bzip2, GRIB, NetCDF, ZIP, TIFF);
 * - ads: the key's variable is set and the data store accepts the key (the
 *   verification ECMWF's datastores client calls, POST
 *   {api}/profiles/v1/account/verification/pat) and knows the dataset;
 * - copernicus-marine: each dataset's STAC item and S3 listing give files
 *   for the newest run;
 * - inbox: the folder exists.
 *
 * Every call is retried in place, briefly (retry.ts).
 */
import { readdir } from 'node:fs/promises';
import { isAbsolute, resolve } from 'node:path';
import type { AdsSourceConfig, HttpSourceConfig, ProductJobsConfig } from '../config-schema.js';
import type { JobsConfig } from '../config.js';
import { httpFiles, runForTick } from '../ingest-job.js';
import { runKey } from '../run-time.js';
import { basicAuthHeaders } from './basic-auth.js';
import { listKeys, monthPrefixes, nativeRoot, selectFiles } from './copernicus-marine.js';
import { findMeteohubRun } from './meteohub.js';
import { refusal } from './refusal.js';
import { attemptPolicy, retryInPlace, type RetryPolicy } from './retry.js';
import { SourceError } from './source-error.js';

export interface SourceCheck {
  product: string;
  /** 'source', 'fallback' */
  role: string;
  kind: string;
  /** Where: a host or folder. */
  where: string;
  ok: boolean;
  detail: string;
}

export interface CheckOptions {
  root: string;
  now: Date;
  env: NodeJS.ProcessEnv;
  /** One call, until the answer is in (default 30 s). */
  timeoutMs?: number;
  /** All retries of one call (default 60 s). */
  retryMs?: number;
}

/** What a file's first bytes must be, by what it is served as. */
const MAGIC: [RegExp, string, (b: Buffer) => boolean][] = [
  [/\.bz2$/i, 'bzip2', (b) => b.subarray(0, 3).toString('latin1') === 'BZh'],
  [/\.(grib2?|grb2?)$/i, 'GRIB', (b) => b.subarray(0, 4).toString('latin1') === 'GRIB'],
  [/\.(nc|nc4)$/i, 'NetCDF', (b) => b.subarray(0, 3).toString('latin1') === 'CDF' || b.subarray(1, 4).toString('latin1') === 'HDF'],
  [/\.zip$/i, 'ZIP', (b) => b.subarray(0, 2).toString('latin1') === 'PK'],
  [/\.tiff?$/i, 'TIFF', (b) => ['II*\0', 'MM\0*', 'II+\0', 'MM\0+'].includes(b.subarray(0, 4).toString('latin1'))],
];

/** The first bytes of a file (the rest is not fetched), or the refusal. */
async function firstBytes(url: string, policy: RetryPolicy, timeoutMs: number, headers?: Record<string, string>): Promise<Buffer> {
  return retryInPlace(async () => {
    const signal = AbortSignal.timeout(timeoutMs);
    try {
      const res = await fetch(url, { signal, headers: { ...headers, 'user-agent': 'meteopunto-sources-check', range: 'bytes=0-15' } });
      if (!res.ok) throw await refusal(url, res, 'fail');
      const reader = res.body!.getReader();
      const { value } = await reader.read();
      await reader.cancel().catch(() => {});
      return Buffer.from(value ?? new Uint8Array());
    } catch (err) {
      if (err instanceof SourceError) throw err;
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new SourceError(signal.aborted ? 'TIMEOUT' : 'NETWORK', `${url}: ${signal.aborted ? `no answer within ${timeoutMs / 1000} s` : cause}`, true, { cause: err });
    }
  }, policy);
}

/** '' when the file starts as its name says, else why not. */
async function looksRight(url: string, policy: RetryPolicy, timeoutMs: number, headers?: Record<string, string>): Promise<string> {
  const bytes = await firstBytes(url, policy, timeoutMs, headers);
  const name = new URL(url).pathname;
  const rule = MAGIC.find(([re]) => re.test(name));
  if (!rule) return '';
  return rule[2](bytes) ? '' : `${url} does not start as ${rule[1]} (first bytes ${JSON.stringify(bytes.subarray(0, 4).toString('latin1'))})`;
}

const host = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return url;
  }
};

async function checkHttp(product: string, cfg: ProductJobsConfig & { source: HttpSourceConfig }, o: Required<CheckOptions>, policy: () => RetryPolicy): Promise<Omit<SourceCheck, 'product' | 'role'>> {
  const run = runForTick(cfg, o.now);
  // The first expansion of each template: one file per variable, not every step.
  const firsts = cfg.source.urls.map((t) => httpFiles(product, { ...cfg, source: { ...cfg.source, urls: [t] } }, run)[0]!);
  const where = host(firsts[0]!.url);
  // A login (basicAuth) is read from the environment as the worker reads it.
  let headers: Record<string, string> | undefined;
  try {
    headers = basicAuthHeaders(cfg.source.basicAuth ? { userEnv: cfg.source.basicAuth.userEnv, passwordEnv: cfg.source.basicAuth.passwordEnv } : undefined, o.env);
  } catch (err) {
    return { kind: 'http', where, ok: false, detail: (err as Error).message };
  }
  for (const f of firsts) {
    const bad = await looksRight(f.url, policy(), o.timeoutMs, headers);
    if (bad) return { kind: 'http', where, ok: false, detail: bad };
  }
  return { kind: 'http', where, ok: true, detail: `run ${runKey(run)}: the first file of each of the ${firsts.length} URL template(s) answers as expected` };
}

async function checkAds(src: AdsSourceConfig, o: Required<CheckOptions>, policy: () => RetryPolicy): Promise<Omit<SourceCheck, 'product' | 'role'>> {
  const where = host(src.api);
  const key = o.env[src.keyEnv];
  if (!key) return { kind: 'ads', where, ok: false, detail: `${src.keyEnv} is not set: put the data store's personal access token there` };
  const api = src.api.replace(/\/+$/, '');
  const redact = (s: string) => (key.length >= 4 ? s.split(key).join('***') : s);
  const call = (url: string, method: string) =>
    retryInPlace(async () => {
      const signal = AbortSignal.timeout(o.timeoutMs);
      const res = await fetch(url, { method, signal, headers: { 'PRIVATE-TOKEN': key, accept: 'application/json', 'user-agent': 'meteopunto-sources-check' } }).catch((err: unknown) => {
        throw new SourceError('NETWORK', `${url}: ${(err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message}`, true);
      });
      if (!res.ok) throw await refusal(url, res, 'fail', redact);
      await res.body?.cancel().catch(() => {});
    }, policy());
  try {
    await call(`${api}/profiles/v1/account/verification/pat`, 'POST');
  } catch (err) {
    return { kind: 'ads', where, ok: false, detail: `the key in ${src.keyEnv} is refused: ${redact((err as Error).message)}` };
  }
  await call(`${api}/retrieve/v1/processes/${encodeURIComponent(src.dataset)}`, 'GET');
  return { kind: 'ads', where, ok: true, detail: `the key in ${src.keyEnv} is accepted; dataset ${src.dataset} is there (accept its licence on its page once)` };
}

async function checkOne(product: string, cfg: ProductJobsConfig, o: Required<CheckOptions>): Promise<Omit<SourceCheck, 'product' | 'role'>> {
  const policy = () => attemptPolicy({ deadlineMs: o.retryMs, retry: { firstDelayMs: 1000, maxDelayMs: 8000 } });
  const src = cfg.source;
  switch (src.kind) {
    case 'inbox': {
      const dir = isAbsolute(src.dir) ? src.dir : resolve(o.root, src.dir);
      const names = await readdir(dir).catch(() => undefined);
      return names ? { kind: 'inbox', where: dir, ok: true, detail: `folder exists (${names.length} entr${names.length === 1 ? 'y' : 'ies'})` } : { kind: 'inbox', where: dir, ok: false, detail: 'no such folder' };
    }
    case 'http':
      return checkHttp(product, { ...cfg, source: src }, o, policy);
    case 'ads':
      return checkAds(src, o, policy);
    case 'copernicus-marine': {
      // The STAC item and the S3 listing of each dataset, nothing downloaded.
      const run = runForTick(cfg, o.now);
      const req = { timeoutMs: o.timeoutMs, policy: policy() };
      const counts: string[] = [];
      for (const ds of src.datasets) {
        const native = await nativeRoot(src.stac, ds.product, ds.dataset, req);
        const listed = (await Promise.all(monthPrefixes(run, ds.daysBack ?? 0, ds.daysAhead ?? 0).map((p) => listKeys(native, p, req)))).flat();
        const n = selectFiles(listed, run, { daysBack: ds.daysBack ?? 0, daysAhead: ds.daysAhead ?? 0, ...(ds.latest ? { latest: ds.latest } : {}) }).length;
        if (n === 0) return { kind: src.kind, where: host(src.stac), ok: false, detail: `${ds.dataset}: no file for run ${runKey(run)} under ${native}` };
        counts.push(`${ds.dataset} ${n}`);
      }
      return { kind: src.kind, where: host(src.stac), ok: true, detail: `run ${runKey(run)}: files listed per dataset: ${counts.join(', ')}` };
    }
    case 'meteohub': {
      const found = await findMeteohubRun(src, { now: o.now, req: { timeoutMs: o.timeoutMs, policy: policy() } });
      if (found.kind === 'late') return { kind: 'meteohub', where: host(src.root), ok: false, detail: `late: ${found.reason}` };
      const bad = await looksRight(found.files[0]!.url, policy(), o.timeoutMs);
      if (bad) return { kind: 'meteohub', where: host(src.root), ok: false, detail: bad };
      const optional = found.missingOptional.length ? `; optional ${found.missingOptional.join(', ')} absent` : '';
      return { kind: 'meteohub', where: host(src.root), ok: true, detail: `run ${runKey(found.run)} complete: ${found.variables.length} variables, ${found.files.length} files${optional}` };
    }
  }
}

export async function checkSources(config: JobsConfig, opts: CheckOptions): Promise<SourceCheck[]> {
  const o: Required<CheckOptions> = { timeoutMs: 30_000, retryMs: 60_000, ...opts };
  const targets: { product: string; role: string; cfg: ProductJobsConfig }[] = [];
  for (const [product, cfg] of Object.entries(config.products)) {
    targets.push({ product, role: 'source', cfg });
    if (cfg.fallback) targets.push({ product, role: 'fallback', cfg: { ...(cfg.fallback.run ? { run: cfg.fallback.run } : {}), source: cfg.fallback.source } });
  }
  return Promise.all(
    targets.map(async ({ product, role, cfg }) => {
      try {
        return { product, role, ...(await checkOne(product, cfg, o)) };
      } catch (err) {
        const where = cfg.source.kind === 'inbox' ? cfg.source.dir : cfg.source.kind === 'ads' ? host(cfg.source.api) : cfg.source.kind === 'meteohub' ? host(cfg.source.root) : cfg.source.kind === 'copernicus-marine' ? host(cfg.source.stac) : host(cfg.source.root ?? cfg.source.urls[0]!);
        return { product, role, kind: cfg.source.kind, where, ok: false, detail: (err as Error).message };
      }
    }),
  );
}

export function formatChecks(checks: SourceCheck[]): string {
  return checks.map((c) => `${c.ok ? 'ok  ' : 'FAIL'}  ${`${c.product}${c.role === 'source' ? '' : ` (${c.role})`}`.padEnd(16)} ${c.kind} ${c.where}: ${c.detail}`).join('\n');
}
