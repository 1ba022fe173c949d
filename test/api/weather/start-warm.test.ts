/**
 * The start warm-up (api/weather/start-warm.ts): its own GETs are weather.php
 * at points over the region with a warm-up key, answered 200, in several
 * header sets; the key is refused once the warm-up is over. Its log: its own
 * GETs (and its lookups, which are no requests) write no line; a client's request
 * answered while it runs (here: between two halves of its GETs) logs as any
 * other, even one that sends the warm-up's header with a value of its own:
 * only the process's random token marks a warm-up request. Both request-log
 * formats (api/request-log.ts).
 */
import type { AddressInfo } from 'node:net';
import { describe, expect, it, vi } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { WARM_UP_HEADER, isWarmUpRequest, startWarm } from '../../../api/weather/start-warm.js';
import { HOUR_MS, T0_MS, mainFixtureApp, testAccess } from '../tile-fixture.js';

/** A value a client could send; the real token is 32 random hex digits, so not this one. */
const GUESS = '0'.repeat(32);

/** What runs between the two halves of the warm-up's GETs (set by a test), and the headers the warm-up sent. */
const between: { fn?: (headers: Record<string, string>) => Promise<void>; headers?: Record<string, string>; sets?: number } = {};

vi.mock('../../../api/weather/warm-http.js', async (importOriginal) => {
  const real = await importOriginal<typeof import('../../../api/weather/warm-http.js')>();
  return {
    ...real,
    warmHttp: async (...[host, port, requests, opts = {}]: Parameters<typeof real.warmHttp>) => {
      const half = Math.floor(requests / 2);
      const a = await real.warmHttp(host, port, half, opts);
      const sets = Array.isArray(opts.headers) ? opts.headers : [opts.headers ?? {}];
      const first: Record<string, string> = { ...sets[0] };
      between.headers = first;
      between.sets = sets.length;
      await between.fn?.(first);
      const b = await real.warmHttp(host, port, requests - half, opts);
      return { requests: a.requests + b.requests, errors: a.errors + b.errors, ms: a.ms + b.ms };
    },
  };
});

describe.each([
  { format: 'pino JSON, a line in and a line out per request', requestLines: false, linesPerRequest: 2 },
  { format: 'one line per answered request', requestLines: true, linesPerRequest: 1 },
])('startWarm, log as $format', ({ requestLines, linesPerRequest }) => {
  const nowMs = T0_MS + 10 * HOUR_MS;
  const fx = mainFixtureApp('business', nowMs);

  it('logs the requests of a client answered during the warm-up, none of the warm-up\'s own', async () => {
    const lines: Record<string, unknown>[] = [];
    const logger = { level: 'info', stream: { write: (s: string) => void lines.push(JSON.parse(s) as Record<string, unknown>) } };
    const app = await buildApp({ dataDir: fx.dir, access: testAccess(fx.dir), clock: () => nowMs, logger, requestLines });
    const gets = 120;
    let warmUpGets = 0;
    const warmUpAnswers: Record<string, number> = {};
    app.addHook('onResponse', async (req, reply) => {
      const mark = req.headers[WARM_UP_HEADER];
      if (mark === undefined || mark === GUESS) return;
      warmUpGets++;
      const what = `${req.routeOptions.url} ${reply.statusCode}`;
      warmUpAnswers[what] = (warmUpAnswers[what] ?? 0) + 1;
    });
    // Between the two halves of the warm-up's GETs, a client's two requests: they are answered while it runs.
    let client: { statuses: number[]; warming: boolean; tokenRecognised: boolean } | undefined;
    between.fn = async (sent) => {
      const base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
      const res = await Promise.all([fetch(`${base}/`), fetch(`${base}/`, { headers: { [WARM_UP_HEADER]: GUESS } })]);
      client = { statuses: res.map((r) => r.status), warming: app.startWarming!(), tokenRecognised: isWarmUpRequest({ headers: sent }) };
    };
    try {
      const warm = startWarm(app, { nowMs, lookups: 200, gets });
      await app.listen({ port: 0, host: '127.0.0.1' });
      await warm.run();
      expect(client).toEqual({ statuses: [200, 200], warming: true, tokenRecognised: true });
      // The token: 128 random bits, recognised only while a warm-up runs.
      expect(between.headers![WARM_UP_HEADER]).toMatch(/^[0-9a-f]{32}$/);
      expect(isWarmUpRequest({ headers: between.headers! })).toBe(false);
      expect(warmUpGets).toBe(gets);
      // All of them weather.php, served, through the key check and the quota (rate-limit headers need both).
      expect(warmUpAnswers).toEqual({ '/api/v1/weather.php 200': gets });
      expect(between.sets).toBe(5);
      const ready = lines.find((l) => l.msg === 'tile cache warm: ready')!;
      expect(ready).toMatchObject({ lookups: 200, lookupErrors: 0, gets, getErrors: 0 });
      // Request lines carry the request's id: two requests, the client's, and nothing of the warm-up's.
      const requestLinesSeen = lines.filter((l) => l.reqId !== undefined);
      expect(new Set(requestLinesSeen.map((l) => l.reqId)).size).toBe(2);
      expect(requestLinesSeen).toHaveLength(2 * linesPerRequest);
      const answered = requestLines
        ? requestLinesSeen.filter((l) => /^GET \/ 200 /.test(String(l.msg)))
        : requestLinesSeen.filter((l) => l.msg === 'request completed' && (l.res as { statusCode: number }).statusCode === 200);
      expect(answered).toHaveLength(2);
      // The warm-up's key: a weather.php key of the Business plan (api/access/key-format.ts), refused once the warm-up is over
      // (after the lines above: this request logs).
      const key = between.headers!['x-api-key']!;
      expect(key).toMatch(/^mp_/);
      const after = await app.inject({ url: '/api/v1/weather.php?lat=45.46&lon=9.19', headers: { 'x-api-key': key } });
      expect(after.statusCode).toBe(401);
    } finally {
      await app.close();
    }
  });
});

describe('isWarmUpRequest', () => {
  it('is false without the header, with a guessed value, and for any value while no warm-up runs', () => {
    expect(isWarmUpRequest({ headers: {} })).toBe(false);
    expect(isWarmUpRequest({ headers: { [WARM_UP_HEADER]: GUESS } })).toBe(false);
    expect(isWarmUpRequest({ headers: { [WARM_UP_HEADER]: 'a'.repeat(32) } })).toBe(false);
  });
});
