/**
 * Methods and protocol versions the API does not answer, over a real
 * socket: an endpoint asked with another method is 405 with `Allow` (not
 * 404, which says the path does not exist); CONNECT (this server is no
 * proxy) and HTTP/0.9 get an answer in the API's error shape and the
 * connection closed, where before they got nothing.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { parseResponse, rawExchange } from '../../support/raw-http.js';
import { installTestKey, tempDataDir, testAccess, TEST_KEY } from '../tile-fixture.js';

describe('methods and versions the API does not answer', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  let port = 0;
  beforeAll(async () => {
    await installTestKey(data.dir);
    // A short headers timeout: the bare HTTP/0.9 line below is answered when it runs out.
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), limits: { requestTimeoutMs: 5000, keepAliveTimeoutMs: 5000, headersTimeoutMs: 1000, maxConnections: 100 } });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  const errorOf = (body: string) => (JSON.parse(body) as { error: { code: string; message: string } }).error;

  it('POST, PUT, DELETE, PATCH and OPTIONS on an endpoint: 405 naming the method, with Allow', async () => {
    const cases: Array<[string, string]> = [
      ['/api/v1/weather.php?lat=43&lon=11&api_key=' + TEST_KEY, 'GET'],
      ['/api/v1/widget.php?lat=43&lon=11&key=' + TEST_KEY, 'GET'],
      ['/healthz', 'GET, HEAD'],
    ];
    for (const [url, allow] of cases) {
      for (const method of ['POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS'] as const) {
        const r = await app.inject({ method, url });
        const where = `${method} ${url.split('?')[0]}`;
        expect(r.statusCode, where).toBe(405);
        expect(r.headers.allow, where).toBe(allow);
        expect(r.headers['content-type'], where).toMatch(/^application\/json/);
        expect(r.json(), where).toEqual({ error: { code: 'METHOD_NOT_ALLOWED', message: expect.stringContaining(`${method} is not answered on ${url.split('?')[0]}`) } });
      }
    }
    // A path that does not exist stays 404 whatever the method.
    const none = await app.inject({ method: 'POST', url: '/api/v1/nowhere.php' });
    expect(none.statusCode).toBe(404);
    expect(none.json().error.code).toBe('NOT_FOUND');
  });

  it('CONNECT: 405 in the error shape, then the connection closes', async () => {
    const { text, closed } = await rawExchange(port, 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n', { untilClose: true });
    const r = parseResponse(text);
    expect(r.status, text).toBe(405);
    expect(r.headers).toMatch(/\r\nConnection: close/i);
    expect(errorOf(r.body)).toEqual({ code: 'METHOD_NOT_ALLOWED', message: expect.stringContaining('not a proxy') });
    expect(closed).toBe(true);
  });

  it('HTTP/0.9: 400 BAD_REQUEST naming the version, then the connection closes', async () => {
    // With the blank line Node parses it as version 0.9 and hands it on.
    const full = await rawExchange(port, 'GET /healthz\r\n\r\n', { untilClose: true });
    const r = parseResponse(full.text);
    expect(r.status, full.text).toBe(400);
    expect(errorOf(r.body)).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('HTTP/0.9') });
    expect(full.closed).toBe(true);
    // A bare line: 400 as soon as the client stops sending, else 408 when the headers timeout runs out.
    const half = parseResponse((await rawExchange(port, 'GET /healthz\r\n', { halfClose: true })).text);
    expect(half.status).toBe(400);
    expect(errorOf(half.body).code).toBe('BAD_REQUEST');
    const waiting = parseResponse((await rawExchange(port, 'GET /healthz\r\n', { quietMs: 4000 })).text);
    expect(waiting.status).toBe(408);
    expect(errorOf(waiting.body).code).toBe('REQUEST_TIMEOUT');
  });

  it('HTTP/2.0 in a plain HTTP/1 request line: 400 BAD_REQUEST', async () => {
    const r = parseResponse((await rawExchange(port, 'GET /healthz HTTP/2.0\r\nHost: x\r\n\r\n')).text);
    expect(r.status).toBe(400);
    expect(errorOf(r.body)).toEqual({ code: 'BAD_REQUEST', message: expect.stringContaining('HTTP/2.0') });
  });
});
