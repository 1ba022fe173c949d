/**
 * Every validation error of weather.php (400 bodies name the parameter),
 * unknown routes, and a table of nasty inputs that must never produce a 500.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { HOUR_MS, T0_MS, tempDataDir, writeMainNwp, installTestKey, keyedInject, testAccess } from './tile-fixture.js';

const W = '/api/v1/weather.php';
const OK = 'lat=43.1&lon=11.2';

describe('weather.php validation', () => {
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

  it('accepts a well-formed request', async () => {
    expect((await keyedInject(app, `${W}?${OK}`)).statusCode).toBe(200);
    expect((await keyedInject(app, `${W}?${OK}&alt=-3.4`)).statusCode).toBe(200);
    expect((await keyedInject(app, `${W}?lat=4.31e1&lon=%2B11.2`)).statusCode).toBe(200);
  });

  it.each([
    ['lon=11.2', 'lat', "Missing required parameter 'lat'"],
    ['lat=43.1', 'lon', "Missing required parameter 'lon'"],
    ['', 'lat', "Missing required parameter 'lat'"],
    ['lat=34.99&lon=11', 'lat', "Invalid parameter 'lat': must be between 35 and 48 (latitude, degrees north), got \"34.99\""],
    ['lat=48.01&lon=11', 'lat', 'must be between 35 and 48'],
    ['lat=43&lon=4.9', 'lon', "Invalid parameter 'lon': must be between 5 and 20.5 (longitude, degrees east), got \"4.9\""],
    ['lat=43&lon=20.6', 'lon', 'must be between 5 and 20.5'],
    [`${OK}&alt=5001`, 'alt', "Invalid parameter 'alt': must be between -500 and 5000"],
    [`${OK}&alt=-501`, 'alt', 'must be between -500 and 5000'],
    ['lat=NaN&lon=11', 'lat', "Invalid parameter 'lat': \"NaN\" is not a decimal number"],
    ['lat=Infinity&lon=11', 'lat', 'is not a decimal number'],
    ['lat=-Infinity&lon=11', 'lat', 'is not a decimal number'],
    ['lat=1e999&lon=11', 'lat', "Invalid parameter 'lat': \"1e999\" is not a finite number"],
    ['lat=&lon=11', 'lat', "Invalid parameter 'lat': empty; a decimal number is required"],
    ['lat=12abc&lon=11', 'lat', 'is not a decimal number'],
    ['lat=0x2b&lon=11', 'lat', 'is not a decimal number'],
    ['lat=%2043&lon=11', 'lat', 'is not a decimal number'],
    ['lat=43,1&lon=11', 'lat', 'use a dot as the decimal separator'],
    ['lat=43&lat=44&lon=11', 'lat', "Invalid parameter 'lat': given more than once"],
    [`${OK}&alt=`, 'alt', 'empty'],
    [`${OK}&alt=high`, 'alt', 'is not a decimal number'],
    [`${OK}&time=yesterday`, 'time', "Invalid parameter 'time': \"yesterday\" is not an ISO 8601 date and time in UTC"],
    [`${OK}&time=2024-02-30T00:00`, 'time', 'is not an ISO 8601'],
    [`${OK}&time=2024-06-21`, 'time', 'is not an ISO 8601'],
    [`${OK}&fields=${'a'.repeat(201)}`, 'fields', "Invalid parameter 'fields'"],
  ])('%s → 400 naming %s', async (qs, param, message) => {
    const res = await keyedInject(app, `${W}?${qs}`);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('INVALID_PARAMETER');
    expect(body.error.message).toContain(`'${param}'`);
    expect(body.error.message).toContain(message);
    expect(Object.keys(body)).toEqual(['error']);
    expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
  });

  // A known path asked with another method is 405 (test/api/reliability/methods.test.ts).
  it('answers unknown routes with 404 in the same error shape', async () => {
    for (const [method, path] of [['GET', '/api/v1/nothing.php'], ['GET', '/api'], ['POST', '/api/v1/nothing.php'], ['DELETE', '/nowhere']] as const) {
      const res = await keyedInject(app, { method, url: `${path}?${OK}` });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ error: { code: 'NOT_FOUND', message: `No such endpoint: ${method} ${path}` } });
    }
  });

  // None of these may produce a 500 or a stack trace.
  const nasty = [
    'lat=%ZZ&lon=%',
    'lat=%00&lon=11',
    'lat[]=43&lon=11',
    'lat[a]=43&lon=11',
    'lat=٤٣&lon=١١', // Arabic-Indic digits
    'lat=４３&lon=１１', // full-width digits
    `lat=${'9'.repeat(5000)}&lon=11`,
    `lat=0.${'1'.repeat(5000)}&lon=11`,
    'lat=43&lon=11&alt=1e-400',
    'lat=-0&lon=11',
    'lat=43&lon=11&time=9999-12-31T23:59:59.999999999Z',
    'lat=43&lon=11&time=0000-01-01T00:00',
    'lat=43&lon=11&time=%F0%9F%92%A9',
    'lat=43&&&lon=11&=&==&a==b',
    'lat=43&lon=11&api_key=a&api_key=b',
    'lat=43&lon=11&fields=coastal&fields=soil',
    'lat=true&lon=null',
    'lat=[43]&lon={11}',
    '__proto__=1&constructor=2&lat=43&lon=11',
    'lat=43&lon=11&__proto__[x]=1',
    'lat=43.1&lon=11.2&hasOwnProperty=1&toString=2',
  ];
  it.each(nasty)('never a 500: %s', async (qs) => {
    const res = await keyedInject(app, `${W}?${qs}`);
    expect(res.statusCode).toBeLessThan(500);
    expect(res.body).not.toMatch(/\bat .*\.(ts|js):\d+/);
    const body = res.json();
    if (res.statusCode !== 200) {
      expect(Object.keys(body.error).sort()).toEqual(['code', 'message']);
      expect(body.error.code).toMatch(/^(INVALID_PARAMETER|NOT_FOUND|INVALID_KEY)$/);
    }
  });
});
