/**
 * Moving to REDIS_URL after issuing keys without it (the keys must not be
 * silently dropped). `meteopunto keys import` copies keys.json into Redis,
 * hashes only, and can run again; until it runs, the `keys` CLI and the
 * server say so in one line. A private redis-server, the real CLI through
 * run(), the real server as a child process.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keys } from './fixtures/keys-cli.js';
import { startRedisServer, type RedisServerHandle } from '../../support/redis-server.js';
import { parseCreated, runCli, startApiProcess } from './fixtures/api-process.js';
import { tempDataDir, writeMainNwp } from '../tile-fixture.js';

const sha256 = (key: string) => createHash('sha256').update(key).digest('hex');

let server: RedisServerHandle;
let redis: Redis;
const dirs: string[] = [];
const dataDir = () => {
  const d = mkdtempSync(join(tmpdir(), 'mp-import-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  server = await startRedisServer();
  redis = new Redis(server.url);
});
afterAll(async () => {
  await redis?.quit();
  await server?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** Every Redis key record, as stored: prefix → hash fields. */
async function stored(): Promise<Record<string, Record<string, string>>> {
  const prefixes = await redis.smembers('mp:keys');
  return Object.fromEntries(await Promise.all(prefixes.map(async (p) => [p, await redis.hgetall(`mp:key:${p}`)] as const)));
}

describe('keys import', () => {
  it('copies every record, hashes only, warns until then, and changes nothing the second time', async () => {
    await redis.flushall();
    const data = dataDir();
    const embedded = { METEOPUNTO_DATA: data };
    const withRedis = { METEOPUNTO_DATA: data, REDIS_URL: server.url };
    const free = parseCreated((await keys(['create', '--plan', 'free', '--name', 'Meteo Rimini'], embedded)).out);
    const widget = parseCreated((await keys(['create', '--plan', 'developer', '--widget', '--origins', 'https://example.com'], embedded)).out);
    const gone = parseCreated((await keys(['create', '--plan', 'business'], embedded)).out);
    expect((await keys(['revoke', gone.prefix], embedded)).code).toBe(0);
    const before = (await keys(['list'], embedded)).out;

    // With REDIS_URL the file is not read: one line says so, naming the working keys and the command.
    const listed = await keys(['list'], withRedis);
    expect(listed.out).not.toContain(free.prefix);
    expect(listed.err.split('\n')).toEqual([
      `meteopunto: warning: access: 2 keys in ${join(data, 'keys.json')} not in Redis: REDIS_URL is set, so that file is not read and they are refused; move them with \`meteopunto keys import\``,
    ]);

    const first = await keys(['import'], withRedis);
    expect(first.code, first.err).toBe(0);
    expect(first.out).toMatch(/: 3 imported, 0 already there\n/);
    // The same table as from the file: prefixes, plans, kinds, names, created and revoked times.
    const after = await keys(['list'], withRedis);
    expect(after.out).toBe(before);
    expect(after.err).toBe('');
    // Hashes only: each record holds the SHA-256 of its key, and no value holds any part of a key's secret.
    const records = await stored();
    expect(records[free.prefix]!.hash).toBe(sha256(free.key));
    expect(records[widget.prefix]!.origins).toBe('["https://example.com"]');
    for (const k of [free, widget, gone]) expect(JSON.stringify(records)).not.toContain(k.key.slice(11));

    const again = await keys(['import'], withRedis);
    expect(again.code).toBe(0);
    expect(again.out).toMatch(/: 0 imported, 3 already there\n/);
    expect(await stored()).toEqual(records);

    // Redis is the live store after the import: its changes stay; a revocation made in the file still carries over.
    expect((await keys(['set-plan', free.prefix, 'business'], withRedis)).code).toBe(0);
    expect((await keys(['revoke', widget.prefix], embedded)).code).toBe(0);
    const third = await keys(['import'], withRedis);
    expect(third.out).toMatch(new RegExp(`: 0 imported, 2 already there, 1 revoked as in the file \\(${widget.prefix}\\)\\n`));
    const now = await stored();
    expect(now[widget.prefix]!.revoked).toBe(JSON.parse(readFileSync(join(data, 'keys.json'), 'utf8')).keys[1].revoked);
    expect(now[free.prefix]!.plan).toBe('business');
  });

  it('refuses a damaged record before writing anything, and reports a prefix held by another key without touching it', async () => {
    await redis.flushall();
    const data = dataDir();
    const withRedis = { METEOPUNTO_DATA: data, REDIS_URL: server.url };
    const a = parseCreated((await keys(['create', '--plan', 'free'], { METEOPUNTO_DATA: data })).out);
    const b = parseCreated((await keys(['create', '--plan', 'developer'], { METEOPUNTO_DATA: data })).out);
    const file = join(data, 'keys.json');
    const good = readFileSync(file, 'utf8');
    const doc = JSON.parse(good) as { keys: Array<Record<string, string>> };
    doc.keys[1]!.plan = 'gold';
    writeFileSync(file, JSON.stringify(doc));
    const damaged = await keys(['import'], withRedis);
    expect(damaged.code).toBe(1);
    expect(damaged.err).toBe(`keys import: ${file}: record 2 (${b.prefix}): unknown plan "gold"; nothing imported`);
    expect(await redis.smembers('mp:keys')).toEqual([]);

    // The prefix of `a` taken in Redis by another key: reported, left alone, the rest imported.
    writeFileSync(file, good);
    const other = sha256('mp_' + a.prefix + 'x'.repeat(32));
    await redis.hset(`mp:key:${a.prefix}`, { prefix: a.prefix, hash: other, plan: 'free', kind: 'api', created: '2026-01-01T00:00:00.000Z' });
    await redis.sadd('mp:keys', a.prefix);
    const clash = await keys(['import'], withRedis);
    expect(clash.code).toBe(1);
    expect(clash.out).toMatch(/: 1 imported, 0 already there$/);
    expect(clash.err).toBe(`keys import: prefix ${a.prefix} is in Redis for another key (a different hash): left as it is, not imported`);
    expect((await redis.hgetall(`mp:key:${a.prefix}`)).hash).toBe(other);
    expect((await redis.hgetall(`mp:key:${b.prefix}`)).hash).toBe(sha256(b.key));
  });

  it('without REDIS_URL: a usage error naming the file', async () => {
    const data = dataDir();
    const r = await keys(['import'], { METEOPUNTO_DATA: data, REDIS_URL: '' });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`keys import: moves ${join(data, 'keys.json')} into Redis: set REDIS_URL`);
  });
});

describe('a server started with REDIS_URL while keys.json holds keys', () => {
  it('logs one warning naming the import, refuses those keys, and serves them once imported', async () => {
    await redis.flushall();
    const data = tempDataDir();
    await writeMainNwp(data.dir);
    const key = parseCreated((await runCli(['keys', 'create', '--plan', 'business'], { METEOPUNTO_DATA: data.dir, REDIS_URL: '' })).stdout).key;
    const env = { METEOPUNTO_DATA: data.dir, REDIS_URL: server.url, METEOPUNTO_LOG_FORMAT: 'json' };
    const api = await startApiProcess(env);
    try {
      // Inside the fixture's hours (time= is Business).
      const get = () => fetch(`${api.url}/api/v1/weather.php?lat=43.2&lon=11.3&time=2024-06-21T10:00Z`, { headers: { 'x-api-key': key }, signal: AbortSignal.timeout(10_000) });
      expect((await get()).status).toBe(401);
      const warnings = api.output().split('\n').filter((l) => l.includes('keys import'));
      expect(warnings).toHaveLength(1);
      expect(JSON.parse(warnings[0]!)).toMatchObject({ level: 40, msg: expect.stringMatching(/^access: 1 key in \S+keys\.json not in Redis: .*`meteopunto keys import`$/) });
      const imported = await runCli(['keys', 'import'], env);
      expect(imported.code, imported.stderr).toBe(0);
      expect((await get()).status).toBe(200);
    } finally {
      await api.stop();
      data.cleanup();
    }
  });
});
