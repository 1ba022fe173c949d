/**
 * Errors before any route, over raw sockets against a listening server:
 * every answer is `{"error":{"code","message"}}` with a documented code
 * (bodies parsed here by hand from the bytes on the wire), and a HEAD gets
 * no body. Before: Fastify's and Node's own shapes, or an empty body.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { tempDataDir, installTestKey, testAccess } from './tile-fixture.js';
import { parseResponse, rawExchange } from '../support/raw-http.js';

let port = 0;

const raw = async (request: string | Buffer): Promise<string> => (await rawExchange(port, request)).text;
const parse = parseResponse;

describe('errors outside the routes', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir) });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  const shaped = (body: string, code: string) => {
    const j = JSON.parse(body) as { error: { code: string; message: string } };
    expect(Object.keys(j)).toEqual(['error']);
    expect(j.error.code).toBe(code);
    expect(j.error.message.length).toBeGreaterThan(10);
  };

  it('a URL that is not valid percent-encoding: 400 BAD_REQUEST', async () => {
    const r = parse(await raw('GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect(r.status).toBe(400);
    shaped(r.body, 'BAD_REQUEST');
  });

  it('a URL over 16 KiB: 431 REQUEST_TOO_LARGE; for a HEAD, no body', async () => {
    const long = `/api/v1/weather.php?lat=42&lon=12&x=${'a'.repeat(17_000)}`;
    const r = parse(await raw(`GET ${long} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(r.status).toBe(431);
    shaped(r.body, 'REQUEST_TOO_LARGE');
    const h = parse(await raw(`HEAD ${long} HTTP/1.1\r\nHost: x\r\n\r\n`));
    expect(h.status).toBe(431);
    expect(h.body).toBe('');
  });

  it('a non-ASCII request target: 400 BAD_REQUEST', async () => {
    const r = parse(await raw(Buffer.concat([Buffer.from('GET /api/v1/weather.php?name='), Buffer.from([0xc3, 0xa8]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')])));
    expect(r.status).toBe(400);
    shaped(r.body, 'BAD_REQUEST');
  });

  it('HTTP/1.1 without Host: 400 BAD_REQUEST with a body', async () => {
    const r = parse(await raw('GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n'));
    expect(r.status).toBe(400);
    shaped(r.body, 'BAD_REQUEST');
  });

  it('an ordinary request still works on the same server', async () => {
    const r = parse(await raw('GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n'));
    expect([200, 503]).toContain(r.status);
  });
});
