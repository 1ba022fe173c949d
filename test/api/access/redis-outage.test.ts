/**
 * A real redis-server stopped while an API process serves: requests neither
 * hang nor fail with 500, the process stays up, quotas hold per process, and
 * it recovers when Redis returns. Decision (docs/access.md, "Redis outages"): keep serving with the
 * in-memory insurance limiter; keys seen within METEOPUNTO_KEYS_STALE_IF_ERROR_S are
 * accepted from the local copy, others get 503 SERVICE_UNAVAILABLE. And a
 * graceful stop, Redis being up, logs no outage (regression: every SIGTERM
 * logged "Redis unreachable").
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { generateKey } from '../../../api/access/key-format.js';
import { startRedisServer, type RedisServerHandle } from '../../support/redis-server.js';
import { parseCreated, runCli, startApiProcess, withSampleTiles, type ApiProcess } from './fixtures/api-process.js';

const WEATHER = '/api/v1/weather.php?lat=45.46&lon=9.19';

describe('Redis stopped while serving', () => {
  let redis: RedisServerHandle;
  let api: ApiProcess;
  afterAll(async () => {
    await api?.stop();
    await redis?.stop();
  });

  it('keeps answering, within bounded time, without 500s or a crash, and recovers', async () => {
    redis = await startRedisServer();
    const env = { REDIS_URL: redis.url, METEOPUNTO_DATA: await withSampleTiles('mp-out-'), METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '100000' };
    api = await startApiProcess(env);
    const free = parseCreated((await runCli(['keys', 'create', '--plan', 'free'], env)).stdout);
    const dev = parseCreated((await runCli(['keys', 'create', '--plan', 'developer'], env)).stdout);
    // A request must come back within 5 s: a hang fails the test here, not a timeout of the suite.
    const get = async (key: string) => {
      const r = await fetch(`${api.url}${WEATHER}&api_key=${key}`, { signal: AbortSignal.timeout(5000) });
      return { status: r.status, body: (await r.json()) as { error?: { code: string } }, retryAfter: r.headers.get('retry-after') };
    };

    expect((await get(free.key)).status).toBe(200);
    expect((await get(dev.key)).status).toBe(200);

    await redis.stop();

    // Known keys keep working from the local copy; the Free minute limit now holds in this process's memory.
    const freeStatuses = [];
    for (let i = 0; i < 3; i++) freeStatuses.push((await get(free.key)).status);
    expect(freeStatuses).toEqual([200, 200, 429]);
    for (let i = 0; i < 5; i++) expect((await get(dev.key)).status).toBe(200);
    // A key never seen by this process cannot be checked: 503, with Retry-After.
    const unknown = await get(generateKey().key);
    expect(unknown.status).toBe(503);
    expect(unknown.body.error?.code).toBe('SERVICE_UNAVAILABLE');
    expect(Number(unknown.retryAfter)).toBeGreaterThan(0);
    // Requests without a key need no store at all.
    expect((await fetch(`${api.url}${WEATHER}`, { signal: AbortSignal.timeout(5000) })).status).toBe(401);
    expect(api.process.exitCode).toBeNull();
    // Logged once, not per request.
    expect(api.output().match(/access: Redis \S+ unreachable/g)).toHaveLength(1);

    // Redis returns, empty (no persistence): the process reconnects on its own and sees
    // the new, empty key store, so the old key is now unknown.
    redis = await startRedisServer(redis.port);
    let status = 0;
    for (let i = 0; i < 100 && status !== 401; i++) {
      await new Promise((r) => setTimeout(r, 200));
      status = (await get(dev.key)).status;
      expect(status === 200 || status === 401, `status ${status}`).toBe(true);
    }
    expect(status).toBe(401);
    expect(api.output()).toContain('is back');
    expect(api.process.exitCode).toBeNull();
  });
});

describe('a graceful stop with Redis up', () => {
  it('logs the shutdown and no Redis outage', async () => {
    const data = mkdtempSync(join(tmpdir(), 'mp-stop-'));
    try {
      const api = await startApiProcess({ REDIS_URL: inject('redisUrl'), METEOPUNTO_DATA: data, METEOPUNTO_LOG_FORMAT: 'json' });
      expect((await fetch(`${api.url}/healthz`, { signal: AbortSignal.timeout(5000) })).status).toBe(503); // no tiles: up, nothing to serve
      await api.stop();
      expect(api.process.exitCode, api.output()).toBe(0);
      expect(api.output()).toContain('shutting down');
      expect(api.output()).not.toMatch(/unreachable/);
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
