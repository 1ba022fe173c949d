/**
 * Redis key store, shared by every API replica. Layout: `mp:key:<prefix>` is
 * a hash (prefix, hash, plan, kind, name, origins as JSON, created, revoked),
 * `mp:keys` the set of prefixes. Every write publishes the prefix on
 * `mp:keys:changed`; an API process keeps the records it read in a cache
 * that these messages invalidate (./key-changes.ts), so a request usually
 * needs no round trip for its key and a revocation or plan change still
 * applies at once everywhere. Without the cache (the CLI), one HGETALL per
 * lookup.
 *
 * While Redis is unreachable a record fetched within `staleIfErrorS` seconds
 * is served from a local copy (a revocation made during the outage then takes
 * effect when Redis returns); any other key gets KeyStoreUnavailableError (503).
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import { isPlan } from './plans.js';
import { KeyStoreUnavailableError, type KeyRecord, type KeyStore, type KeyUpdate } from './key-store.js';
import { redactRedisUrl } from './redis-connection.js';
import { KEY_CHANGES, type KeyRecordCache } from './key-changes.js';

const RECORD = (prefix: string) => `mp:key:${prefix}`;
const INDEX = 'mp:keys';

/** HSET the fields only if the record does not exist yet, and index it: atomic. ARGV: prefix, channel, fields. */
const INSERT_LUA = `
if redis.call('exists', KEYS[1]) == 1 then return 0 end
redis.call('hset', KEYS[1], unpack(ARGV, 3))
redis.call('sadd', KEYS[2], ARGV[1])
redis.call('publish', ARGV[2], ARGV[1])
return 1`;

/** HSET only an existing record (a typo'd prefix must not create one), and tell the API processes (./key-changes.ts). ARGV: prefix, channel, fields. */
const UPDATE_LUA = `
if redis.call('exists', KEYS[1]) == 0 then return 0 end
redis.call('hset', KEYS[1], unpack(ARGV, 3))
redis.call('publish', ARGV[2], ARGV[1])
return 1`;

export interface RedisKeyStoreOptions {
  /** Seconds a fetched record may be served while Redis is unreachable; 0 disables. */
  staleIfErrorS: number;
}

export class RedisKeyStore implements KeyStore {
  readonly kind = 'redis' as const;
  readonly location: string;
  private readonly lastGood: LRUCache<string, { record: KeyRecord; atMs: number }>;

  constructor(
    private readonly redis: Redis,
    url: string,
    private readonly opts: RedisKeyStoreOptions = { staleIfErrorS: 300 },
    private readonly cache?: KeyRecordCache,
  ) {
    this.location = redactRedisUrl(url);
    this.lastGood = new LRUCache({ max: 50_000 });
  }

  cached(prefix: string): KeyRecord | undefined {
    return this.cache?.get(prefix);
  }

  async get(prefix: string): Promise<KeyRecord | null> {
    const hit = this.cache?.get(prefix);
    if (hit) return hit;
    const stamp = this.cache?.stamp(prefix) ?? '';
    let fields: Record<string, string>;
    try {
      fields = await this.redis.hgetall(RECORD(prefix));
    } catch (err) {
      const cached = this.lastGood.get(prefix);
      if (cached && Date.now() - cached.atMs <= this.opts.staleIfErrorS * 1000) return cached.record;
      throw new KeyStoreUnavailableError(`key store ${this.location} unreachable`, { cause: err });
    }
    const record = fromHash(fields);
    if (record) this.cache?.set(prefix, record, stamp);
    if (record && this.opts.staleIfErrorS > 0) this.lastGood.set(prefix, { record, atMs: Date.now() });
    else this.lastGood.delete(prefix);
    return record;
  }

  async insert(record: KeyRecord): Promise<boolean> {
    const done = await this.redis.eval(INSERT_LUA, 2, RECORD(record.prefix), INDEX, record.prefix, KEY_CHANGES, ...toHash(record));
    return done === 1;
  }

  async update(prefix: string, change: KeyUpdate): Promise<KeyRecord | null> {
    const fields = Object.entries(change).flatMap(([k, v]) => (v === undefined ? [] : [k, String(v)]));
    const done = await this.redis.eval(UPDATE_LUA, 1, RECORD(prefix), prefix, KEY_CHANGES, ...fields);
    return done === 1 ? this.get(prefix) : null;
  }

  async list(): Promise<KeyRecord[]> {
    const prefixes = await this.redis.smembers(INDEX);
    const pipe = this.redis.pipeline();
    for (const p of prefixes) pipe.hgetall(RECORD(p));
    const replies = (await pipe.exec()) ?? [];
    return replies
      .map(([err, fields]) => (err ? null : fromHash(fields as Record<string, string>)))
      .filter((r): r is KeyRecord => r !== null)
      .sort((a, b) => a.created.localeCompare(b.created));
  }

  async close(): Promise<void> {
    await this.cache?.close();
  }
}

function toHash(r: KeyRecord): string[] {
  const out = ['prefix', r.prefix, 'hash', r.hash, 'plan', r.plan, 'kind', r.kind, 'created', r.created];
  if (r.name !== undefined) out.push('name', r.name);
  if (r.origins !== undefined) out.push('origins', JSON.stringify(r.origins));
  if (r.revoked !== undefined) out.push('revoked', r.revoked);
  return out;
}

/** The record, or null for a missing or damaged hash (treated as an unknown key). */
function fromHash(h: Record<string, string>): KeyRecord | null {
  if (!h.prefix || !h.hash || !h.plan || !isPlan(h.plan) || (h.kind !== 'api' && h.kind !== 'widget') || !h.created) return null;
  const record: KeyRecord = { prefix: h.prefix, hash: h.hash, plan: h.plan, kind: h.kind, created: h.created };
  if (h.name !== undefined) record.name = h.name;
  if (h.origins !== undefined) record.origins = JSON.parse(h.origins) as string[];
  if (h.revoked !== undefined) record.revoked = h.revoked;
  return record;
}
