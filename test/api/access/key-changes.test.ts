/**
 * Key records cached in the API process (api/access/key-changes.ts) against
 * a real Redis: a cached key costs no Redis command, and a change written by
 * another process (the CLI's store, no cache) reaches the cache through
 * pub/sub before the next request can use the old record.
 */
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { generateKey } from '../../../api/access/key-format.js';
import { KeyRecordCache } from '../../../api/access/key-changes.js';
import { RedisKeyStore } from '../../../api/access/key-store-redis.js';
import type { KeyRecord } from '../../../api/access/key-store.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { recordCommands } from '../../support/redis-commands.js';
import { keyChangeMessage } from './fixtures/key-change-message.js';

const url = process.env.REDIS_URL!;
const server = await connectAccessRedis(url);
const cli = await connectAccessRedis(url);
const cache = await KeyRecordCache.subscribe(server);
const served = new RedisKeyStore(server, url, { staleIfErrorS: 300 }, cache);
const written = new RedisKeyStore(cli, url, { staleIfErrorS: 300 });
afterAll(async () => {
  await served.close();
  await server.quit();
  await cli.quit();
});

/** Names of the commands `client` sends while `fn` runs. */
async function commandsDuring(client: Redis, fn: () => Promise<unknown>): Promise<string[]> {
  const recording = recordCommands(client);
  try {
    await fn();
  } finally {
    recording.stop();
  }
  return recording.sent;
}

function newRecord(): KeyRecord {
  const { prefix, hash } = generateKey();
  return { prefix, hash, plan: 'free', kind: 'api', name: 'cache test', created: new Date().toISOString() };
}

describe('key records cached with pub/sub invalidation', () => {
  it('reads a key from Redis once, then from the cache', async () => {
    const r = newRecord();
    const own = await keyChangeMessage(server, r.prefix);
    expect(await written.insert(r)).toBe(true);
    await own.arrived; // the insert's own message, which drops the prefix, has arrived
    const sent = await commandsDuring(server, async () => {
      for (let i = 0; i < 5; i++) expect((await served.get(r.prefix))?.plan).toBe('free');
    });
    expect(sent).toEqual(['hgetall']);
  });

  it('a revocation and a plan change written by another process apply at once', async () => {
    const r = newRecord();
    await written.insert(r);
    expect((await served.get(r.prefix))?.revoked).toBeUndefined();

    // The message travels on another connection: wait until it has reached this process.
    let own = await keyChangeMessage(server, r.prefix);
    await written.update(r.prefix, { plan: 'business' });
    await own.arrived;
    expect((await served.get(r.prefix))?.plan).toBe('business');

    own = await keyChangeMessage(server, r.prefix);
    const revoked = new Date().toISOString();
    await written.update(r.prefix, { revoked });
    await own.arrived;
    expect((await served.get(r.prefix))?.revoked).toBe(revoked);
  });

  it('does not cache unknown keys: a key created later is found', async () => {
    const r = newRecord();
    expect(await served.get(r.prefix)).toBeNull();
    await written.insert(r);
    expect((await served.get(r.prefix))?.prefix).toBe(r.prefix);
  });
});
