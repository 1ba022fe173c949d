/**
 * Downloads one file over HTTP(S) so that nothing half-downloaded is ever
 * taken as complete: the body streams into `<dest>.part` (through `bzip2 -dc`
 * when asked), the byte count is checked against Content-Length and the size
 * limit, the digest against a published checksum, the file is fsynced, and
 * only then renamed to `dest`. A file under its final name is therefore
 * complete, and a retry reuses it.
 *
 * Three timeouts keep a stalled server from hanging a worker: until the
 * response headers (covers connect), between two body chunks (idle), and for
 * the whole file (total). A failed try is retried in place (retry.ts) when
 * the request carries a retry policy: each try starts again from an empty
 * `.part`.
 */
import { createHash, type Hash } from 'node:crypto';
import { createWriteStream, type WriteStream } from 'node:fs';
import { rm, stat } from 'node:fs/promises';
import { Readable, Transform, type TransformCallback } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import type { ChecksumAlgorithm, Decompress, HttpFetchOptions } from '../job-types.js';
import { bunzip2, type Bunzip2 } from './bzip2.js';
import { parseChecksumFile } from './checksum.js';
import { commitFile } from './commit-file.js';
import { refusal } from './refusal.js';
import { retryInPlace, type RetryHooks, type RetryPolicy } from './retry.js';
import { SourceError } from './source-error.js';

export interface DownloadRequest {
  url: string;
  /** Final path; `<dest>.part` while downloading. */
  dest: string;
  decompress: Decompress;
  checksumUrl?: string;
  options: HttpFetchOptions;
  /** The job's signal (worker shutdown): aborts the transfer with the signal's reason. */
  signal?: AbortSignal;
  /** Bytes received so far on this file (for progress). */
  onBytes?: (received: number, total: number | undefined) => void;
  /** Retry failed tries in place until this policy's deadline; without it, one try. */
  retry?: RetryPolicy;
  onRetry?: RetryHooks['onRetry'];
  /** Extra request headers (a source's basic-auth Authorization): never logged, never in the job data. */
  headers?: Readonly<Record<string, string>>;
}

export interface DownloadResult {
  path: string;
  /** Bytes as served (compressed), 0 when reused. */
  receivedBytes: number;
  reused: boolean;
}

/** One request's abort controller and its three timers. */
class Deadline {
  readonly ctl = new AbortController();
  private idle?: NodeJS.Timeout;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly onJobAbort = () => this.ctl.abort(this.jobSignal!.reason);

  constructor(
    private readonly url: string,
    private readonly o: HttpFetchOptions,
    private readonly jobSignal?: AbortSignal,
  ) {
    if (jobSignal?.aborted) this.ctl.abort(jobSignal.reason);
    jobSignal?.addEventListener('abort', this.onJobAbort, { once: true });
    this.timers.push(this.after(o.headersMs, `no response headers within ${o.headersMs / 1000} s`));
    this.timers.push(this.after(o.totalMs, `download not finished within ${o.totalMs / 1000} s`));
  }

  private after(ms: number, what: string): NodeJS.Timeout {
    return setTimeout(() => this.ctl.abort(new SourceError('TIMEOUT', `${this.url}: ${what}`, true)), ms);
  }

  headersArrived(): void {
    clearTimeout(this.timers[0]);
    this.touch();
  }

  /** Called on every body chunk: the idle timeout counts from the last one. */
  touch(): void {
    clearTimeout(this.idle);
    this.idle = this.after(this.o.idleMs, `no data for ${this.o.idleMs / 1000} s`);
  }

  dispose(): void {
    for (const t of this.timers) clearTimeout(t);
    clearTimeout(this.idle);
    this.jobSignal?.removeEventListener('abort', this.onJobAbort);
  }

  /** The error to report for a failure while this request ran. */
  explain(err: unknown): unknown {
    if (this.ctl.signal.aborted) return this.ctl.signal.reason;
    if (err instanceof SourceError) return err;
    const cause = (err as { cause?: { code?: string; message?: string } }).cause;
    const detail = cause?.code ?? cause?.message ?? (err as Error).message;
    return new SourceError('NETWORK', `${this.url}: ${detail}`, true, { cause: err });
  }
}

async function request(url: string, d: Deadline, notFound: 'retry' | 'fail', headers?: Readonly<Record<string, string>>): Promise<Response> {
  let res: Response;
  try {
    // identity: Content-Length must describe the bytes we count.
    res = await fetch(url, { signal: d.ctl.signal, headers: { ...headers, 'accept-encoding': 'identity', 'user-agent': 'meteopunto-ingest' } });
  } catch (err) {
    throw d.explain(err);
  }
  d.headersArrived();
  if (!res.ok) throw await refusal(url, res, notFound);
  return res;
}

/** Counts, hashes and size-limits the bytes as served, and feeds the idle timer. */
class Meter extends Transform {
  bytes = 0;
  constructor(
    private readonly hash: Hash | undefined,
    private readonly limit: number,
    private readonly label: string,
    private readonly onChunk: (bytes: number) => void,
  ) {
    super();
  }
  override _transform(chunk: Buffer, _enc: BufferEncoding, cb: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.limit) {
      cb(new SourceError('TOO_LARGE', `${this.label}: larger than the limit of ${this.limit} bytes`, false));
      return;
    }
    this.hash?.update(chunk);
    this.onChunk(this.bytes);
    cb(null, chunk);
  }
}

async function fetchChecksum(url: string, fileName: string, algorithm: ChecksumAlgorithm, o: HttpFetchOptions, signal?: AbortSignal, headers?: Readonly<Record<string, string>>): Promise<string> {
  const d = new Deadline(url, o, signal);
  try {
    const res = await request(url, d, o.notFound, headers);
    const text = await res.text().catch((err: unknown) => {
      throw d.explain(err);
    });
    if (text.length > 1_000_000) throw new SourceError('HTTP_STATUS', `${url}: checksum file larger than 1 MB`, false);
    try {
      return parseChecksumFile(text, fileName, algorithm);
    } catch (err) {
      throw new SourceError('CHECKSUM_MISMATCH', `${url}: ${(err as Error).message}`, false);
    }
  } finally {
    d.dispose();
  }
}

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

export async function downloadFile(req: DownloadRequest): Promise<DownloadResult> {
  const { url, dest, options: o } = req;
  if (await exists(dest)) return { path: dest, receivedBytes: 0, reused: true };
  const servedName = decodeURIComponent(new URL(url).pathname.split('/').pop() ?? '');
  const policy = req.retry ?? { deadline: 0, firstDelayMs: 0, maxDelayMs: 0 };
  const hooks = { ...(req.signal ? { signal: req.signal } : {}), ...(req.onRetry ? { onRetry: req.onRetry } : {}) };
  const checksumUrl = req.checksumUrl;
  const expectedDigest = checksumUrl ? await retryInPlace(() => fetchChecksum(checksumUrl, servedName, o.checksumAlgorithm, o, req.signal, req.headers), policy, hooks) : undefined;
  return retryInPlace(() => downloadOnce(req, expectedDigest), policy, hooks);
}

/** One try: stream into `<dest>.part`, check, fsync, rename; nothing left behind on failure. */
async function downloadOnce(req: DownloadRequest, expectedDigest: string | undefined): Promise<DownloadResult> {
  const { url, dest, options: o } = req;
  const part = `${dest}.part`;
  const d = new Deadline(url, o, req.signal);
  let bz: Bunzip2 | undefined;
  let meter: Meter | undefined;
  let expected: number | undefined;
  let out: WriteStream | undefined;
  try {
    const res = await request(url, d, o.notFound, req.headers);
    const encoded = (res.headers.get('content-encoding') ?? 'identity') !== 'identity';
    const lengthHeader = res.headers.get('content-length');
    expected = lengthHeader !== null && !encoded ? Number(lengthHeader) : undefined;
    if (expected !== undefined && expected > o.maxBytes) {
      await res.body?.cancel().catch(() => {});
      throw new SourceError('TOO_LARGE', `${url}: ${expected} bytes, over the limit of ${o.maxBytes}`, false);
    }
    if (!res.body) throw new SourceError('LENGTH_MISMATCH', `${url}: empty response`, true);
    const hash = expectedDigest ? createHash(o.checksumAlgorithm) : undefined;
    meter = new Meter(hash, o.maxBytes, url, (n) => {
      d.touch();
      req.onBytes?.(n, expected);
    });
    const body = Readable.fromWeb(res.body as unknown as NodeReadableStream<Uint8Array>);
    out = createWriteStream(part);
    if (req.decompress === 'bzip2') {
      bz = bunzip2(url);
      const unpacked = new Meter(undefined, o.maxBytes, `${url} (decompressed)`, () => {});
      const child = bz;
      // Safety net: whatever stalls, the total timeout (or the job's cancellation) ends bzip2 too.
      d.ctl.signal.addEventListener('abort', () => child.kill(), { once: true });
      // A failed pipeline (limit, timeout) must not leave bzip2 waiting on its stdin.
      const piping = pipeline(body, meter, bz.stream, unpacked, out as WriteStream).catch((e: unknown) => {
        child.kill();
        throw e;
      });
      const [piped, unzipped] = await Promise.allSettled([piping, bz.done]);
      // bzip2 dying breaks the pipe (EPIPE, premature close): then its own complaint is the reason.
      const brokenPipe = piped.status === 'rejected' && ['EPIPE', 'ERR_STREAM_PREMATURE_CLOSE'].includes((piped.reason as NodeJS.ErrnoException).code ?? '');
      if (piped.status === 'rejected' && !brokenPipe) throw piped.reason;
      if (unzipped.status === 'rejected') throw unzipped.reason;
      if (piped.status === 'rejected') throw piped.reason;
    } else {
      await pipeline(body, meter, out);
    }
    if (expected !== undefined && meter.bytes !== expected) {
      throw new SourceError('LENGTH_MISMATCH', `${url}: received ${meter.bytes} of ${expected} bytes`, true);
    }
    if (hash && expectedDigest) {
      const got = hash.digest('hex');
      if (got !== expectedDigest) {
        throw new SourceError('CHECKSUM_MISMATCH', `${url}: ${o.checksumAlgorithm} ${got} does not match the published ${expectedDigest}`, true);
      }
    }
    await commitFile(part, dest);
    return { path: dest, receivedBytes: meter.bytes, reused: false };
  } catch (err) {
    bz?.kill();
    // A stream that failed while still opening would create the .part file after rm: close it first.
    if (out && !out.closed) await new Promise<void>((done) => out!.once('close', () => done()).destroy());
    await rm(part, { force: true });
    let reported = d.explain(err);
    // A connection cut short before Content-Length was reached is a truncated body, whatever undici calls it.
    if (reported instanceof SourceError && reported.code === 'NETWORK' && expected !== undefined && meter && meter.bytes < expected) {
      reported = new SourceError('LENGTH_MISMATCH', `${url}: received ${meter.bytes} of ${expected} bytes`, true, { cause: err });
    }
    throw reported;
  } finally {
    d.dispose();
  }
}
