/**
 * Retry in place (jobs/sources/retry.ts): Retry-After in both RFC 9110 forms,
 * the jittered exponential delays, which failures are retried within the
 * call, the deadline; then downloads against a real HTTP server on
 * 127.0.0.1: a 429 with Retry-After waited out (the gap measured at the
 * server), a 403 failing at once with the server's own words, a 404 of an
 * unpublished run left to the job's backoff.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { HttpFetchOptions } from '../../jobs/job-types.js';
import { downloadFile } from '../../jobs/sources/http-download.js';
import { explanation } from '../../jobs/sources/refusal.js';
import { parseRetryAfter, retriesInPlace, retryDelayMs, retryInPlace } from '../../jobs/sources/retry.js';
import { SourceError, statusError } from '../../jobs/sources/source-error.js';
import { dataFile, describeShared } from '../support/shared-data.js';
import { startFileServer, type FileServer } from './support/file-server.js';

describe('retry policy', () => {
  it('Retry-After: delay-seconds or an HTTP-date; anything else is ignored', () => {
    const now = Date.parse('Wed, 21 Oct 2015 07:28:00 GMT');
    expect(parseRetryAfter('120', now)).toBe(120_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    // RFC 9110's own example date, 90 s after `now`.
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:29:30 GMT', now)).toBe(90_000);
    expect(parseRetryAfter('Wed, 21 Oct 2015 07:27:00 GMT', now)).toBe(0); // in the past: at once
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
    expect(parseRetryAfter(null, now)).toBeUndefined();
  });

  it('delays: min(max, first × 2^n), between half and all of it, never under Retry-After', () => {
    const p = { firstDelayMs: 1000, maxDelayMs: 120_000 };
    expect([0, 1, 2, 3].map((n) => retryDelayMs(n, p, undefined, () => 0))).toEqual([500, 1000, 2000, 4000]);
    expect([0, 1, 2, 3].map((n) => retryDelayMs(n, p, undefined, () => 1))).toEqual([1000, 2000, 4000, 8000]);
    expect(retryDelayMs(20, p, undefined, () => 1)).toBe(120_000);
    expect(retryDelayMs(0, p, 30_000, () => 1)).toBe(30_000);
    expect(retryDelayMs(3, p, 100, () => 0)).toBe(4000);
  });

  it('retried in place: 408, 429, 5xx, network, timeouts, short bodies; not other 4xx, a run not yet published, a checksum', () => {
    const u = 'http://x/f';
    for (const s of [408, 429, 500, 502, 503, 504]) expect(retriesInPlace(statusError(u, s, 'retry')), String(s)).toBe(true);
    for (const s of [400, 401, 403, 404, 410, 425]) expect(retriesInPlace(statusError(u, s, 'fail')), String(s)).toBe(false);
    expect(retriesInPlace(statusError(u, 404, 'retry'))).toBe(false); // NOT_PUBLISHED: the job's backoff, minutes later
    for (const code of ['NETWORK', 'TIMEOUT', 'LENGTH_MISMATCH'] as const) expect(retriesInPlace(new SourceError(code, 'x', true))).toBe(true);
    expect(retriesInPlace(new SourceError('CHECKSUM_MISMATCH', 'x', true))).toBe(false);
    expect(retriesInPlace(new Error('plain'))).toBe(false);
  });

  it('gives up before a retry that would start after the deadline, with the last error', async () => {
    let calls = 0;
    const err = await retryInPlace(async () => {
      calls++;
      throw statusError('http://x/f', 503, 'fail', { retryAfterMs: 60_000 });
    }, { deadline: Date.now() + 5_000, firstDelayMs: 1, maxDelayMs: 2 }).catch((e: unknown) => e);
    expect(calls).toBe(1); // a 60 s Retry-After does not fit in 5 s: no waiting at all
    expect((err as SourceError).message).toBe('http://x/f: HTTP 503');
    let n = 0;
    const ok = await retryInPlace(async (attempt) => {
      n++;
      if (attempt < 3) throw new SourceError('NETWORK', 'reset', true);
      return 'done';
    }, { deadline: Date.now() + 5_000, firstDelayMs: 1, maxDelayMs: 4 });
    expect([ok, n]).toEqual(['done', 4]);
  });

  it("a server's explanation: problem JSON, message JSON, S3 XML, plain text; HTML pages say nothing", () => {
    expect(explanation('{"type":"x","title":"required licences not accepted","detail":"accept them on the dataset page"}')).toBe('required licences not accepted: accept them on the dataset page');
    expect(explanation('{"message":"Rate limit exceeded"}')).toBe('Rate limit exceeded');
    expect(explanation('<?xml version="1.0"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>')).toBe('Access Denied');
    expect(explanation('Forbidden: no access to this run\nmore')).toBe('Forbidden: no access to this run');
    expect(explanation('<html><body>x</body></html>')).toBe('');
    expect(explanation('x'.repeat(1000))).toHaveLength(301);
  });
});

describeShared('downloads retried in place', () => {
  let server: FileServer;
  let dir: string;
  const ifs = () => readFileSync(dataFile('ifs-hres-t2m-italy/alternate-scanning.grib'));
  const OPTS: HttpFetchOptions = { maxBytes: 10_000_000, headersMs: 2000, idleMs: 1000, totalMs: 20_000, parallel: 1, notFound: 'retry', checksumAlgorithm: 'sha256' };
  const policy = () => ({ deadline: Date.now() + 20_000, firstDelayMs: 10, maxDelayMs: 50 });

  beforeAll(async () => {
    server = await startFileServer();
  });
  afterAll(() => server.close());
  beforeEach(() => {
    server.reset();
    dir = mkdtempSync(join(tmpdir(), 'mp-retry-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('a 429 with Retry-After: 1 is waited out (≥ 1 s between the two requests, at the server), then the file arrives whole', async () => {
    server.routes.set('/a.grib', { body: ifs(), failFirst: { count: 1, status: 429, retryAfter: '1' } });
    const waits: number[] = [];
    await downloadFile({ url: server.url('/a.grib'), dest: join(dir, 'a.grib'), decompress: 'none', options: OPTS, retry: policy(), onRetry: (_e, ms) => waits.push(ms) });
    const [first, second] = server.times('/a.grib');
    expect(second! - first!).toBeGreaterThanOrEqual(1000);
    expect(waits).toHaveLength(1);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(readFileSync(join(dir, 'a.grib')))).toBe(sha(ifs()));
  });

  it('a 403 fails at once with what the server said; a 404 of an unpublished run is left to the job', async () => {
    server.routes.set('/f', { body: Buffer.alloc(0), status: 403, message: 'Forbidden: this mirror serves Italy only' });
    const err = (await downloadFile({ url: server.url('/f'), dest: join(dir, 'f'), decompress: 'none', options: OPTS, retry: policy() }).catch((e: unknown) => e)) as SourceError;
    expect(err).toMatchObject({ code: 'HTTP_STATUS', transient: false });
    expect(err.message).toBe(`${server.url('/f')}: HTTP 403 (Forbidden: this mirror serves Italy only)`);
    expect(server.hits('/f')).toBe(1);
    const gone = (await downloadFile({ url: server.url('/g'), dest: join(dir, 'g'), decompress: 'none', options: OPTS, retry: policy() }).catch((e: unknown) => e)) as SourceError;
    expect(gone).toMatchObject({ code: 'NOT_PUBLISHED', transient: true });
    expect(server.hits('/g')).toBe(1);
  });
});
