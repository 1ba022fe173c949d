/**
 * HEAD on weather.php and widget.php is refused (405, Allow: GET) without
 * computing or spending quota; a repeated api_key is 400 naming it whatever
 * the order of the valid and the junk value. Full app (buildApp), embedded
 * key file.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { generateKey } from '../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../api/access/key-store-file.js';

const POINT = 'lat=41.9&lon=12.5';

describe('request rules', () => {
  let app: FastifyInstance;
  let key: string;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mp-rules-'));
    const k = generateKey();
    await new FileKeyStore(keysFilePath(dataDir)).insert({ prefix: k.prefix, hash: k.hash, plan: 'business', kind: 'api', created: new Date().toISOString() });
    key = k.key;
    app = await buildApp({ dataDir, env: {} });
  });
  afterAll(async () => {
    await app.close();
  });

  const remaining = async () => Number((await app.inject({ method: 'GET', url: `/api/v1/weather.php?${POINT}&api_key=${key}` })).headers['x-ratelimit-remaining']);

  it('refuses HEAD on weather.php and widget.php with 405 and no body, spending no quota', async () => {
    for (const [path, param] of [['/api/v1/weather.php', 'api_key'], ['/api/v1/widget.php', 'key']] as const) {
      const r1 = await remaining();
      for (let i = 0; i < 3; i++) {
        const h = await app.inject({ method: 'HEAD', url: `${path}?${POINT}&${param}=${key}` });
        expect(h.statusCode, path).toBe(405);
        expect(h.headers.allow).toBe('GET');
        expect(h.body).toBe('');
        expect(h.headers['x-ratelimit-remaining']).toBeUndefined();
      }
      const r2 = await remaining();
      const r3 = await remaining();
      expect(Number.isFinite(r1)).toBe(true);
      // The HEADs between the first two GETs cost what nothing costs between the last two.
      expect(r1 - r2, path).toBe(r2 - r3);
      // The body a GET would carry with that refusal (HEAD strips it on the wire).
      const h = await app.inject({ method: 'HEAD', url: `${path}?${POINT}` });
      expect(h.headers['content-type']).toMatch(/^application\/json/);
    }
    expect([200, 503]).toContain((await app.inject({ method: 'HEAD', url: '/healthz' })).statusCode); // health still answers HEAD
  });

  it('one rule for a repeated api_key: 400 naming it, in either order', async () => {
    for (const q of [`api_key=${key}&api_key=junk`, `api_key=junk&api_key=${key}`, `api_key=${key}&api_key=${key}`]) {
      const r = await app.inject({ method: 'GET', url: `/api/v1/weather.php?${POINT}&${q}` });
      expect(r.statusCode, q).toBe(400);
      expect(r.json()).toEqual({ error: { code: 'INVALID_PARAMETER', message: expect.stringContaining('api_key') } });
    }
  });
});
