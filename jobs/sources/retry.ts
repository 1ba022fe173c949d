/**
 * Retry in place: one HTTP call (a download, an ADS/CDS submit, poll or
 * results request) is tried again within the job, as the providers' own
 * clients do (ECMWF's multiurl `robust`, the Copernicus Marine toolbox's
 * boto3 "standard" retries), before the job itself fails and BullMQ's
 * backoff takes over.
 *
 * Retried: HTTP 408, 429 and 5xx, connection errors, timeouts and bodies cut
 * short. Not retried here: other 4xx (the request is wrong: fail with the
 * server's message), 404 of a run not published yet and checksum mismatches
 * (both wait for the job's own backoff, minutes later).
 *
 * Delays grow exponentially with "equal jitter" (half fixed, half random, so
 * that workers that failed together do not come back together; AWS
 * Architecture Blog, "Exponential Backoff And Jitter", 2015) and are never
 * shorter than the server's Retry-After (RFC 9110 §10.2.3: seconds or an
 * HTTP-date). No retry starts that could not finish before the deadline: then
 * the last error is thrown as it is.
 */
import { SourceError } from './source-error.js';

export interface RetryPolicy {
  /** Epoch ms: no try starts after it (the fetch deadline of this job attempt). */
  deadline: number;
  /** Delay before the first retry, before jitter (ms). */
  firstDelayMs: number;
  /** Ceiling of the exponential delay (ms); a longer Retry-After is still honoured. */
  maxDelayMs: number;
}

/** Delays of ECMWF's datastores client (sleep and retry_after up to 120 s), starting at 1 s. */
export const DEFAULT_RETRY_DELAYS = { firstDelayMs: 1000, maxDelayMs: 120_000 } as const;
/** One job attempt's fetch when the job data names no deadline (jobs queued by older versions). */
export const DEFAULT_DEADLINE_MS = 3_600_000;

/** The policy of a job attempt whose fetch starts at `now`, from the job data's fetch options. */
export function attemptPolicy(o: { deadlineMs?: number; retry?: { firstDelayMs: number; maxDelayMs: number } }, now = Date.now()): RetryPolicy {
  return { deadline: now + (o.deadlineMs ?? DEFAULT_DEADLINE_MS), ...(o.retry ?? DEFAULT_RETRY_DELAYS) };
}

const IN_PLACE_CODES = new Set(['NETWORK', 'TIMEOUT', 'LENGTH_MISMATCH']);

/** True when `err` is worth another try within the same job attempt. */
export function retriesInPlace(err: unknown): boolean {
  if (!(err instanceof SourceError) || !err.transient) return false;
  if (IN_PLACE_CODES.has(err.code)) return true;
  const s = err.status;
  return err.code === 'HTTP_STATUS' && s !== undefined && (s === 408 || s === 429 || s >= 500);
}

/** Retry-After in ms (seconds or an HTTP-date, RFC 9110 §10.2.3); undefined when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now = Date.now()): number | undefined {
  if (value === null || value === undefined) return undefined;
  const v = value.trim();
  if (/^\d+$/.test(v)) return Number(v) * 1000;
  // An HTTP-date names its day and month ("Wed, 21 Oct 2015 07:28:00 GMT"); "-5" is no date.
  if (!/[a-z]{3}/i.test(v)) return undefined;
  const at = Date.parse(v);
  return Number.isFinite(at) ? Math.max(0, at - now) : undefined;
}

/** The wait before retry number `retry` (0 = the first): equal jitter on min(max, first × 2^retry), at least Retry-After. */
export function retryDelayMs(retry: number, p: Pick<RetryPolicy, 'firstDelayMs' | 'maxDelayMs'>, retryAfterMs?: number, random: () => number = Math.random): number {
  const cap = Math.min(p.maxDelayMs, p.firstDelayMs * 2 ** retry);
  const jittered = cap / 2 + random() * (cap / 2);
  return Math.max(jittered, retryAfterMs ?? 0);
}

/** Waits at least `ms` (a timer may fire a millisecond early: the rest is waited again); the signal ends it at once. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  const until = performance.now() + ms;
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    let t: NodeJS.Timeout;
    const onAbort = () => {
      clearTimeout(t);
      reject(signal!.reason);
    };
    const arm = () => {
      const left = until - performance.now();
      if (left <= 0) {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      } else t = setTimeout(arm, Math.ceil(left));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    arm();
  });
}

export interface RetryHooks {
  signal?: AbortSignal;
  /** Told before each wait: the error, the wait, and which retry comes next (1 = the first). */
  onRetry?: (err: SourceError, delayMs: number, retry: number) => void;
}

/**
 * Runs `call` until it succeeds, fails with an error not retried in place,
 * or the next try would start after the deadline (then its last error is
 * thrown). The job's signal ends a wait at once.
 */
export async function retryInPlace<T>(call: (attempt: number) => Promise<T>, policy: RetryPolicy, hooks: RetryHooks = {}): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call(attempt);
    } catch (err) {
      if (hooks.signal?.aborted || !retriesInPlace(err)) throw err;
      const e = err as SourceError;
      const delay = retryDelayMs(attempt, policy, e.retryAfterMs);
      if (Date.now() + delay > policy.deadline) throw err;
      hooks.onRetry?.(e, delay, attempt + 1);
      await sleep(delay, hooks.signal);
    }
  }
}
