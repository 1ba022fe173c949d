/**
 * Bull Board at /admin/queues behind METEOPUNTO_ADMIN_TOKEN, mounted on the real
 * app (buildApp) over a real Redis: 401 in the API's error shape without or
 * with a wrong token, 200 with it (header, or the browser cookie set by
 * ?token=), not mounted at all without a configured token.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { Queue } from 'bullmq';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, inject, it } from 'vitest';
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
