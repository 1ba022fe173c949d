/**
 * The publish lock on real Redis: a holder SIGKILLed while holding loses the
 * lock within its TTL, and a writer waiting for it gets it (before, the TTL
 * of 60 s outlived the 30 s wait: every writer behind a dead holder failed);
 * a holder whose switch takes longer than the TTL keeps it (renewed); a
 * holder whose lock was taken from it learns so (`lost`), and a bucket's
 * conditional replace then writes nothing.
 */
import { spawn } from 'node:child_process';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { lockWaitMs, redisLock } from '../../../tiles/storage/redis-lock.js';
import type { HeldLock } from '../../../tiles/storage/s3.js';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const prefix = () => `mp-test-lock-${randomBytes(4).toString('hex')}`;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let redis: Redis;
beforeAll(() => {
  redis = new Redis(inject('redisUrl'));
});
afterAll(() => redis?.disconnect());

/** A child process holding the lock `name` under `keyPrefix` (./children/lock-holder.ts), once it says so. */
async function holderProcess(keyPrefix: string, name: string, ttlMs: number) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'children', 'lock-holder.ts'), inject('redisUrl'), keyPrefix, name, String(ttlMs)], {
    cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'],
  });
  await new Promise<void>((ok, fail) => {
    child.stdout.on('data', (d: Buffer) => d.toString().includes('held') && ok());
    child.on('exit', (code) => fail(new Error(`lock holder exited (${code}) before holding the lock`)));
  });
  return child;
}

describe('publish lock (Redis)', () => {
  it('a holder killed while holding: a waiting writer takes the lock once the TTL runs out, within its wait', async () => {
    const p = prefix();
    const ttlMs = 1500;
    const child = await holderProcess(p, 'bucket/nwp/current.json', ttlMs);
    // The child renews every 500 ms: after 2 TTLs of holding, its lock is still there.
    await sleep(2 * ttlMs);
    expect(await redis.get(`${p}:tiles-lock:bucket/nwp/current.json`)).not.toBeNull();
    child.kill('SIGKILL');
    await new Promise((r) => child.once('exit', r));
    const started = Date.now();
    const lock = await redisLock(inject('redisUrl'), p, { ttlMs, waitMs: lockWaitMs(1000, ttlMs) })('bucket/nwp/current.json');
    const waited = Date.now() - started;
    await lock.release();
    // Taken after the dead holder's remaining TTL (at most one TTL), never turned away.
    expect(waited).toBeLessThanOrEqual(ttlMs + 1000);
    expect(lock.lost.aborted).toBe(false);
  });

  it('a switch longer than the TTL keeps the lock (renewed); another writer waits, then takes it at release', async () => {
    const p = prefix();
    const ttlMs = 600;
    const first = await redisLock(inject('redisUrl'), p, { ttlMs })('k');
    const second = redisLock(inject('redisUrl'), p, { ttlMs, waitMs: 3 * ttlMs })('k');
    const outcome = await second.then(() => 'taken', (e: Error) => e.message);
    expect(outcome).toMatch(/could not take the publish lock .*within 1800 ms/);
    expect(first.lost.aborted).toBe(false);
    await first.release();
    const third = await redisLock(inject('redisUrl'), p, { ttlMs, waitMs: 200 })('k');
    await third.release();
  });

  it('a holder whose lock was taken from it is told (lost); its release leaves the new holder\'s lock', async () => {
    const p = prefix();
    const ttlMs = 600;
    const held = await redisLock(inject('redisUrl'), p, { ttlMs })('k');
    await redis.set(`${p}:tiles-lock:k`, 'someone-else', 'PX', 10_000);
    await sleep(ttlMs);
    expect(held.lost.aborted).toBe(true);
    expect((held.lost.reason as Error).message).toMatch(/expired while held/);
    await held.release(); // does not remove the other holder's lock
    expect(await redis.get(`${p}:tiles-lock:k`)).toBe('someone-else');
  });
});

describe('a bucket switch under a lost lock', () => {
  let s3: S3TestServer;
  beforeAll(async () => {
    s3 = await startS3Server();
  });
  afterAll(async () => {
    await s3?.close();
  });

  it('writes nothing and says why', async () => {
    const lostLock = async (): Promise<HeldLock> => {
      const c = new AbortController();
      c.abort(new Error('tiles: the publish lock k expired while held'));
      return { lost: c.signal, release: async () => undefined };
    };
    const bucket = s3.storage(prefix(), { lock: lostLock });
    await bucket.put('nwp/current.json', 'one');
    const tag = (await bucket.head('nwp/current.json'))!.tag;
    await expect(bucket.putIf('nwp/current.json', 'two', tag)).rejects.toThrow(/expired while held/);
    expect(Buffer.from((await bucket.get('nwp/current.json'))!).toString()).toBe('one');
  });
});
