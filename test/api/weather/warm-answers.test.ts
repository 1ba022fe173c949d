/**
 * A starting server's warm-up (api/weather/warm-answers.ts, warm-http.ts):
 * the synthetic lookups spread over the region and answered through the real
 * service on a real store, nothing counted in the key's quota; /healthz not
 * ready while it runs; the loopback GETs answered by a real HTTP server.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PLANS } from '../../../api/access/contract.js';
import { warmAppAnswers, warmRequests } from '../../../api/weather/warm-answers.js';
import { warmHttp } from '../../../api/weather/warm-http.js';
import { startWarm } from '../../../api/weather/start-warm.js';
import { buildApp } from '../../../api/app.js';
import { HOUR_MS, NWP_GRID, T0_MS, keyedInject, mainFixtureApp, testAccess } from '../tile-fixture.js';

describe('warmRequests', () => {
  const bbox = [7, 37, 18, 46.5] as const;
  const reqs = warmRequests(bbox, 600);

  it('puts every point inside the box, as many in each quarter of it (±10 %), none twice', () => {
    expect(reqs).toHaveLength(600);
    const quarters = [0, 0, 0, 0];
    for (const r of reqs) {
      expect(r.lon).toBeGreaterThanOrEqual(7);
      expect(r.lon).toBeLessThanOrEqual(18);
      expect(r.lat).toBeGreaterThanOrEqual(37);
      expect(r.lat).toBeLessThanOrEqual(46.5);
      quarters[(r.lon < 12.5 ? 0 : 1) + (r.lat < 41.75 ? 0 : 2)]!++;
    }
    for (const q of quarters) expect(Math.abs(q - 150)).toBeLessThanOrEqual(15);
    expect(new Set(reqs.map((r) => `${r.lat},${r.lon}`)).size).toBe(600);
  });

  it('asks now, every plan in turn with its default fields, half of the points with alt= in 0..1500 m', () => {
    expect(reqs.slice(0, 6).map((r) => r.plan)).toEqual([...PLANS, ...PLANS]);
    expect(reqs.every((r) => r.timeMs === undefined && r.only === undefined)).toBe(true);
    // Free: the base fields only; Business: every group (api/fields/registry.ts).
    expect(reqs.find((r) => r.plan === 'free')!.groups.size).toBe(0);
    expect(reqs.find((r) => r.plan === 'business')!.groups.size).toBeGreaterThan(reqs.find((r) => r.plan === 'developer')!.groups.size);
    const withAlt = reqs.filter((r) => r.altM !== undefined);
    expect(withAlt).toHaveLength(300);
    expect(withAlt.every((r) => r.altM! >= 0 && r.altM! <= 1500)).toBe(true);
  });
});

describe('warmAppAnswers on the main nwp fixture', () => {
  const nowMs = T0_MS + 10 * HOUR_MS;
  const fx = mainFixtureApp('business', nowMs);

  it('answers every lookup over the store\'s region without an error, and counts none in the key\'s quota', async () => {
    const r = await warmAppAnswers(fx.app(), { lookups: 300, perTurn: 40, nowMs });
    expect(r).toMatchObject({ lookups: 300, errors: 0 });
    // The first request of the key after it: the minute's whole quota (testAccess: 1,000,000) but this one.
    const res = await keyedInject(fx.app(), `/api/v1/weather.php?lat=${NWP_GRID.y0 + 0.1}&lon=${NWP_GRID.x0 + 0.1}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['x-ratelimit-limit']).toBe('1000000');
    expect(res.headers['x-ratelimit-remaining']).toBe('999999');
  });

  it('warms nothing when the store does not cover now (every answer would be an error)', async () => {
    expect(await warmAppAnswers(fx.app(), { lookups: 300, nowMs: T0_MS + 30 * HOUR_MS })).toEqual({ lookups: 0, errors: 0, ms: 0 });
  });

  it('/healthz: 503 warming from startWarm until its run has finished, then 200', async () => {
    const app = await buildApp({ dataDir: fx.dir, access: testAccess(fx.dir), clock: () => nowMs });
    try {
      const warm = startWarm(app);
      const during = await app.inject({ url: '/healthz' });
      expect(during.statusCode).toBe(503);
      expect(during.json().reasons).toEqual([{ code: 'warming', message: 'starting: the tile cache is being warmed; answers are slow until it is' }]);
      await warm.run();
      const after = await app.inject({ url: '/healthz' });
      expect(after.statusCode).toBe(200);
      expect(after.json().reasons).toEqual([]);
    } finally {
      await app.close();
    }
  });
});

describe('warmHttp', () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  /** A real server answering GET / with `status`, counting what it was asked. */
  const serve = (status: number) =>
    new Promise<{ port: number; asked: string[] }>((ok) => {
      const asked: string[] = [];
      server = createServer((req, res) => {
        asked.push(`${req.method} ${req.url}`);
        res.writeHead(status, { 'content-type': 'application/json' }).end('{"service":"x"}');
      });
      server.listen(0, '127.0.0.1', () => ok({ port: (server!.address() as AddressInfo).port, asked }));
    });

  it('sends the GETs of / asked, over several connections, each answered', async () => {
    const s = await serve(200);
    const r = await warmHttp('127.0.0.1', s.port, 130, { connections: 3 });
    expect(r).toMatchObject({ requests: 130, errors: 0 });
    expect(s.asked).toHaveLength(130);
    expect(new Set(s.asked)).toEqual(new Set(['GET /']));
  });

  it('counts answers other than 200 as errors', async () => {
    const s = await serve(404);
    expect(await warmHttp('127.0.0.1', s.port, 60, { connections: 2 })).toMatchObject({ requests: 60, errors: 60 });
  });
});
