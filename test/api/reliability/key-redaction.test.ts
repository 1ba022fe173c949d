/**
 * No API key in clear in any log line or error body. The
 * server logs at `info` (the default) into a captured stream; requests carry
 * keys in `api_key=`, `key=`, a percent-encoded parameter name, `X-API-Key`
 * and a malformed URL whose error message quotes it.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';

const PREFIX = 'Ab3dE6gH';
const SECRET = 'S3cr3tS3cr3tS3cr3tS3cr3tS3cr3tXy'; // 32 base62 characters
const KEY = `mp_${PREFIX}${SECRET}`;

describe('API keys are redacted from logs and errors', () => {
  let app: FastifyInstance;
  const lines: string[] = [];
  beforeAll(async () => {
    const stream = new Writable({
      write(chunk, _enc, cb) {
        lines.push(String(chunk));
        cb();
      },
    });
    const dataDir = mkdtempSync(join(tmpdir(), 'mp-redact-'));
    app = await buildApp({ dataDir, env: {}, logger: { level: 'info', stream } });
  });
  afterAll(async () => {
    await app.close();
  });

  it('keeps the public prefix and drops the secret from every line and body', async () => {
    const bodies: string[] = [];
    const urls = [
      `/api/v1/weather.php?lat=41.9&lon=12.5&api_key=${KEY}`,
      `/api/v1/widget.php?lat=41.9&lon=12.5&key=${KEY}`,
      `/api/v1/weather.php?lat=41.9&api%5Fkey=${KEY}&lon=12.5`,
      `/%zz?api_key=${KEY}`,
      `/no-such-path/${KEY}?api_key=mp_${PREFIX}${SECRET.slice(0, 10)}`,
    ];
    for (const url of urls) bodies.push((await app.inject({ method: 'GET', url })).body);
    bodies.push((await app.inject({ method: 'GET', url: '/api/v1/weather.php?lat=41.9&lon=12.5', headers: { 'x-api-key': KEY } })).body);
    const all = lines.join('') + bodies.join('\n');
    expect(lines.length).toBeGreaterThan(5);
    expect(all).not.toContain(SECRET);
    expect(all).not.toContain(SECRET.slice(0, 10));
    // The prefix stays, so an operator can still trace the key in the request lines.
    expect(lines.join('')).toContain(`api_key=mp_${PREFIX}…`);
    expect(lines.join('')).toContain(`key=mp_${PREFIX}…`);
  });
});
