/**
 * A source that could not deliver its files. `transient` errors (network,
 * 5xx, timeouts, truncated or corrupted transfers, a run not published yet)
 * are retried with backoff; the others (4xx, a file over the size limit, a
 * missing local file) fail the job at once with this message.
 */
export type SourceErrorCode =
  | 'NETWORK' // connection refused/reset, DNS
  | 'HTTP_STATUS' // non-2xx answer
  | 'NOT_PUBLISHED' // 404 while the run may still appear
  | 'TIMEOUT' // headers, idle or total timeout
  | 'LENGTH_MISMATCH' // body shorter/longer than Content-Length
  | 'CHECKSUM_MISMATCH'
  | 'TOO_LARGE'
  | 'DECOMPRESS' // bzip2 failed on the received bytes
  | 'MISSING_TOOL' // bzip2 not installed
  | 'NO_FILES' // local file missing, inbox claim vanished
  | 'NO_CREDENTIALS'; // the API key's environment variable is not set

export class SourceError extends Error {
  constructor(
    readonly code: SourceErrorCode,
    message: string,
    readonly transient: boolean,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'SourceError';
  }
}

/** Transient unless the status says the request itself is wrong (4xx other than 404/408/425/429). */
export function statusError(url: string, status: number, notFound: 'retry' | 'fail'): SourceError {
  if (status === 404 && notFound === 'retry') {
    return new SourceError('NOT_PUBLISHED', `${url}: 404 Not Found (run not published yet?)`, true);
  }
  const transient = status >= 500 || status === 408 || status === 425 || status === 429;
  return new SourceError('HTTP_STATUS', `${url}: HTTP ${status}`, transient);
}
