/**
 * Response headers: weather.php (success and refusal) and /healthz carry the
 * JSON API's security headers and weather.php is never stored by a cache (the
 * URL may hold the key); widget.php stays embeddable (no X-Frame-Options, its
 * own frame-ancestors). Before: none of these on weather.php.
 */
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../api/app.js';
import { HELMET_OPTIONS, headerSetOf, helmetHeaders } from '../../api/plugins/security-headers.js';
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

describe('the headers collected from helmet', () => {
  it('are named in lower case, as Fastify sends them, with helmet\'s values', () => {
    // helmet 8's defaults with our CSP, less the five only a page uses, as they appear on the wire (curl -si of weather.php).
    expect(helmetHeaders(HELMET_OPTIONS)).toEqual({
      'content-security-policy': "default-src 'none';frame-ancestors 'none'",
      'cross-origin-opener-policy': 'same-origin',
      'cross-origin-resource-policy': 'same-origin',
      'referrer-policy': 'no-referrer',
      'strict-transport-security': 'max-age=31536000; includeSubDomains',
      'x-content-type-options': 'nosniff',
      'x-frame-options': 'SAMEORIGIN',
    });
  });

  it('leave out helmet\'s five defaults for pages (docs/api.md, "Response headers"), which helmet alone would set', () => {
    const pageOnly = ['origin-agent-cluster', 'x-dns-prefetch-control', 'x-download-options', 'x-permitted-cross-domain-policies', 'x-xss-protection'];
    const helmetDefaults = helmetHeaders({ contentSecurityPolicy: HELMET_OPTIONS.contentSecurityPolicy });
    for (const name of pageOnly) expect(helmetDefaults, name).toHaveProperty(name);
    expect(Object.keys(helmetDefaults).filter((name) => !(name in helmetHeaders(HELMET_OPTIONS))).sort()).toEqual(pageOnly);
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

  it('weather.php\'s response head, header by header in order, over HTTP', async () => {
    // As main at 22994a1 wrote it, less helmet's five headers for pages (origin-agent-cluster, x-dns-prefetch-control,
    // x-download-options, x-permitted-cross-domain-policies, x-xss-protection), left off since.
    const security = [
      "content-security-policy: default-src 'none';frame-ancestors 'none'", 'cross-origin-opener-policy: same-origin',
      'cross-origin-resource-policy: same-origin', 'referrer-policy: no-referrer',
      'strict-transport-security: max-age=31536000; includeSubDomains', 'x-content-type-options: nosniff',
      'x-frame-options: SAMEORIGIN',
      'cache-control: no-store', 'content-type: application/json; charset=utf-8', 'x-api-version: 2.0',
    ];
    const tail = ['content-length: <n>', 'Date: <date>', 'Connection: keep-alive', 'Keep-Alive: timeout=65'];
    const served = await rawHead(`/api/v1/weather.php?${q}&api_key=${TEST_KEY}`);
    expect(served).toEqual(['HTTP/1.1 200 OK', ...security, 'x-ratelimit-limit: <n>', 'x-ratelimit-remaining: <n>', 'x-ratelimit-reset: <n>', ...tail]);
    expect(await rawHead(`/api/v1/weather.php?${q}`)).toEqual(['HTTP/1.1 401 Unauthorized', ...security, ...tail]);
  });

  /** The response head's lines as sent, numbers and the date masked. */
  async function rawHead(path: string): Promise<string[]> {
    const { port } = new URL(base);
    const head = await new Promise<string>((ok, fail) => {
      const s = connect(Number(port), '127.0.0.1');
      let got = '';
      s.on('data', (d) => {
        got += d.toString('latin1');
        const end = got.indexOf('\r\n\r\n');
        if (end >= 0) {
          s.destroy();
          ok(got.slice(0, end));
        }
      });
      s.on('error', fail);
      s.write(`GET ${path} HTTP/1.1\r\nHost: h\r\n\r\n`);
    });
    return head.split('\r\n').map((l) => l.replace(/^(Date): .*$/, '$1: <date>').replace(/^(content-length|x-ratelimit-\w+): \d+$/, '$1: <n>'));
  }

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
