/**
 * Issue 16 items 4 and 6 over a real socket: errors Node's parser raises
 * before Fastify (over-long URL, non-ASCII target) in the API's error shape,
 * HEAD of an over-long URL without a body, and the server limits applied.
 */
import { mkdtempSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';

let app: FastifyInstance;
let port: number;

function raw(request: Buffer | string): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const s = connect(port, '127.0.0.1', () => s.write(request));
    s.on('data', (c) => chunks.push(c));
    s.on('end', () => resolve(Buffer.concat(chunks).toString('latin1')));
    s.on('error', reject);
    s.setTimeout(5000, () => s.destroy(new Error('no answer')));
  });
}

const status = (r: string) => Number(r.split(' ')[1]);
const body = (r: string) => r.slice(r.indexOf('\r\n\r\n') + 4);

describe('errors before the router, server limits', () => {
  beforeAll(async () => {
    app = await buildApp({ dataDir: mkdtempSync(join(tmpdir(), 'mp-client-')), env: {} });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(async () => {
    await app.close();
  });

  it('over-long URL: 431 in the error shape; HEAD gets no body', async () => {
    const long = `/api/v1/weather.php?lat=41.9&lon=12.5&x=${'a'.repeat(20_000)}`;
    const g = await raw(`GET ${long} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(status(g)).toBe(431);
    expect(JSON.parse(body(g))).toEqual({ error: { code: 'INVALID_PARAMETER', message: expect.any(String) } });
    const h = await raw(`HEAD ${long} HTTP/1.1\r\nHost: x\r\n\r\n`);
    expect(status(h)).toBe(431);
    expect(body(h)).toBe('');
  });

  it('non-ASCII request target and bad percent-encoding: 400 in the error shape', async () => {
    const n = await raw(Buffer.concat([Buffer.from('GET /api/v1/weather.php?lat=4'), Buffer.from([0xc3, 0xa8]), Buffer.from(' HTTP/1.1\r\nHost: x\r\n\r\n')]));
    expect(status(n)).toBe(400);
    expect(JSON.parse(body(n)).error.code).toBe('INVALID_PARAMETER');
    const b = await raw('GET /%zz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
    expect(status(b)).toBe(400);
    expect(JSON.parse(body(b)).error.code).toBe('INVALID_PARAMETER');
  });

  it('applies the server limits for a load balancer', () => {
    const s = app.server as Server;
    expect(s.headersTimeout).toBe(10_000);
    expect(s.requestTimeout).toBe(30_000);
    expect(s.keepAliveTimeout).toBe(65_000);
    expect(s.maxConnections).toBe(2_000);
  });
});
