/**
 * Response headers: weather.php (success and refusal) and /healthz carry the
 * JSON API's security headers and weather.php is never stored by a cache (the
 * URL may hold the key); widget.php stays embeddable (no X-Frame-Options, its
 * own frame-ancestors). Before: none of these on weather.php.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { headerSetOf } from '../../api/plugins/security-headers.js';
import { HOUR_MS, T0_MS, tempDataDir, writeDem, writeMainNwp, TEST_KEY, installTestKey, testAccess } from './tile-fixture.js';

describe('which paths get which headers', () => {
  it('weather.php no-store; widget.php, /admin and /docs their own; the rest the JSON set', () => {
    const table: Array<[string, string]> = [
      ['/api/v1/weather.php', 'no-store'], ['/api/v1/weather.php?lat=1&lon=2', 'no-store'], ['/api/v1/weather.php?', 'no-store'],
      ['/api/v1/weather.phpx', 'json'], ['/api/v1/weather.php/x', 'json'], ['/api/v1/weather', 'json'],
      ['/api/v1/widget.php', 'own'], ['/api/v1/widget.php?key=k', 'own'], ['/api/v1/widget.php/', 'json'], ['/api/v1/widget.phps', 'json'],
      ['/admin', 'own'], ['/admin/', 'own'], ['/admin/queues/api', 'own'], ['/admin?x=1', 'own'], ['/administrator', 'json'],
      ['/docs', 'own'], ['/docs/json', 'own'], ['/docs?x', 'own'], ['/docsx', 'json'],
      ['/healthz', 'json'], ['/', 'json'], ['/API/v1/weather.php', 'json'], ['', 'json'],
    ];
    for (const [url, set] of table) expect(headerSetOf(url), url).toBe(set);
  });
});

describe('security headers', () => {
  const data = tempDataDir();
  let app: FastifyInstance;
  let base: string;
  beforeAll(async () => {
    await installTestKey(data.dir);
    await writeMainNwp(data.dir);
    await writeDem(data.dir);
    app = await buildApp({ dataDir: data.dir, access: testAccess(data.dir), clock: () => T0_MS + 10.5 * HOUR_MS });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await app?.close();
    data.cleanup();
  });

  const q = 'lat=43.123&lon=11.2345';

  it('weather.php, answered or refused: nosniff, a CSP allowing nothing, no framing, no-store', async () => {
    for (const url of [`/api/v1/weather.php?${q}&api_key=${TEST_KEY}`, `/api/v1/weather.php?${q}&api_key=mp_nope`, `/api/v1/weather.php?lat=99&lon=1&api_key=${TEST_KEY}`]) {
      const res = await fetch(base + url);
      expect([200, 400, 401]).toContain(res.status);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
      expect(res.headers.get('x-frame-options')).toBe('SAMEORIGIN');
      expect(res.headers.get('strict-transport-security')).toMatch(/max-age=\d+/);
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it('/healthz gets the same security headers', async () => {
    const res = await fetch(`${base}/healthz`);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toBe("default-src 'none';frame-ancestors 'none'");
  });

  it('widget.php stays embeddable: no X-Frame-Options, its own CSP and caching', async () => {
    const res = await fetch(`${base}/api/v1/widget.php?${q}&key=${TEST_KEY}&mode=iframe`);
    expect(res.status).toBe(200);
    expect(res.headers.get('x-frame-options')).toBeNull();
    expect(res.headers.get('content-security-policy')).not.toMatch(/frame-ancestors 'none'/);
    expect(res.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/);
  });
});
