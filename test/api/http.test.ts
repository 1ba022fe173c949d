/**
 * Real HTTP: the app listening on a loopback port, and `meteopunto serve`
 * as a child process (port from the log, graceful shutdown on SIGTERM).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { parseServeArgs } from '../../api/cli.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp, TEST_KEY, installTestKey, keyedInject, testAccess } from './tile-fixture.js';

const ROOT = resolve(import.meta.dirname, '../..');
const Q = 'lat=43.123&lon=11.2345&alt=380';

describe('weather.php over real HTTP', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 10.5 * HOUR_MS });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('answers JSON with the Free fields, the same as inject()', async () => {
    const sent = performance.now();
    const res = await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&${Q}`);
    const roundTripMs = performance.now() - sent;
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const body = await res.json();
    const injected = (await keyedInject(app, `/api/v1/weather.php?${Q}`)).json();
    expect({ ...body, elapsed_ms: 0 }).toEqual({ ...injected, elapsed_ms: 0 });
    expect(body.temperature).toBe(27.4);
    // Server time on the request: within the client's round trip (a timing, so no closer value).
    expect(body.elapsed_ms).toBeGreaterThan(0);
    expect(body.elapsed_ms).toBeLessThanOrEqual(roundTripMs);
  });

  it('answers errors and unknown routes in the error shape', async () => {
    const bad = await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&lat=91&lon=11`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error.code).toBe('INVALID_PARAMETER');
    const none = await fetch(`${base}/api/v2/weather.php`);
    expect(none.status).toBe(404);
    expect(await none.json()).toEqual({ error: { code: 'NOT_FOUND', message: 'No such endpoint: GET /api/v2/weather.php' } });
  });

  it('serves many concurrent requests on keep-alive connections', async () => {
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) => fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&lat=${43.01 + n * 0.007}&lon=11.1&alt=200`).then((r) => r.status)),
    );
    expect(results.every((s) => s === 200)).toBe(true);
  });
});

describe('meteopunto serve', () => {
  it('parses --port/--host and PORT/HOST with 8080 and 127.0.0.1 as defaults', () => {
    expect(parseServeArgs([], {})).toMatchObject({ port: 8080, host: '127.0.0.1' });
    expect(parseServeArgs([], { PORT: '9000', HOST: '0.0.0.0' })).toMatchObject({ port: 9000, host: '0.0.0.0' });
    expect(parseServeArgs(['--port', '7000', '--host=::1'], { PORT: '9000' })).toMatchObject({ port: 7000, host: '::1' });
    expect(parseServeArgs(['--help'], {})).toBe('help');
    expect(() => parseServeArgs(['--port', '70000'], {})).toThrow("--port must be an integer 0..65535, got '70000'");
    expect(() => parseServeArgs([], { PORT: 'http' })).toThrow("PORT must be an integer 0..65535, got 'http'");
    expect(() => parseServeArgs(['--port'], {})).toThrow('--port needs a value');
    expect(() => parseServeArgs(['--verbose'], {})).toThrow("unknown option '--verbose'");
    expect(parseServeArgs([], { METEOPUNTO_TILE_CACHE_MB: '512' })).toMatchObject({ port: 8080, host: '127.0.0.1', cacheBytes: 512 * 1024 * 1024 });
    expect(() => parseServeArgs([], { METEOPUNTO_TILE_CACHE_MB: '1.5' })).toThrow('METEOPUNTO_TILE_CACHE_MB must be an integer');
    expect(parseServeArgs([], { METEOPUNTO_HISTORY_CACHE_MB: '1024' })).toMatchObject({ historyCacheBytes: 1024 * 1024 * 1024 });
    expect(parseServeArgs([], {})).not.toHaveProperty('historyCacheBytes');
    expect(() => parseServeArgs([], { METEOPUNTO_HISTORY_CACHE_MB: '8' })).toThrow("METEOPUNTO_HISTORY_CACHE_MB must be an integer ≥ 16 (MiB), got '8'");
    expect(parseServeArgs([], { METEOPUNTO_DECODE_THREADS: '0' })).toMatchObject({ decodeThreads: 0 });
    expect(parseServeArgs([], { METEOPUNTO_DECODE_THREADS: '3' })).toMatchObject({ decodeThreads: 3 });
    expect(() => parseServeArgs([], { METEOPUNTO_DECODE_THREADS: '-1' })).toThrow(/METEOPUNTO_DECODE_THREADS/);
  });

  it('listens, serves, and shuts down gracefully on SIGTERM', async () => {
    const data = tempDataDir();
    const published = Date.now();
    try {
      await writeMainNwp(data.dir);
      await installTestKey(data.dir);
      const child = spawn(
        process.execPath,
        ['--import', 'tsx', '-e', "import('./api/cli.ts').then((m) => m.run(['--port', '0', '--host', '127.0.0.1'])).then((c) => { process.exitCode = c; })"],
        { cwd: ROOT, env: { ...process.env, METEOPUNTO_DATA: data.dir, LOG_LEVEL: 'info', PORT: '', HOST: '', REDIS_URL: '' }, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      let out = '';
      child.stdout.on('data', (b: Buffer) => (out += b.toString()));
      child.stderr.on('data', (b: Buffer) => (out += b.toString()));
      const exited = new Promise<number | null>((ok) => child.once('exit', (code) => ok(code)));
      const base = await new Promise<string>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`serve did not start:\n${out}`)), 30_000);
        child.stdout.on('data', () => {
          const m = /listening at (http:\/\/127\.0\.0\.1:\d+)/i.exec(out);
          if (m) {
            clearTimeout(timer);
            ok(m[1]!);
          }
        });
        void exited.then((code) => fail(new Error(`serve exited with ${code}:\n${out}`)));
      });

      // A starting server reports 'warming' until its live versions are decoded; then only what holds for the data.
      let h: { status: string; reasons: Array<{ code: string }>; products: Record<string, Record<string, unknown>> };
      let status = 0;
      for (let i = 0; ; i++) {
        const health = await fetch(`${base}/healthz`);
        status = health.status;
        h = await health.json();
        if (!h.reasons.some((r) => r.code === 'warming')) break;
        if (i > 600) throw new Error('still warming after 60 s');
        await new Promise((r) => setTimeout(r, 100));
      }
      // the fixture's forecast ended in 2024: /healthz says so with 503 (was 200 "ok"), current conditions are unavailable, a past time= is served
      expect(status).toBe(503);
      expect(h.status).toBe('unavailable');
      expect(h.reasons.map((r) => r.code)).toEqual(['now_not_covered']);
      expect(h.products.nwp).toMatchObject({ available: true, sample: false, time_range: { from: '2024-06-21T00:00:00.000Z', to: '2024-06-22T00:00:00.000Z' }, covers_now: false });
      // Counted from the publication, which happened in this test.
      expect(h.products.nwp.age_seconds).toBeGreaterThanOrEqual(0);
      expect(h.products.nwp.age_seconds).toBeLessThanOrEqual(Math.ceil((Date.now() - published) / 1000));
      const stale = await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&lat=43.1&lon=11.2`);
      expect(stale.status).toBe(503);
      expect((await stale.json()).error.code).toBe('DATA_NOT_AVAILABLE');
      const past = await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&lat=43.1&lon=11.2&time=2024-06-21T12:00`);
      expect(past.status).toBe(200);

      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(out).toContain('shutting down');
    } finally {
      data.cleanup();
    }
  });
});
