/**
 * Bounded fuzz of bad input against weather.php and widget.php (app.inject,
 * the full plugin chain): numbers, times, fields, duplicated and unknown
 * parameters, encodings, methods, paths and sizes, drawn from a seeded
 * generator so a failure reproduces. Every answer must be < 500 and in the
 * API's error shape (JSON) or the widget's refusal box (HTML); never a stack
 * trace. The count is fixed (CI time), the seed printed on failure.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../../api/app.js';
import { mulberry32 } from '../../../bench/prng.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp, TEST_KEY, installTestKey, testAccess } from '../tile-fixture.js';

const REQUESTS = 3000;
const SEED = 20261125;

const NUMBERS = ['', ' ', '43', '43.1', '-0', '1e2', '1e400', 'NaN', 'Infinity', '-Infinity', '0x2A', '4,3', '43.', '.5', '+43', '43abc', '١٢', '９', '%00', '43%20', '999999999999999999999', '-1e-320', '42.0000000000000000001', 'null', '[]', '{}'];
const TIMES = ['', '2024-06-21T10:30', '2024-06-21T10:30Z', '2024-06-21T10:30:00+02:00', '2024-13-01T00:00', '2024-02-30T00:00', '1919-12-31T23:59', '9999-12-31T23:59', 'yesterday', '2024-06-21', '2024-06-21T25:00', '0', '-1', 'T', '2024-06-21T10:30:00.123456789Z'];
const FIELDS = ['', 'cams', 'wbgt,frost,et0', 'coastal,soil', 'nope', ',,,', 'cams,cams', 'CAMS', 'a'.repeat(201), 'wbgt%2Cfrost', '*'];
const KEYS = [TEST_KEY, '', 'mp_', 'mp_short', `${TEST_KEY}x`, TEST_KEY.toLowerCase(), 'x'.repeat(201), '%ZZ', `mp_${'é'.repeat(40)}`];
const EXTRA = ['', '', '', '', '&foo=1', '&lat=1', '&lon=2', '&alt=3&alt=4', '&api_key=junk', '&time=', '&mode=js', '&callback=alert(1)', '&%zz=1', '&=', '&&&', `&pad=${'p'.repeat(4000)}`];
const PATHS = ['/api/v1/weather.php', '/api/v1/widget.php', '/api/v1/weather.php/', '/api/v1/WEATHER.PHP', '/api/v1/weather.php%00', '/api//v1/weather.php', '/api/v1/../v1/weather.php'];
const METHODS = ['GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'] as const;
const WIDGET_EXTRA = ['&variant=card', '&variant=huge', '&theme=dark', '&theme=<b>', '&mode=iframe', '&mode=pdf', '&name=%3Cscript%3Ealert(1)%3C%2Fscript%3E', `&name=${'n'.repeat(600)}`];

describe('fuzz: bad input never yields a 5xx or an unshaped error', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 10.5 * HOUR_MS });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it(`${REQUESTS} requests (seed ${SEED})`, async () => {
    const r = mulberry32(SEED);
    const pick = <T>(a: readonly T[]): T => a[Math.floor(r() * a.length)]!;
    const statuses = new Map<number, number>();
    for (let n = 0; n < REQUESTS; n++) {
      const path = r() < 0.8 ? pick(PATHS.slice(0, 2)) : pick(PATHS);
      // Half the coordinates valid (inside the fixture), so the draw also reaches the later checks.
      const parts = [`lat=${r() < 0.5 ? '43.123' : pick(NUMBERS)}`, `lon=${r() < 0.5 ? '11.2345' : pick(NUMBERS)}`];
      if (r() < 0.5) parts.push(`alt=${pick(NUMBERS)}`);
      if (r() < 0.3) parts.push(`time=${pick(TIMES)}`);
      if (r() < 0.3) parts.push(`fields=${pick(FIELDS)}`);
      const keyParam = path.includes('widget') ? 'key' : 'api_key';
      if (r() < 0.8) parts.push(`${keyParam}=${r() < 0.6 ? TEST_KEY : pick(KEYS)}`);
      if (r() < 0.5) parts.sort(() => r() - 0.5);
      const url = `${path}?${parts.join('&')}${pick(EXTRA)}${path.includes('widget') ? pick(WIDGET_EXTRA) : ''}`;
      const method = pick(METHODS);
      const headers: Record<string, string> = {};
      if (r() < 0.2) headers['x-api-key'] = pick(KEYS);
      if (r() < 0.1) headers['accept-encoding'] = 'gzip, br';
      if (r() < 0.1) headers['sec-fetch-dest'] = pick(['script', 'iframe', 'document', '"><']);
      const res = await app.inject({ method, url, headers, ...(method === 'POST' ? { payload: 'lat=1' } : {}) });
      statuses.set(res.statusCode, (statuses.get(res.statusCode) ?? 0) + 1);
      const where = `seed ${SEED}, request ${n}: ${method} ${url.slice(0, 300)}`;
      expect(res.statusCode, where).toBeLessThan(500);
      expect(res.body, where).not.toMatch(/\n\s+at [^\n]+\(.*:\d+:\d+\)/); // no stack trace
      if (res.statusCode >= 400 && method !== 'HEAD') {
        const type = String(res.headers['content-type'] ?? '');
        if (type.startsWith('application/json')) {
          const body = res.json() as { error?: { code?: unknown; message?: unknown } };
          expect(Object.keys(body), where).toEqual(['error']);
          expect(typeof body.error?.code, where).toBe('string');
          expect(typeof body.error?.message, where).toBe('string');
        } else {
          expect(path.includes('widget') || type.startsWith('text/'), where).toBe(true);
        }
      }
    }
    console.log(`fuzz: ${REQUESTS} requests, statuses ${JSON.stringify(Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])))}`);
    // The draw reached every kind of answer, not only one refusal.
    expect([...statuses.keys()].filter((s) => s >= 200 && s < 300).length).toBeGreaterThan(0);
    expect([...statuses.keys()].filter((s) => s >= 400).length).toBeGreaterThanOrEqual(4);
  }, 120_000);
});
