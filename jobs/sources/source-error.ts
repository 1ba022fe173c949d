/**
 * A source that could not deliver its files. `transient` errors (network,
 * 5xx, timeouts, truncated or corrupted transfers, a run not published yet)
 * are retried; the others (4xx, a file over the size limit, a missing local
 * file, a remote job that failed) fail the job at once with this message.
 * Which transient errors are also retried in place, within the call, is
 * decided in retry.ts. Every message passes the redaction rule
 * (config/redaction.ts) with the environment's credentials: a URL's token or
 * password, a key or a login a provider echoes, never reach the job's
 * failure reason (kept in Redis, shown by `jobs status`) or a log line.
 */
import { redactSecrets, secretValues } from '../../config/redaction.js';
import { processEnv } from '../../config/process-env.js';

export type SourceErrorCode =
  | 'NETWORK' // connection refused/reset, DNS
  | 'HTTP_STATUS' // non-2xx answer
  | 'NOT_PUBLISHED' // 404 while the run may still appear
  | 'TIMEOUT' // headers, idle or total timeout
  | 'LENGTH_MISMATCH' // body shorter/longer than Content-Length
  | 'CHECKSUM_MISMATCH'
  | 'TOO_LARGE'
  | 'DECOMPRESS' // bzip2 or unzip failed on the received bytes
  | 'MISSING_TOOL' // bzip2 not installed
  | 'NO_FILES' // local file missing, inbox claim vanished
  | 'NO_CREDENTIALS' // the API key's environment variable is not set
  | 'REMOTE_FAILED' // a provider-side job (ADS/CDS) failed, was rejected, dismissed or is in a state we do not know
  | 'BAD_ANSWER'; // an answer that does not follow the provider's documented format

export class SourceError extends Error {
  /** The HTTP status that caused it, when one did. */
  readonly status?: number;
  /** How long the server asked us to wait (its Retry-After), in ms. */
  readonly retryAfterMs?: number;

  constructor(
    readonly code: SourceErrorCode,
    message: string,
    readonly transient: boolean,
    options?: { cause?: unknown; status?: number; retryAfterMs?: number },
  ) {
    super(redactSecrets(message, secretValues(processEnv())), options?.cause === undefined ? undefined : { cause: options.cause });
    this.name = 'SourceError';
    if (options?.status !== undefined) this.status = options.status;
    if (options?.retryAfterMs !== undefined) this.retryAfterMs = options.retryAfterMs;
  }
}

/**
 * Transient unless the status says the request itself is wrong (4xx other
 * than 404/408/425/429). `detail` is the server's own explanation, quoted
 * into the message.
 */
export function statusError(url: string, status: number, notFound: 'retry' | 'fail', extra: { detail?: string; retryAfterMs?: number } = {}): SourceError {
  const opts = { status, ...(extra.retryAfterMs !== undefined ? { retryAfterMs: extra.retryAfterMs } : {}) };
  if (status === 404 && notFound === 'retry') {
    return new SourceError('NOT_PUBLISHED', `${url}: 404 Not Found (run not published yet?)`, true, opts);
  }
  const transient = status >= 500 || status === 408 || status === 425 || status === 429;
  return new SourceError('HTTP_STATUS', `${url}: HTTP ${status}${extra.detail ? ` (${extra.detail})` : ''}`, transient, opts);
}
