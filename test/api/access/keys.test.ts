/**
 * Key format and storage: random keys, only SHA-256 stored (checked in the
 * raw file and in every Redis value), constant-time comparison, both stores
 * behaving alike.
 */
import { createHash } from 'node:crypto';
import * as crypto from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { generateKey, hashKey, prefixOf, randomBase62 } from '../../../api/access/key-format.js';
import { verifyKey } from '../../../api/access/authenticate.js';
import { FileKeyStore } from '../../../api/access/key-store-file.js';
import { RedisKeyStore } from '../../../api/access/key-store-redis.js';
import type { KeyRecord, KeyStore } from '../../../api/access/key-store.js';

vi.mock('node:crypto', async (importOriginal) => {
  const orig = await importOriginal<typeof import('node:crypto')>();
  return { ...orig, timingSafeEqual: vi.fn(orig.timingSafeEqual) };
});

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

function newRecord(plan: KeyRecord['plan'] = 'free'): { key: string; record: KeyRecord } {
  const { key, prefix, hash } = generateKey();
  return { key, record: { prefix, hash, plan, kind: 'api', name: 'test', created: new Date().toISOString() } };
}

describe('key format', () => {
  it('draws mp_ + 8-char prefix + 32-char secret, base62, all different', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const { key, prefix, hash } = generateKey();
      expect(key).toMatch(/^mp_[0-9A-Za-z]{40}$/);
      expect(key.slice(3, 11)).toBe(prefix);
      expect(prefixOf(key)).toBe(prefix);
      expect(hash).toBe(sha256(key));
      seen.add(key);
    }
    expect(seen.size).toBe(200);
  });

  it('uses every base62 symbol about equally (no modulo bias)', () => {
    const s = randomBase62(62_000);
    const counts = new Map<string, number>();
    for (const c of s) counts.set(c, (counts.get(c) ?? 0) + 1);
    expect(counts.size).toBe(62);
    // 1000 expected per symbol, sd ≈ 31.4: ±200 is over 6 sd.
    for (const n of counts.values()) expect(Math.abs(n - 1000)).toBeLessThan(200);
  });

  it('refuses malformed keys without a prefix', () => {
    for (const bad of ['', 'mp_', 'mp_short', `xx_${'a'.repeat(40)}`, `mp_${'a'.repeat(39)}`, `mp_${'a'.repeat(39)}-`]) expect(prefixOf(bad)).toBeNull();
  });

  it('compares hashes with crypto.timingSafeEqual', async () => {
    const { key, record } = newRecord();
    const store = { get: async () => record } as unknown as KeyStore;
    const spy = vi.mocked(crypto.timingSafeEqual);
    spy.mockClear();
    expect((await verifyKey(store, key)).ok).toBe(true);
    expect(spy).toHaveBeenCalledTimes(1);
    // Same prefix, different secret: the store finds the record, the hash comparison refuses.
    const forged = key.slice(0, 11) + 'A'.repeat(32);
    expect(await verifyKey(store, forged)).toEqual({ ok: false, reason: 'unknown' });
    expect(spy).toHaveBeenCalledTimes(2);
    expect(await verifyKey(store, key.slice(0, -1))).toEqual({ ok: false, reason: 'unknown' });
    expect(await verifyKey({ get: async () => ({ ...record, revoked: '2025-01-01T00:00:00Z' }) } as unknown as KeyStore, key)).toEqual({
      ok: false,
      reason: 'revoked',
    });
  });
});

function storeContract(name: string, open: () => Promise<KeyStore>, rawDump: () => Promise<string>) {
  describe(`${name} key store`, () => {
    let store: KeyStore;
    beforeAll(async () => {
      store = await open();
    });
    afterAll(async () => store.close());

    it('inserts, finds, updates and lists records; refuses a taken prefix', async () => {
      const a = newRecord('free');
      const b = newRecord('developer');
      expect(await store.insert(a.record)).toBe(true);
      expect(await store.insert(b.record)).toBe(true);
      expect(await store.insert({ ...a.record, plan: 'business' })).toBe(false);
      expect(await store.get(a.record.prefix)).toEqual(a.record);
      expect(await store.get('Zz9Zz9Zz')).toBeNull();
      const up = await store.update(a.record.prefix, { plan: 'business' });
      expect(up).toEqual({ ...a.record, plan: 'business' });
      const rev = await store.update(b.record.prefix, { revoked: '2025-06-01T10:00:00.000Z' });
      expect(rev?.revoked).toBe('2025-06-01T10:00:00.000Z');
      expect(await store.update('Zz9Zz9Zz', { plan: 'free' })).toBeNull();
      expect(await store.get('Zz9Zz9Zz')).toBeNull();
      const listed = (await store.list()).map((r) => r.prefix);
      expect(listed).toEqual(expect.arrayContaining([a.record.prefix, b.record.prefix]));
    });

    it('keeps widget origins', async () => {
      const w = newRecord('developer');
      const rec: KeyRecord = { ...w.record, kind: 'widget', origins: ['https://example.com'] };
      await store.insert(rec);
      expect(await store.get(rec.prefix)).toEqual(rec);
    });

    it('stores the SHA-256 of the key and never the key or its secret', async () => {
      const keys: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { key, record } = newRecord();
        await store.insert(record);
        keys.push(key);
      }
      const dump = await rawDump();
      for (const key of keys) {
        expect(dump).not.toContain(key);
        expect(dump).not.toContain(key.slice(11)); // the secret part
        expect(dump).toContain(sha256(key));
      }
    });
  });
}

const dir = mkdtempSync(join(tmpdir(), 'mp-keys-'));
const file = join(dir, 'keys.json');
storeContract(
  'embedded (file)',
  async () => new FileKeyStore(file),
  async () => readFileSync(file, 'utf8'),
);

describe('embedded (file) key store files', () => {
  it('writes atomically with mode 0600 and leaves no temporary file', async () => {
    const store = new FileKeyStore(join(dir, 'other', 'keys.json'));
    await store.insert(newRecord().record);
    expect(statSync(join(dir, 'other', 'keys.json')).mode & 0o777).toBe(0o600);
    expect(readdirSync(join(dir, 'other'))).toEqual(['keys.json']);
  });

  it('sees a change another process writes (re-checked at most once a second)', async () => {
    const path = join(dir, 'shared.json');
    const cli = new FileKeyStore(path);
    const server = new FileKeyStore(path);
    const { record } = newRecord();
    await cli.insert(record);
    expect((await server.get(record.prefix))?.revoked).toBeUndefined();
    const revoked = new Date().toISOString();
    await cli.update(record.prefix, { revoked });
    await new Promise((r) => setTimeout(r, 1100));
    expect((await server.get(record.prefix))?.revoked).toBe(revoked);
  });

  it('reports a damaged file with its path', async () => {
    const path = join(dir, 'bad.json');
    writeFileSync(path, '{"version": 1, "keys": [');
    await expect(new FileKeyStore(path).list()).rejects.toThrow(`${path}: not valid JSON`);
    writeFileSync(path, '{"keys": 3}');
    await expect(new FileKeyStore(path).list()).rejects.toThrow('not a Meteopunto keys file');
  });
});

let redis: Redis;
storeContract(
  'Redis',
  async () => {
    redis = new Redis(process.env.REDIS_URL!);
    return new RedisKeyStore(redis, process.env.REDIS_URL!);
  },
  async () => {
    const names = await redis.keys('mp:key*');
    const parts: string[] = [];
    for (const n of names) {
      const type = await redis.type(n);
      if (type === 'hash') parts.push(n, JSON.stringify(await redis.hgetall(n)));
      else if (type === 'set') parts.push(n, JSON.stringify(await redis.smembers(n)));
      else parts.push(n, String(await redis.get(n)));
    }
    return parts.join('\n');
  },
);

afterAll(async () => {
  await redis?.quit();
});

it('hashKey is SHA-256 hex of the whole key (FIPS 180-2 test vector)', () => {
  expect(hashKey('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
});
