/**
 * The memo of verified keys (api/access/key-memo.ts): a repeat of a key that
 * matched skips the hash, and nothing else. A wrong key with a known prefix
 * is still refused after the right one was remembered, and a revoked,
 * deleted or re-issued record refuses the remembered key at once, also when
 * the revocation comes from another process through Redis.
 *
 * Keys here are written out by hand and their hashes computed with
 * node:crypto, not with the code under test.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { knownKey, verifyKey } from '../../../api/access/authenticate.js';
import { KeyHashMemo } from '../../../api/access/key-memo.js';
import { KeyRecordCache } from '../../../api/access/key-changes.js';
import { RedisKeyStore } from '../../../api/access/key-store-redis.js';
import type { KeyRecord, KeyStore } from '../../../api/access/key-store.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { keyChangeMessage } from './fixtures/key-change-message.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

/** `mp_` + 8-character prefix + 32-character secret. */
const PREFIX = 'Memo0001';
const RIGHT = `mp_${PREFIX}${'s3cretS3cretS3cretS3cretS3cret12'}`;
/** Same prefix (the store finds the record), other secrets. */
const WRONG = [
  `mp_${PREFIX}${'s3cretS3cretS3cretS3cretS3cret13'}`, // last character
  `mp_${PREFIX}${'S3cretS3cretS3cretS3cretS3cret12'}`, // first character of the secret
  `mp_${PREFIX}${'A'.repeat(32)}`,
];

function record(prefix: string, key: string, extra: Partial<KeyRecord> = {}): KeyRecord {
  return { prefix, hash: sha256(key), plan: 'business', kind: 'api', name: 'memo test', created: '2026-01-01T00:00:00.000Z', ...extra };
}

/** An in-memory store the test changes between requests. */
function mapStore(records: KeyRecord[]): { store: KeyStore; byPrefix: Map<string, KeyRecord> } {
  const byPrefix = new Map(records.map((r) => [r.prefix, r]));
  return { store: { kind: 'embedded', get: async (p: string) => byPrefix.get(p) ?? null } as unknown as KeyStore, byPrefix };
}

/** A memo whose hash comparison counts its calls (the real SHA-256 comparison, written here). */
function countingMemo(max = 16): { memo: KeyHashMemo; hashes: () => number } {
  let n = 0;
  const memo = new KeyHashMemo(max, (presented, stored) => {
    n++;
    return sha256(presented) === stored;
  });
  return { memo, hashes: () => n };
}

describe('key hash memo', () => {
  it('hashes a key once, then remembers it', async () => {
    const { memo, hashes } = countingMemo();
    const { store } = mapStore([record(PREFIX, RIGHT)]);
    for (let i = 0; i < 5; i++) expect((await verifyKey(store, RIGHT, memo)).ok).toBe(true);
    expect(hashes()).toBe(1);
    expect(memo.size).toBe(1);
  });

  it('refuses a wrong key with a known prefix after the right one was remembered', async () => {
    const { memo, hashes } = countingMemo();
    const { store } = mapStore([record(PREFIX, RIGHT)]);
    expect((await verifyKey(store, RIGHT, memo)).ok).toBe(true);
    for (const wrong of WRONG) {
      expect(await verifyKey(store, wrong, memo)).toEqual({ ok: false, reason: 'unknown' });
      // Asked twice: a refused key is not remembered either.
      expect(await verifyKey(store, wrong, memo)).toEqual({ ok: false, reason: 'unknown' });
    }
    expect(hashes()).toBe(1 + 2 * WRONG.length);
    expect(memo.size).toBe(1);
    expect((await verifyKey(store, RIGHT, memo)).ok).toBe(true);
  });

  it('refuses a remembered key once its record is revoked, deleted or re-issued with another hash', async () => {
    const { memo } = countingMemo();
    const { store, byPrefix } = mapStore([record(PREFIX, RIGHT)]);
    expect((await verifyKey(store, RIGHT, memo)).ok).toBe(true);

    byPrefix.set(PREFIX, record(PREFIX, RIGHT, { revoked: '2026-01-02T00:00:00.000Z' }));
    expect(await verifyKey(store, RIGHT, memo)).toEqual({ ok: false, reason: 'revoked' });

    byPrefix.delete(PREFIX);
    expect(await verifyKey(store, RIGHT, memo)).toEqual({ ok: false, reason: 'unknown' });

    const other = `mp_${PREFIX}${'N'.repeat(32)}`;
    byPrefix.set(PREFIX, record(PREFIX, other));
    expect(await verifyKey(store, RIGHT, memo)).toEqual({ ok: false, reason: 'unknown' });
    expect((await verifyKey(store, other, memo)).ok).toBe(true);
  });

  it('holds at most its bound, the least recently used key leaving first', async () => {
    const { memo, hashes } = countingMemo(2);
    const keys = ['Bound001', 'Bound002', 'Bound003'].map((p) => ({ p, key: `mp_${p}${'k'.repeat(32)}` }));
    const { store } = mapStore(keys.map(({ p, key }) => record(p, key)));
    for (const { key } of keys) expect((await verifyKey(store, key, memo)).ok).toBe(true);
    expect(memo.size).toBe(2);
    expect(hashes()).toBe(3);
    expect((await verifyKey(store, keys[2]!.key, memo)).ok).toBe(true); // still remembered
    expect(hashes()).toBe(3);
    expect((await verifyKey(store, keys[0]!.key, memo)).ok).toBe(true); // left first: hashed again
    expect(hashes()).toBe(4);
  });
});

describe('knownKey: the check without a promise (the access plugin\'s usual request)', () => {
  /** A store holding its records in memory, as the file store between re-reads and the Redis store's live cache do. */
  function heldStore(records: KeyRecord[]): { store: KeyStore; byPrefix: Map<string, KeyRecord> } {
    const byPrefix = new Map(records.map((r) => [r.prefix, r]));
    const store = { kind: 'embedded', get: async (p: string) => byPrefix.get(p) ?? null, cached: (p: string) => byPrefix.get(p) } as unknown as KeyStore;
    return { store, byPrefix };
  }

  it('answers only for a held record whose key the memo has seen match, never hashing', async () => {
    const { memo, hashes } = countingMemo();
    const { store } = heldStore([record(PREFIX, RIGHT)]);
    expect(knownKey(store, RIGHT, memo)).toBeUndefined(); // not verified yet: verifyKey decides (and hashes)
    expect(hashes()).toBe(0);
    expect((await verifyKey(store, RIGHT, memo)).ok).toBe(true);
    expect(knownKey(store, RIGHT, memo)?.prefix).toBe(PREFIX);
    for (const wrong of WRONG) expect(knownKey(store, wrong, memo)).toBeUndefined();
    expect(knownKey(store, 'not-a-key', memo)).toBeUndefined();
    expect(hashes()).toBe(1); // the one of verifyKey
  });

  it('leaves revoked, deleted, re-issued and not-held records to verifyKey', async () => {
    const { memo } = countingMemo();
    const { store, byPrefix } = heldStore([record(PREFIX, RIGHT)]);
    expect((await verifyKey(store, RIGHT, memo)).ok).toBe(true);
    byPrefix.set(PREFIX, record(PREFIX, RIGHT, { revoked: '2026-01-02T00:00:00.000Z' }));
    expect(knownKey(store, RIGHT, memo)).toBeUndefined();
    byPrefix.set(PREFIX, record(PREFIX, WRONG[0]!));
    expect(knownKey(store, RIGHT, memo)).toBeUndefined();
    byPrefix.delete(PREFIX);
    expect(knownKey(store, RIGHT, memo)).toBeUndefined();
    // A store that holds nothing in memory (no cached()): always verifyKey.
    const { store: fetching } = mapStore([record(PREFIX, RIGHT)]);
    expect(knownKey(fetching, RIGHT, memo)).toBeUndefined();
  });
});

describe('key hash memo with keys in Redis (cached records, pub/sub invalidation)', () => {
  it('a revocation written by another process refuses the remembered key at once', async () => {
    const url = process.env.REDIS_URL!;
    const server = await connectAccessRedis(url);
    const cli = await connectAccessRedis(url);
    const cache = await KeyRecordCache.subscribe(server);
    const served = new RedisKeyStore(server, url, { staleIfErrorS: 300 }, cache);
    const written = new RedisKeyStore(cli, url, { staleIfErrorS: 300 });
    try {
      // A prefix of this run (the suite's Redis is shared between test files and runs).
      const prefix = `R${Date.now().toString(36).slice(-7).padStart(7, '0')}`;
      const key = `mp_${prefix}${'r'.repeat(32)}`;
      const { memo, hashes } = countingMemo();

      let change = await keyChangeMessage(server, prefix);
      expect(await written.insert(record(prefix, key, { plan: 'free' }))).toBe(true);
      await change.arrived; // the insert's own message, so that the record read next is cached
      for (let i = 0; i < 3; i++) expect((await verifyKey(served, key, memo)).ok).toBe(true);
      expect((await verifyKey(served, key)).ok).toBe(true); // the process memo, as the plugin calls it
      expect(hashes()).toBe(1);
      expect(await verifyKey(served, `mp_${prefix}${'R'.repeat(32)}`, memo)).toEqual({ ok: false, reason: 'unknown' });
      expect(await verifyKey(served, `mp_${prefix}${'R'.repeat(32)}`)).toEqual({ ok: false, reason: 'unknown' });

      change = await keyChangeMessage(server, prefix);
      await written.update(prefix, { revoked: new Date().toISOString() });
      await change.arrived;
      expect(await verifyKey(served, key, memo)).toEqual({ ok: false, reason: 'revoked' });
      expect(await verifyKey(served, key)).toEqual({ ok: false, reason: 'revoked' });
    } finally {
      await served.close();
      await server.quit();
      await cli.quit();
    }
  });
});
