/**
 * /metrics on the real app over a real HTTP socket: 401 without the
 * operator token, absent without a configured token, and counters that move
 * after traffic (requests by route and status, latency histogram, data age
 * of a published store).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { REGULAR, analytic, hourlyTimes, input } from '../../tiles/fields.js';

const TOKEN = 'metrics-token-0123456789';

function value(text: string, line: RegExp): number {
  const m = text.split('\n').find((l) => line.test(l));
  return m ? Number(m.split(' ').pop()) : 0;
}

describe('/metrics', () => {
  let app: FastifyInstance | undefined;
  let dir = '';
  afterEach(async () => {
    await app?.close();
    app = undefined;
    rmSync(dir, { recursive: true, force: true });
  });

  async function start(token?: string): Promise<string> {
    dir = mkdtempSync(join(tmpdir(), 'mp-metrics-'));
    const times = hourlyTimes(2);
    await writeProductVersion(dir, input('nwp', REGULAR, times, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, times, () => 10) } }));
    app = await buildApp({ dataDir: dir, env: { ...(token ? { METEOPUNTO_ADMIN_TOKEN: token } : {}), METEOPUNTO_DATA: dir } });
    return app.listen({ port: 0, host: '127.0.0.1' });
  }

  it('is 401 without or with a wrong token, and not mounted without a configured token', async () => {
    const base = await start(TOKEN);
    const none = await fetch(`${base}/metrics`);
    expect(none.status).toBe(401);
    expect((await none.json()).error.code).toBe('MISSING_KEY');
    expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong-token-xxxxxxxx' } })).status).toBe(401);
    await app!.close();
    rmSync(dir, { recursive: true, force: true });
    const open = await start(undefined);
    expect((await fetch(`${open}/metrics`)).status).toBe(404);
  });

  it('counts requests by route and status, latency, and data age after traffic', async () => {
    const base = await start(TOKEN);
    const auth = { authorization: `Bearer ${TOKEN}` };
    const before = await (await fetch(`${base}/metrics`, { headers: auth })).text();
    const n = (t: string) => value(t, /^meteopunto_http_requests_total\{route="\/api\/v1\/weather\.php",status="401"\}/);
    for (let i = 0; i < 3; i++) {
      const r = await fetch(`${base}/api/v1/weather.php?lat=41.9&lon=12.5`);
      expect(r.status).toBe(401);
      expect(r.headers.get('x-api-version')).toBe('2.0');
    }
    const res = await fetch(`${base}/metrics`, { headers: auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const after = await res.text();
    expect(n(after) - n(before)).toBe(3);
    expect(value(after, /^meteopunto_http_request_duration_seconds_count\{route="\/api\/v1\/weather\.php"\}/)).toBeGreaterThanOrEqual(3);
    const age = value(after, /^meteopunto_data_age_seconds\{store="nwp"\}/);
    expect(age).toBeGreaterThanOrEqual(0);
    expect(age).toBeLessThan(120);
    expect(value(after, /^meteopunto_data_coverage_end_seconds\{store="nwp"\}/)).toBe(hourlyTimes(2)[1]!.getTime() / 1000);
    expect(after).toMatch(/^meteopunto_tile_cache_misses\{cache="forecast"\} \d+/m);
  });
});
