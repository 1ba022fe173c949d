/**
 * GET / points to the rest: the endpoints, the API document and /healthz,
 * each of which answers at the path given; nothing about the data, the host
 * or the software leaks into it.
 */
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import { HOUR_MS, T0_MS, tempDataDir, testAccess, writeMainNwp, installTestKey, keyedInject } from './tile-fixture.js';

describe('GET /', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeMainNwp(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 10 * HOUR_MS });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('answers 200 JSON naming /docs, the OpenAPI document, /healthz and both endpoints, without a key', async () => {
    const res = await app.inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    const body = res.json();
    expect(body).toMatchObject({
      docs: '/docs',
      openapi: '/api/v1/openapi.json',
      health: '/healthz',
      endpoints: { weather: '/api/v1/weather.php', widget: '/api/v1/widget.php' },
    });
    // The JSON API's headers: nothing may frame or sniff it.
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['content-security-policy']).toContain("default-src 'none'");
  });

  it('every path it names answers there', async () => {
    const body = (await app.inject('/')).json();
    expect((await app.inject(body.openapi)).statusCode).toBe(200);
    expect((await app.inject(body.health)).statusCode).toBe(200);
    const docs = await app.inject(body.docs);
    expect([200, 302]).toContain(docs.statusCode);
    expect((await keyedInject(app, `${body.endpoints.weather}?lat=43.1&lon=11.2`)).statusCode).toBe(200);
    expect((await keyedInject(app, `${body.endpoints.widget}?lat=43.1&lon=11.2`)).statusCode).toBe(200);
  });

  it('says nothing of the data directory, the products, the host or the software versions', async () => {
    const text = (await app.inject('/')).body;
    expect(text).not.toContain(data.dir);
    expect(text).not.toMatch(/nwp|zarr|node|fastify|v\d+\.\d+\.\d+|127\.0\.0\.1|localhost/i);
  });
});
