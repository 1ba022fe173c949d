/**
 * One small text answer over HTTP (a run list, a directory listing), retried
 * in place like every call of a source (retry.ts): 408/429/5xx, connection
 * errors and timeouts are tried again, any other refusal fails at once with
 * the server's own explanation (refusal.ts).
 */
import { refusal } from './refusal.js';
import { retryInPlace, type RetryHooks, type RetryPolicy } from './retry.js';
import { SourceError } from './source-error.js';

/** Listings and run lists are small; anything larger is not what was asked for. */
const MAX_TEXT = 8 * 1024 * 1024;

export interface TextRequest {
  /** Until the whole answer is in (ms). */
  timeoutMs: number;
  policy: RetryPolicy;
  hooks?: RetryHooks;
  /** 404: 'fail' (a wrong URL) or 'retry' (not published yet: transient, left to the job's backoff). */
  notFound?: 'retry' | 'fail';
}

export async function getText(url: string, r: TextRequest): Promise<string> {
  const hooks = r.hooks ?? {};
  return retryInPlace(async () => {
    const timeout = AbortSignal.timeout(r.timeoutMs);
    const signal = hooks.signal ? AbortSignal.any([hooks.signal, timeout]) : timeout;
    try {
      const res = await fetch(url, { signal, headers: { 'user-agent': 'meteopunto-ingest' } });
      if (!res.ok) throw await refusal(url, res, r.notFound ?? 'fail');
      const text = await res.text();
      if (text.length > MAX_TEXT) throw new SourceError('TOO_LARGE', `${url}: answer larger than ${MAX_TEXT} bytes`, false);
      return text;
    } catch (err) {
      if (err instanceof SourceError) throw err;
      if (hooks.signal?.aborted) throw hooks.signal.reason;
      const cause = (err as { cause?: { code?: string } }).cause?.code ?? (err as Error).message;
      throw new SourceError(timeout.aborted ? 'TIMEOUT' : 'NETWORK', `${url}: ${timeout.aborted ? `no answer within ${r.timeoutMs / 1000} s` : cause}`, true, { cause: err });
    }
  }, r.policy, hooks);
}

/**
 * The entries of a web server's directory index (nginx or Apache autoindex,
 * as MeteoHub and opendata.dwd.de serve them): every `href` that names an
 * entry of this directory, folders with their trailing '/', without the
 * parent link, sort links or absolute URLs.
 */
export function listingEntries(html: string): string[] {
  const out = new Set<string>();
  for (const m of html.matchAll(/href\s*=\s*"([^"]+)"/gi)) {
    let href: string;
    try {
      href = decodeURIComponent(m[1]!);
    } catch {
      continue; // a malformed escape names no entry we could ask for
    }
    if (href.startsWith('?') || href.startsWith('/') || href.startsWith('../') || href === './' || /^[a-z]+:/i.test(href)) continue;
    const name = href.replace(/^\.\//, '');
    if (name.split('/').filter(Boolean).length !== 1) continue;
    out.add(name);
  }
  return [...out];
}
