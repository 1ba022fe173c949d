/**
 * No API key in a log line: a real server at LOG_LEVEL info, requests with
 * the key in the query (weather.php `api_key=`, widget.php `key=`), in the
 * X-API-Key header, mistyped, and in a request that fails validation; the
 * captured log must hold the key's public prefix and never the key.
 */
import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { redactKeys } from '../../api/log-redaction.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp, TEST_KEY, installTestKey, testAccess } from './tile-fixture.js';

const PREFIX = TEST_KEY.slice(0, 11); // mp_ + the 8-character public prefix
const SECRET = TEST_KEY.slice(11);

describe('API keys in logs', () => {
  const data = tempDataDir();
  const lines: string[] = [];
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    const stream = new Writable({
      write(chunk: Buffer, _enc, done) {
        lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
        done();
      },
    });
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 10.5 * HOUR_MS, logger: { level: 'info', stream } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  it('logs the prefix of every key it saw, never the key', async () => {
    const q = 'lat=43.123&lon=11.2345';
    const statuses = [
      (await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&${q}`)).status,
      (await fetch(`${base}/api/v1/widget.php?key=${TEST_KEY}&${q}&mode=iframe`)).status,
      (await fetch(`${base}/api/v1/weather.php?${q}`, { headers: { 'X-API-Key': TEST_KEY } })).status,
      (await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}x&${q}`)).status, // mistyped: still most of a key
      (await fetch(`${base}/api/v1/weather.php?api_key=${TEST_KEY}&lat=999&lon=11`)).status, // validation error
      (await fetch(`${base}/api/v1/nowhere?api_key=${TEST_KEY}`)).status,
    ];
    expect(statuses).toEqual([200, 200, 200, 401, 400, 404]);
    await new Promise((r) => setTimeout(r, 50));
    const log = lines.join('\n');
    expect(lines.length).toBeGreaterThanOrEqual(12); // a line per request and per response at least
    expect(log).toContain(PREFIX);
    expect(log).not.toContain(SECRET);
    expect(log).not.toContain(SECRET.slice(0, 12));
  });

  it('redacts keys anywhere in a text, and key parameters whatever they hold', () => {
    expect(redactKeys(`/api/v1/weather.php?lat=1&api_key=${TEST_KEY}&lon=2`)).toBe(`/api/v1/weather.php?lat=1&api_key=${PREFIX}…&lon=2`);
    expect(redactKeys(`/w?key=${TEST_KEY}`)).toBe(`/w?key=${PREFIX}…`);
    expect(redactKeys(`/w?api_key=not-a-key-but-long-enough-to-hide`)).toBe('/w?api_key=not-a-key-b…');
    expect(redactKeys(`unknown key ${TEST_KEY} refused`)).toBe(`unknown key ${PREFIX}… refused`);
    expect(redactKeys('/w?lat=1&lon=2')).toBe('/w?lat=1&lon=2');
  });
});
