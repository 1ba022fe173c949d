/**
 * HTTP downloads against a real server on 127.0.0.1 serving real GRIB files:
 * success (plain and bzip2), Content-Length and checksum verification, the
 * three timeouts, status classification, the size limit, and that nothing
 * half-downloaded ever appears under the final name.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { HttpFetchOptions } from '../../jobs/job-types.js';
import { downloadFile } from '../../jobs/sources/http-download.js';
import { fetchHttpFiles } from '../../jobs/sources/http.js';
import { SourceError } from '../../jobs/sources/source-error.js';
import { dataFile, describeShared } from '../support/shared-data.js';
import { startFileServer, type FileServer } from './support/file-server.js';

const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const OPTS: HttpFetchOptions = { maxBytes: 10_000_000, headersMs: 2000, idleMs: 400, totalMs: 20_000, parallel: 2, notFound: 'retry', checksumAlgorithm: 'sha256' };

async function failure(p: Promise<unknown>): Promise<SourceError> {
  const err = await p.then(
    () => undefined,
    (e: unknown) => e,
  );
  if (!(err instanceof SourceError)) throw new Error(`expected a SourceError, got ${String(err)}`);
  return err;
}

describeShared('HTTP source', () => {
  let server: FileServer;
  let dir: string;
  const ifs = () => readFileSync(dataFile('ifs-hres-t2m-italy/alternate-scanning.grib'));

  beforeAll(async () => {
    server = await startFileServer();
  });
  afterAll(async () => {
    await server.close();
  });
  beforeEach(() => {
    server.reset();
    dir = mkdtempSync(join(tmpdir(), 'mp-http-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('downloads a real GRIB byte for byte and names it only when complete', async () => {
    server.routes.set('/a.grib', { body: ifs() });
    const r = await downloadFile({ url: server.url('/a.grib'), dest: join(dir, 'a.grib'), decompress: 'none', options: OPTS });
    expect(r).toMatchObject({ receivedBytes: ifs().length, reused: false });
    expect(sha256(readFileSync(join(dir, 'a.grib')))).toBe(sha256(ifs()));
    expect(readdirSync(dir)).toEqual(['a.grib']);
    // A second call finds the complete file and does not fetch again.
    const again = await downloadFile({ url: server.url('/a.grib'), dest: join(dir, 'a.grib'), decompress: 'none', options: OPTS });
    expect(again.reused).toBe(true);
    expect(server.hits('/a.grib')).toBe(1);
  });

  it('decompresses bzip2 with bzip2 -dc and verifies the published checksum of the compressed bytes', async () => {
    const packed = execFileSync('bzip2', ['-c', dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib')]);
    server.routes.set('/e.grib.bz2', { body: packed });
    server.routes.set('/e.grib.bz2.sha256', { body: Buffer.from(`${sha256(packed)}  e.grib.bz2\n`) });
    await downloadFile({ url: server.url('/e.grib.bz2'), dest: join(dir, 'e.grib'), decompress: 'bzip2', checksumUrl: server.url('/e.grib.bz2.sha256'), options: OPTS });
    expect(sha256(readFileSync(join(dir, 'e.grib')))).toBe(sha256(readFileSync(dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib'))));
  });

  it('a checksum mismatch is transient and leaves nothing behind', async () => {
    server.routes.set('/a.grib', { body: ifs() });
    server.routes.set('/a.grib.sha256', { body: Buffer.from(`${'0'.repeat(64)}  a.grib\n`) });
    const err = await failure(downloadFile({ url: server.url('/a.grib'), dest: join(dir, 'a.grib'), decompress: 'none', checksumUrl: server.url('/a.grib.sha256'), options: OPTS }));
    expect(err.code).toBe('CHECKSUM_MISMATCH');
    expect(err.transient).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a corrupt bzip2 stream fails with bzip2’s complaint', async () => {
    const packed = execFileSync('bzip2', ['-c', dataFile('ifs-hres-t2m-italy/alternate-scanning.grib')]);
    packed.fill(0x55, 200, 400);
    server.routes.set('/x.bz2', { body: packed });
    const err = await failure(downloadFile({ url: server.url('/x.bz2'), dest: join(dir, 'x'), decompress: 'bzip2', options: OPTS }));
    expect(err.code).toBe('DECOMPRESS');
    expect(err.message).toMatch(/bzip2 -dc failed/);
    expect(existsSync(join(dir, 'x'))).toBe(false);
  });

  it('a truncated body (Content-Length not reached) is a transient LENGTH_MISMATCH', async () => {
    server.routes.set('/t.grib', { body: ifs(), truncate: { bytes: 10_000, count: Infinity } });
    const err = await failure(downloadFile({ url: server.url('/t.grib'), dest: join(dir, 't.grib'), decompress: 'none', options: OPTS }));
    expect(err.code).toBe('LENGTH_MISMATCH');
    expect(err.message).toContain(`of ${ifs().length} bytes`);
    expect(err.transient).toBe(true);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('a stalled body hits the idle timeout; a server that never answers hits the headers timeout', async () => {
    server.routes.set('/s.grib', { body: ifs(), stallFirst: 1 });
    const idle = await failure(downloadFile({ url: server.url('/s.grib'), dest: join(dir, 's.grib'), decompress: 'none', options: OPTS }));
    expect(idle.code).toBe('TIMEOUT');
    expect(idle.message).toMatch(/no data for 0.4 s/);
    expect(readdirSync(dir)).toEqual([]);

    // A TCP listener that accepts and never writes a byte.
    const { createServer } = await import('node:net');
    const mute = createServer(() => {});
    await new Promise<void>((ok) => mute.listen(0, '127.0.0.1', ok));
    const port = (mute.address() as { port: number }).port;
    try {
      const hdr = await failure(downloadFile({ url: `http://127.0.0.1:${port}/x`, dest: join(dir, 'x'), decompress: 'none', options: { ...OPTS, headersMs: 300 } }));
      expect(hdr.code).toBe('TIMEOUT');
      expect(hdr.message).toMatch(/no response headers within 0.3 s/);
    } finally {
      mute.close();
    }
  });

  it('classifies statuses: 5xx/429 transient, 404 "not published" (or permanent if configured), other 4xx permanent', async () => {
    const status = async (code: number, notFound: 'retry' | 'fail' = 'retry') => {
      server.routes.set('/s', { body: Buffer.alloc(0), status: code });
      return failure(downloadFile({ url: server.url('/s'), dest: join(dir, 's'), decompress: 'none', options: { ...OPTS, notFound } }));
    };
    expect(await status(503)).toMatchObject({ code: 'HTTP_STATUS', transient: true });
    expect(await status(429)).toMatchObject({ code: 'HTTP_STATUS', transient: true });
    expect(await status(404)).toMatchObject({ code: 'NOT_PUBLISHED', transient: true });
    expect(await status(404, 'fail')).toMatchObject({ code: 'HTTP_STATUS', transient: false });
    expect(await status(403)).toMatchObject({ code: 'HTTP_STATUS', transient: false });
    const { freePort } = await import('../support/redis-server.js');
    const closed = await freePort(); // free a moment ago: nothing listens there
    const refused = await failure(downloadFile({ url: `http://127.0.0.1:${closed}/x`, dest: join(dir, 'x'), decompress: 'none', options: OPTS }));
    expect(refused).toMatchObject({ code: 'NETWORK', transient: true });
    expect(refused.message).toMatch(/ECONNREFUSED/);
  });

  it('refuses a file over the size limit, permanently, by header and by counted bytes', async () => {
    server.routes.set('/a.grib', { body: ifs() });
    const byHeader = await failure(downloadFile({ url: server.url('/a.grib'), dest: join(dir, 'a'), decompress: 'none', options: { ...OPTS, maxBytes: 1000 } }));
    expect(byHeader).toMatchObject({ code: 'TOO_LARGE', transient: false });
    // Decompressed size counts too: the bz2 is small, its content is not.
    const packed = execFileSync('bzip2', ['-c'], { input: Buffer.alloc(200_000) });
    server.routes.set('/z.bz2', { body: packed });
    const unpacked = await failure(downloadFile({ url: server.url('/z.bz2'), dest: join(dir, 'z'), decompress: 'bzip2', options: { ...OPTS, maxBytes: 100_000 } }));
    expect(unpacked).toMatchObject({ code: 'TOO_LARGE', transient: false });
    expect(unpacked.message).toMatch(/decompressed/);
    expect(readdirSync(dir)).toEqual([]);
  });

  it('fetches a run’s files in parallel; a leftover .part from a killed attempt is deleted, not used', async () => {
    server.routes.set('/1.grib', { body: ifs() });
    server.routes.set('/2.grib', { body: readFileSync(dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib')) });
    writeFileSync(join(dir, '1.grib.part'), ifs().subarray(0, 100)); // what a SIGKILL mid-download leaves
    const files = ['/1.grib', '/2.grib'].map((p) => ({ url: server.url(p), name: p.slice(1), decompress: 'none' as const }));
    const fractions: number[] = [];
    const r = await fetchHttpFiles(files, OPTS, { dir, onProgress: (f) => fractions.push(f) });
    expect(r.paths).toEqual([join(dir, '1.grib'), join(dir, '2.grib')]);
    expect(readdirSync(dir).sort()).toEqual(['1.grib', '2.grib']);
    expect(sha256(readFileSync(join(dir, '1.grib')))).toBe(sha256(ifs()));
    expect(fractions.at(-1)).toBe(1);
  });

  it('one failing file stops the run and reports that file', async () => {
    server.routes.set('/1.grib', { body: ifs() });
    server.routes.set('/2.grib', { body: ifs(), status: 403 });
    const files = ['/1.grib', '/2.grib'].map((p) => ({ url: server.url(p), name: p.slice(1), decompress: 'none' as const }));
    const err = await failure(fetchHttpFiles(files, { ...OPTS, parallel: 1 }, { dir }));
    expect(err.message).toContain('/2.grib: HTTP 403');
  });
});
