/**
 * The Retrieve API of the Copernicus data stores (ADS, CDS), an OGC API -
 * Processes service, called as ECMWF's ecmwf-datastores-client does:
 *
 *   POST {api}/retrieve/v1/processes/{dataset}/execution {"inputs": request} → 201 StatusInfo {jobID, status, links}
 *   GET  {api}/retrieve/v1/jobs/{jobID}          → StatusInfo, status accepted | running | successful | failed | rejected | dismissed
 *   GET  {api}/retrieve/v1/jobs/{jobID}/results  → {"asset": {"value": {"href", "file:size", "type"}}}; for a failed job a
 *                                                  4xx problem document {title, detail, traceback} saying why
 *
 * with the personal key in the PRIVATE-TOKEN header. Every call is retried
 * in place (retry.ts) on 408/429/5xx and connection errors; the key is
 * removed from anything a server echoes before it reaches a message.
 */
import type { AdsSourceSpec } from '../job-types.js';
import { explanation, refusal } from './refusal.js';
import { retryInPlace, type RetryHooks, type RetryPolicy } from './retry.js';
import { SourceError } from './source-error.js';
import { redactSecrets } from '../../config/redaction.js';

export interface StatusInfo {
  jobID: string;
  status: string;
  links?: { href: string; rel?: string }[];
}

export interface ResultAsset {
  href: string;
  size?: number;
  type?: string;
}

export interface AdsApi {
  /** `{api}/retrieve/v1` */
  root: string;
  spec: AdsSourceSpec;
  headers: Record<string, string>;
  policy: RetryPolicy;
  hooks: RetryHooks;
  /** Removes the key from any text a server sends back. */
  redact: (s: string) => string;
}

export function adsApi(spec: AdsSourceSpec, key: string, policy: RetryPolicy, hooks: RetryHooks): AdsApi {
  return {
    root: `${spec.api.replace(/\/+$/, '')}/retrieve/v1`,
    spec,
    headers: { 'PRIVATE-TOKEN': key, 'content-type': 'application/json', accept: 'application/json', 'user-agent': 'meteopunto-ingest' },
    policy,
    hooks,
    redact: (s) => redactSecrets(s, [key]),
  };
}

/** One JSON call, retried in place; a non-2xx answer throws a SourceError with the server's explanation. */
async function call(api: AdsApi, url: string, init: RequestInit = {}): Promise<unknown> {
  const o = api.spec.options;
  return retryInPlace(async () => {
    const timeout = AbortSignal.timeout(o.headersMs + o.idleMs);
    const signal = api.hooks.signal ? AbortSignal.any([api.hooks.signal, timeout]) : timeout;
    let res: Response;
    let text: string;
    try {
      res = await fetch(url, { ...init, headers: api.headers, signal });
      if (!res.ok) throw await refusal(url, res, 'fail', api.redact);
      text = await res.text();
    } catch (err) {
      if (err instanceof SourceError) throw err;
      if (api.hooks.signal?.aborted) throw api.hooks.signal.reason;
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new SourceError(timeout.aborted ? 'TIMEOUT' : 'NETWORK', `${url}: ${timeout.aborted ? `no answer within ${(o.headersMs + o.idleMs) / 1000} s` : cause}`, true, { cause: err });
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      throw new SourceError('BAD_ANSWER', `${url}: answer is not JSON`, true);
    }
  }, api.policy, api.hooks);
}

function statusInfo(url: string, v: unknown): StatusInfo {
  const s = v as Partial<StatusInfo> | null;
  if (!s || typeof s.jobID !== 'string' || typeof s.status !== 'string') throw new SourceError('BAD_ANSWER', `${url}: no jobID and status in the answer`, true);
  return { jobID: s.jobID, status: s.status, ...(Array.isArray(s.links) ? { links: s.links } : {}) };
}

export async function submit(api: AdsApi, request: Record<string, unknown>): Promise<StatusInfo> {
  const url = `${api.root}/processes/${encodeURIComponent(api.spec.dataset)}/execution`;
  return statusInfo(url, await call(api, url, { method: 'POST', body: JSON.stringify({ inputs: request }) }));
}

/** The job's status; undefined when the data store no longer knows the job (404: deleted or expired). */
export async function jobStatus(api: AdsApi, id: string): Promise<StatusInfo | undefined> {
  const url = `${api.root}/jobs/${encodeURIComponent(id)}`;
  try {
    return statusInfo(url, await call(api, url));
  } catch (err) {
    if (err instanceof SourceError && err.status === 404) return undefined;
    throw err;
  }
}

function resultsUrl(api: AdsApi, job: StatusInfo): string {
  const link = job.links?.find((l) => l.rel === 'results')?.href;
  return link ? new URL(link, `${api.root}/`).toString() : `${api.root}/jobs/${encodeURIComponent(job.jobID)}/results`;
}

/** The result file of a successful job; undefined when its results expired (404). */
export async function resultAsset(api: AdsApi, job: StatusInfo): Promise<ResultAsset | undefined> {
  const url = resultsUrl(api, job);
  let v: unknown;
  try {
    v = await call(api, url);
  } catch (err) {
    if (err instanceof SourceError && err.status === 404) return undefined;
    throw err;
  }
  const value = (v as { asset?: { value?: { href?: unknown; 'file:size'?: unknown; type?: unknown } } } | null)?.asset?.value;
  if (!value || typeof value.href !== 'string') throw new SourceError('BAD_ANSWER', `${url}: the results carry no asset href`, true);
  return {
    href: new URL(value.href, url).toString(),
    ...(typeof value['file:size'] === 'number' ? { size: value['file:size'] } : {}),
    ...(typeof value.type === 'string' ? { type: value.type } : {}),
  };
}

/** Why a failed or rejected job failed, as the data store tells it on its results URL (title, detail, the traceback's last line). */
export async function failureReason(api: AdsApi, job: StatusInfo): Promise<string> {
  const url = resultsUrl(api, job);
  const o = api.spec.options;
  try {
    const res = await fetch(url, { headers: api.headers, signal: AbortSignal.timeout(o.headersMs + o.idleMs) });
    const text = (await res.text()).slice(0, 64 * 1024);
    let said = explanation(text);
    try {
      const tb = (JSON.parse(text) as { traceback?: unknown }).traceback;
      const last = typeof tb === 'string' ? tb.trim().split(/\r?\n/).pop()?.trim() : undefined;
      if (last && !said.includes(last)) said = said ? `${said} (${last.slice(0, 300)})` : last.slice(0, 300);
    } catch {
      // not JSON: explanation() had its say
    }
    return api.redact(said) || `no reason given (HTTP ${res.status})`;
  } catch (err) {
    return `no reason could be fetched (${(err as Error).message})`;
  }
}
