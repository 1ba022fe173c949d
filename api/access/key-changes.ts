/**
 * Key records cached per API process, invalidated through Redis pub/sub, so
 * that a request needs no Redis round trip to find its key while a
 * revocation or plan change still applies on every replica at once.
 *
 * Every write to a record (./key-store-redis.ts) publishes the key's prefix on
 * {@link KEY_CHANGES} in the same Lua script as the write. Each API process
 * holds a subscriber connection; a message drops that prefix from the cache.
 * The cache is trusted only while the subscription is live: when the
 * subscriber connection drops, the cache is emptied and bypassed until it is
 * subscribed again (a message may have been missed in between). Entries also
 * expire after {@link MAX_AGE_MS}, a bound on staleness should a message be
 * lost any other way (a record changed by hand in redis-cli publishes none).
 */
import type { Redis } from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { KeyRecord } from './key-store.js';

export const KEY_CHANGES = 'mp:keys:changed';
/** Longest a cached record is used without asking Redis again. */
export const MAX_AGE_MS = 60_000;

export class KeyRecordCache {
  private readonly records = new LRUCache<string, KeyRecord>({ max: 50_000, ttl: MAX_AGE_MS });
  private live = false;
  /** Incremented when the subscription drops: a fetch that saw it change must not cache what it read. */
  private epoch = 0;
  /** Per prefix, incremented by each message for it (bounded like the records; a fetch across one must not cache). */
  private readonly changes = new LRUCache<string, number>({ max: 50_000 });

  private constructor(private readonly subscriber: Redis) {}

  /** Opens the subscriber connection (a duplicate of `redis`) and waits for the subscription. */
  static async subscribe(redis: Redis): Promise<KeyRecordCache> {
    const sub = redis.duplicate({ connectionName: 'meteopunto-key-changes', enableOfflineQueue: true });
    const cache = new KeyRecordCache(sub);
    sub.on('message', (_channel: string, prefix: string) => cache.invalidate(prefix));
    const distrust = () => cache.distrust();
    sub.on('close', distrust);
    sub.on('error', distrust);
    // ioredis re-subscribes after a reconnection; the cache is trusted again once it has.
    sub.on('ready', () => {
      if (!cache.live) void sub.subscribe(KEY_CHANGES).then(() => cache.trust(), distrust);
    });
    await sub.subscribe(KEY_CHANGES);
    cache.trust();
    return cache;
  }

  /** The cached record, or undefined when it must be read from Redis. */
  get(prefix: string): KeyRecord | undefined {
    return this.live ? this.records.get(prefix) : undefined;
  }

  /** The stamp to pass back to {@link set} after reading `prefix`'s record. */
  stamp(prefix: string): string {
    return `${this.epoch}:${this.changes.get(prefix) ?? 0}`;
  }

  /** Caches a record read from Redis, unless a change of it (or a dropped subscription) came since `stamp`. */
  set(prefix: string, record: KeyRecord, stamp: string): void {
    if (this.live && stamp === this.stamp(prefix)) this.records.set(prefix, record);
  }

  async close(): Promise<void> {
    this.distrust();
    try {
      await this.subscriber.quit();
    } catch {
      this.subscriber.disconnect();
    }
  }

  private invalidate(prefix: string): void {
    this.changes.set(prefix, (this.changes.get(prefix) ?? 0) + 1);
    this.records.delete(prefix);
  }

  private trust(): void {
    this.records.clear();
    this.live = true;
  }

  private distrust(): void {
    this.epoch++;
    this.live = false;
    this.records.clear();
  }
}
