/**
 * Atmosphere Data Store (ADS, Copernicus Atmosphere Monitoring Service)
 * source: its Retrieve API is asynchronous (OGC API - Processes, as the
 * official clients ecmwf-datastores-client / cads-api-client use it):
 *
 *   POST {api}/retrieve/v1/processes/{dataset}/execution  {"inputs": request}  → {"jobID", "status"}
 *   GET  {api}/retrieve/v1/jobs/{jobID}                   → {"status": accepted|running|successful|failed|rejected|dismissed}
 *   GET  {api}/retrieve/v1/jobs/{jobID}/results           → {"asset": {"value": {"href", "file:size"}}}
 *
 * then the file at `href` is downloaded like any HTTP file (size limit,
 * timeouts, nothing half-written under the final name). The personal API key
 * goes in the PRIVATE-TOKEN header and is read from the worker's environment
 * variable the configuration names (`keyEnv`) when the job runs: it is never
 * in a committed file nor in the job data kept in Redis.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { AdsSourceSpec } from '../job-types.js';
import { downloadFile } from './http-download.js';
import { removePartials } from './http.js';
import { SourceError, statusError } from './source-error.js';
import { processEnv } from '../../config/process-env.js';

export interface AdsFetchContext {
  dir: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
}

const DONE = 'successful';
const FAILED = new Set(['failed', 'rejected', 'dismissed', 'deleted']);

async function call(url: string, init: RequestInit, spec: AdsSourceSpec, signal?: AbortSignal): Promise<unknown> {
  const timeout = AbortSignal.timeout(spec.options.headersMs + spec.options.idleMs);
  let res: Response;
  try {
    res = await fetch(url, { ...init, signal: signal ? AbortSignal.any([signal, timeout]) : timeout });
  } catch (err) {
    if (signal?.aborted) throw signal.reason;
    throw new SourceError(timeout.aborted ? 'TIMEOUT' : 'NETWORK', `${url}: ${(err as Error).message}`, true, { cause: err });
  }
  const text = await res.text().catch(() => '');
  if (!res.ok) {
    const e = statusError(url, res.status, 'fail');
    // 401/403: a wrong key or the dataset's licence not accepted on the ADS web site; the ADS says which.
    throw new SourceError(e.code, `${e.message}${detail(text)}`, e.transient);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new SourceError('HTTP_STATUS', `${url}: answer is not JSON`, true);
  }
}

function detail(text: string): string {
  try {
    const j = JSON.parse(text) as { title?: string; detail?: string };
    const d = [j.title, j.detail].filter(Boolean).join(': ');
    return d ? ` (${d.slice(0, 300)})` : '';
  } catch {
    return '';
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(t);
      reject(signal.reason);
    }, { once: true });
  });
}

/** Submit the request, wait for the ADS job, download its result into ctx.dir. */
export async function fetchAdsFile(spec: AdsSourceSpec, ctx: AdsFetchContext): Promise<{ paths: string[]; receivedBytes: number }> {
  const env = ctx.env ?? processEnv();
  const key = env[spec.keyEnv];
  if (!key) throw new SourceError('NO_CREDENTIALS', `ADS: environment variable ${spec.keyEnv} (the personal API key of the Atmosphere Data Store) is not set on this worker`, false);
  const headers = { 'PRIVATE-TOKEN': key, 'content-type': 'application/json', 'user-agent': 'meteopunto-ingest' };
  const base = spec.api.replace(/\/+$/, '');
  await mkdir(ctx.dir, { recursive: true });
  await removePartials(ctx.dir);
  const dest = join(ctx.dir, spec.fileName);

  const submitted = (await call(`${base}/retrieve/v1/processes/${encodeURIComponent(spec.dataset)}/execution`, {
    method: 'POST', headers, body: JSON.stringify({ inputs: spec.request }),
  }, spec, ctx.signal)) as { jobID?: string; status?: string };
  const id = submitted.jobID;
  if (!id) throw new SourceError('HTTP_STATUS', `ADS: no jobID in the answer to the request for ${spec.dataset}`, true);
  ctx.onProgress?.(0.05, `ADS job ${id} ${submitted.status ?? 'submitted'}`);

  const deadline = Date.now() + spec.maxWaitMs;
  let status = submitted.status ?? 'accepted';
  while (status !== DONE) {
    if (FAILED.has(status)) throw new SourceError('HTTP_STATUS', `ADS job ${id} for ${spec.dataset}: ${status}`, false);
    if (Date.now() > deadline) throw new SourceError('TIMEOUT', `ADS job ${id} for ${spec.dataset} still ${status} after ${spec.maxWaitMs / 1000} s`, true);
    await sleep(spec.pollMs, ctx.signal);
    status = ((await call(`${base}/retrieve/v1/jobs/${encodeURIComponent(id)}`, { headers }, spec, ctx.signal)) as { status?: string }).status ?? 'unknown';
    ctx.onProgress?.(0.1, `ADS job ${id} ${status}`);
  }
  const results = (await call(`${base}/retrieve/v1/jobs/${encodeURIComponent(id)}/results`, { headers }, spec, ctx.signal)) as { asset?: { value?: { href?: string } } };
  const href = results.asset?.value?.href;
  if (!href) throw new SourceError('HTTP_STATUS', `ADS job ${id}: results carry no asset href`, false);
  const r = await downloadFile({
    url: new URL(href, `${base}/`).toString(), dest, decompress: 'none', options: spec.options,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
    onBytes: (got, total) => total && ctx.onProgress?.(0.1 + 0.9 * Math.min(got / total, 0.99), `downloading ${spec.fileName}`),
  });
  ctx.onProgress?.(1, `${spec.fileName} from ADS job ${id}`);
  return { paths: [dest], receivedBytes: r.receivedBytes };
}
