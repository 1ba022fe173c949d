/**
 * Slow clients and connection floods against a listening server (raw
 * sockets): a client trickling its headers is answered 408 in the API's
 * error shape and closed once the headers timeout passes, not kept for
 * Node's 60 s; sockets beyond the connection cap are closed at accept.
 * Short limits here; the defaults are in api/server-limits.ts.
 */
import { connect, type Socket } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { serverLimits, trustProxy, DEFAULT_SERVER_LIMITS } from '../../api/server-limits.js';
import { tempDataDir, installTestKey, testAccess } from './tile-fixture.js';

describe('server limits', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  let port = 0;
  beforeAll(async () => {
    await installTestKey(data.dir);
    app = await buildApp({
      dataDir: data.dir,
      access: testAccess(data.dir),
      limits: { headersTimeoutMs: 1000, requestTimeoutMs: 2000, keepAliveTimeoutMs: 5000, maxConnections: 5 },
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('a client trickling headers gets 408 REQUEST_TIMEOUT and is closed within the timeout (+ check interval)', async () => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    s.on('data', (d: Buffer) => (got += d.toString()));
    const t0 = Date.now();
    s.write('GET /healthz HTTP/1.1\r\nHost: x\r\n');
    const trickle = setInterval(() => s.writable && s.write('X-Slow: 1\r\n'), 200);
    await new Promise<void>((resolve) => s.on('close', () => resolve()));
    clearInterval(trickle);
    const elapsed = Date.now() - t0;
    expect(elapsed).toBeGreaterThanOrEqual(900);
    expect(elapsed).toBeLessThan(4000);
    expect(got).toMatch(/^HTTP\/1\.1 408 /);
    expect(JSON.parse(got.slice(got.indexOf('\r\n\r\n') + 4))).toEqual({ error: { code: 'REQUEST_TIMEOUT', message: expect.stringMatching(/not received in time.*METEOPUNTO_HEADERS_TIMEOUT_MS/) } });
  });

  it('sockets beyond the cap are closed at once; those within still work', async () => {
    const open: Socket[] = [];
    for (let k = 0; k < 5; k++) {
      const s = connect(port, '127.0.0.1');
      await new Promise((r) => s.on('connect', r));
      open.push(s);
    }
    await new Promise((r) => setTimeout(r, 100));
    const extra = connect(port, '127.0.0.1');
    const closedAt = await new Promise<number>((resolve) => {
      const t0 = Date.now();
      extra.on('close', () => resolve(Date.now() - t0));
      extra.on('error', () => undefined);
      extra.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(closedAt).toBeLessThan(800);
    const first = open[0]!;
    const reply = await new Promise<string>((resolve) => {
      let got = '';
      first.on('data', (d: Buffer) => {
        got += d.toString();
        if (got.includes('\r\n\r\n')) resolve(got);
      });
      first.write('GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n');
    });
    expect(reply).toMatch(/^HTTP\/1\.1 (200|503) /);
    open.forEach((s) => s.destroy());
  });

  it('defaults, and the environment overrides them', () => {
    expect(serverLimits({})).toEqual(DEFAULT_SERVER_LIMITS);
    expect(serverLimits({ METEOPUNTO_HEADERS_TIMEOUT_MS: '5000', METEOPUNTO_MAX_CONNECTIONS: '100' })).toMatchObject({ headersTimeoutMs: 5000, maxConnections: 100 });
    expect(() => serverLimits({ METEOPUNTO_MAX_CONNECTIONS: '0' })).toThrow(/METEOPUNTO_MAX_CONNECTIONS='0': expected an integer ≥ 1/);
  });
});

describe('METEOPUNTO_TRUST_PROXY', () => {
  it('off by default; true, or addresses/CIDRs; anything else refused', () => {
    expect(trustProxy({})).toBe(false);
    expect(trustProxy({ METEOPUNTO_TRUST_PROXY: 'true' })).toBe(true);
    expect(trustProxy({ METEOPUNTO_TRUST_PROXY: '10.0.0.0/8, 127.0.0.1' })).toEqual(['10.0.0.0/8', '127.0.0.1']);
    expect(() => trustProxy({ METEOPUNTO_TRUST_PROXY: 'my-lb' })).toThrow(/'my-lb' is not an address or CIDR/);
  });

  it('with the proxy trusted, the client address comes from X-Forwarded-For', async () => {
    const data = tempDataDir();
    const app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), trustProxy: trustProxy({ METEOPUNTO_TRUST_PROXY: '127.0.0.1' }) });
    app.get('/ip', async (request) => ({ ip: request.ip }));
    try {
      const res = await app.inject({ url: '/ip', remoteAddress: '127.0.0.1', headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(res.json()).toEqual({ ip: '203.0.113.7' });
      const direct = await app.inject({ url: '/ip', remoteAddress: '198.51.100.1', headers: { 'x-forwarded-for': '203.0.113.7' } });
      expect(direct.json()).toEqual({ ip: '198.51.100.1' });
    } finally {
      await app.close();
      data.cleanup();
    }
  });
});
