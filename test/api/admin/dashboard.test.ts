/**
 * Bull Board at /admin/queues behind METEOPUNTO_ADMIN_TOKEN, mounted on the real
 * app (buildApp) over a real Redis: 401 in the API's error shape without or
 * with a wrong token (also a cookie that is not even percent-encoding), 200
 * with it (header, or the browser cookie set by ?token=, whose redirect
 * never leaves the dashboard), errors in the API's shape without internal
 * detail, not mounted at all without a configured token. With its Redis
 * stopped: 503 at once, one JSON warning in the log, nothing else written.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, inject, it, vi } from 'vitest';
import { startRedisServer } from '../../support/redis-server.js';
import { parseResponse, rawExchange } from '../../support/raw-http.js';
import { buildApp } from '../../../api/app.js';
import { registerQueueDashboard } from '../../../api/admin/dashboard.js';

const TOKEN = 'op-token-0123456789abcdef';

describe('queue dashboard', () => {
  const redisUrl = inject('redisUrl');
  const prefix = `mpt-${randomUUID().slice(0, 8)}`;
  let app: FastifyInstance | undefined;
  let dir: string | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  async function appWith(token: string | undefined): Promise<FastifyInstance> {
    dir = mkdtempSync(join(tmpdir(), 'mp-admin-'));
    app = await buildApp({ dataDir: dir });
    await registerQueueDashboard(app, { redisUrl, token, prefix });
    await app.ready();
    return app;
  }

  it('is 401 without a token or with a wrong one, in the API error shape', async () => {
    const a = await appWith(TOKEN);
    for (const url of ['/admin/queues', '/admin/queues/api/queues', '/admin/queues/static/favicon-32x32.png']) {
      const res = await a.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(401);
      expect(res.headers['www-authenticate']).toBe('Bearer realm="meteopunto-admin"');
      expect(res.json()).toEqual({ error: { code: 'MISSING_KEY', message: expect.stringContaining('Authorization: Bearer <METEOPUNTO_ADMIN_TOKEN>') } });
    }
    const wrong = await a.inject({ method: 'GET', url: '/admin/queues', headers: { authorization: 'Bearer not-the-token-at-all' } });
    expect(wrong.statusCode).toBe(401);
    expect(wrong.json().error.code).toBe('INVALID_KEY');
    expect((await a.inject({ method: 'GET', url: '/admin/queues?token=nope' })).statusCode).toBe(401);
    expect((await a.inject({ method: 'GET', url: '/admin/queues', headers: { cookie: 'mp_admin=forged' } })).statusCode).toBe(401);
  });

  it('is 200 with the token and shows the ingest and schedule queues with their counts', async () => {
    const q = new Queue('ingest', { connection: { url: redisUrl }, prefix });
    await q.add('ingest', { product: 'nwp' }, { jobId: 'nwp@2021-08-01T12Z' });
    await q.close();
    const a = await appWith(TOKEN);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const page = await a.inject({ method: 'GET', url: '/admin/queues', headers: auth });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/text\/html/);
    expect(page.body).toContain('Meteopunto queues');
    const api = await a.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: auth });
    expect(api.statusCode).toBe(200);
    const queues = api.json().queues as { name: string; counts: Record<string, number> }[];
    expect(queues.map((x) => x.name).sort()).toEqual(['ingest', 'schedule']);
    expect(queues.find((x) => x.name === 'ingest')!.counts.waiting).toBe(1);
  });

  it('lets a browser in with ?token= once: cookie (not the token itself), redirect without the token', async () => {
    const a = await appWith(TOKEN);
    const login = await a.inject({ method: 'GET', url: '/admin/queues?token=' + TOKEN });
    expect(login.statusCode).toBe(303);
    expect(login.headers.location).toBe('/admin/queues');
    const cookie = String(login.headers['set-cookie']);
    expect(cookie).toMatch(/^mp_admin=[0-9a-f]{64}; Path=\/admin\/queues; HttpOnly; SameSite=Strict; Max-Age=43200$/);
    expect(cookie).not.toContain(TOKEN);
    const page = await a.inject({ method: 'GET', url: '/admin/queues', headers: { cookie: cookie.split(';')[0]! } });
    expect(page.statusCode).toBe(200);
  });

  it('a cookie that is not even percent-encoding is a 401 like any wrong cookie, not a 500', async () => {
    const a = await appWith(TOKEN);
    for (const cookie of ['mp_admin=%zz', 'mp_admin=%E0%A4%A', 'other=1; mp_admin=%']) {
      const res = await a.inject({ method: 'GET', url: '/admin/queues', headers: { cookie } });
      expect(res.statusCode, cookie).toBe(401);
      expect(res.json(), cookie).toEqual({ error: { code: 'INVALID_KEY', message: expect.stringContaining('?token=') } });
    }
  });

  it('the login redirect never leaves the dashboard, whatever the path holds', async () => {
    const a = await appWith(TOKEN);
    await a.listen({ port: 0, host: '127.0.0.1' });
    const port = (a.server.address() as { port: number }).port;
    // Raw request lines (an HTTP client would resolve the dot segments itself), under the static
    // files' wildcard route; a URL parser resolves them, also %2e%2e and backslashes.
    for (const path of ['/admin/queues/static/../../..//evil.example/x', '/admin/queues/static/%2e%2e/%2e%2e/%2e%2e//evil.example/x', '/admin/queues/static/..\\..\\..\\\\evil.example/x']) {
      const login = parseResponse((await rawExchange(port, `GET ${path}?token=${TOKEN}&tab=ingest HTTP/1.1\r\nHost: ops.example\r\nConnection: close\r\n\r\n`)).text);
      expect(login.status, path).toBe(303);
      const location = /\r\nlocation: ([^\r]*)/i.exec(login.headers)?.[1] ?? '';
      expect(location, path).toMatch(/^\/admin\/queues(\/|\?|$)/);
      expect(new URL(location, 'https://ops.example').origin, path).toBe('https://ops.example');
      expect(location, path).not.toContain('token=');
    }
    const deep = await a.inject({ method: 'GET', url: `/admin/queues/queue/ingest?token=${TOKEN}&status=failed` });
    expect(deep.headers.location).toBe('/admin/queues/queue/ingest?status=failed');
  });

  it('answers errors inside the dashboard in the API shape, without internal detail', async () => {
    const a = await appWith(TOKEN);
    const res = await a.inject({ method: 'PUT', url: '/admin/queues/api/queues/pause', headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' }, payload: '{"not json' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({ error: { code: 'INVALID_PARAMETER', message: expect.stringMatching(/JSON/) } });
    expect(res.json().error.message).not.toMatch(/ at |node_modules|\.js:/);
  });

  it('with its Redis stopped: 503 at once in the API shape, one JSON warning, nothing written outside the log', async () => {
    const own = await startRedisServer();
    const lines: string[] = [];
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    const printed = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      dir = mkdtempSync(join(tmpdir(), 'mp-admin-'));
      app = await buildApp({ dataDir: dir, env: {}, logger: { level: 'info', stream } });
      await registerQueueDashboard(app, { redisUrl: own.url, token: TOKEN, prefix });
      await app.ready();
      const auth = { authorization: `Bearer ${TOKEN}` };
      expect((await app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: auth })).statusCode).toBe(200);
      await own.stop();
      // ioredis retries every few hundred ms: long enough for several failed attempts per queue.
      await new Promise((r) => setTimeout(r, 2500));
      const t0 = Date.now();
      const res = await app.inject({ method: 'GET', url: '/admin/queues/api/queues', headers: auth });
      expect(Date.now() - t0).toBeLessThan(5000);
      expect(res.statusCode).toBe(503);
      expect(res.json()).toEqual({ error: { code: 'SERVICE_UNAVAILABLE', message: expect.stringContaining('Redis') } });
      const page = await app.inject({ method: 'GET', url: '/admin/queues', headers: auth });
      expect(page.statusCode).toBe(200); // the page itself needs no Redis
      const parsed = lines.map((l) => JSON.parse(l) as { level: number; msg: string; err?: { message?: string } });
      const warnings = parsed.filter((l) => l.msg.startsWith('queue dashboard: Redis'));
      expect(warnings.length, JSON.stringify(warnings)).toBeGreaterThanOrEqual(1);
      expect(warnings.length, JSON.stringify(warnings)).toBeLessThanOrEqual(2); // once per queue at most
      expect(warnings[0]!.err?.message).toMatch(/ECONNREFUSED|Connection is closed/);
      expect(printed).not.toHaveBeenCalled();
    } finally {
      printed.mockRestore();
      await own.stop();
    }
  });

  it('is not mounted without a configured token; the rest of the API is unaffected', async () => {
    const a = await appWith(undefined);
    const res = await a.inject({ method: 'GET', url: '/admin/queues', headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.code).toBe('NOT_FOUND');
    expect([200, 503]).toContain((await a.inject({ method: 'GET', url: '/healthz' })).statusCode);
  });

  it('refuses a token too short to be a secret', async () => {
    await expect(appWith('short')).rejects.toThrow(/at least 16 characters/);
  });
});
