/**
 * GET / points to the rest: the endpoints, the API document and /healthz,
 * each of which answers at the path given; nothing about the data, the host
 * or the software leaks into it.
 */
import { describe, expect, it } from 'vitest';
import { keyedInject, mainFixtureApp } from './tile-fixture.js';

describe('GET /', () => {
  const fixture = mainFixtureApp();

  it('answers 200 JSON naming /docs, the OpenAPI document, /healthz and both endpoints, without a key', async () => {
    const res = await fixture.app().inject('/');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toMatchObject({
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
    const app = fixture.app();
    const body = (await app.inject('/')).json();
    expect((await app.inject(body.openapi)).statusCode).toBe(200);
    expect((await app.inject(body.health)).statusCode).toBe(200);
    expect([200, 302]).toContain((await app.inject(body.docs)).statusCode);
    expect((await keyedInject(app, `${body.endpoints.weather}?lat=43.1&lon=11.2`)).statusCode).toBe(200);
    expect((await keyedInject(app, `${body.endpoints.widget}?lat=43.1&lon=11.2`)).statusCode).toBe(200);
  });

  it('says nothing of the data directory, the products, the host or the software versions', async () => {
    const text = (await fixture.app().inject('/')).body;
    expect(text).not.toContain(fixture.dir);
    expect(text).not.toMatch(/nwp|zarr|node|fastify|v\d+\.\d+\.\d+|127\.0\.0\.1|localhost/i);
  });
});
