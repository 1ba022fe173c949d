/**
 * The quota decisions of one pass of the event loop go to Redis as one
 * script call (api/access/quota-batch.ts), and Redis still decides each
 * request in order: exactly K of N taken for a key with K left, in one
 * process or across two; each request of a mixed batch answered from its own
 * verdict. Real Redis (the suite's).
 */
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { loadAccessConfig, type AccessConfig } from '../../../api/access/config.js';
import { FloodGuard } from '../../../api/access/flood-guard.js';
import { Quota, type QuotaDecision } from '../../../api/access/quota.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { recordCommands } from '../../support/redis-commands.js';
import { CLI_COMMAND, REPO } from './fixtures/api-process.js';

const redis: Redis = await connectAccessRedis(process.env.REDIS_URL!);
afterAll(async () => {
  await redis.quit();
});

function quotaConfig(over: Partial<AccessConfig['quota']>): AccessConfig['quota'] {
  return { ...loadAccessConfig({}).quota, ...over };
}

const verdict = (d: QuotaDecision) => (d.allowed ? 'taken' : d.refusedBy);

describe('quota decisions in batches (Redis)', () => {
  it('takes exactly K of a batch of N > K, the first K in order, in one script call', async () => {
    const client = await connectAccessRedis(process.env.REDIS_URL!);
    try {
      const q = new Quota(quotaConfig({ developer: { day: 10_000, minute: 15 } }), client);
      await q.consume(randomUUID(), 'developer'); // loads the script (EVALSHA, then EVAL)
      const { sent } = recordCommands(client);
      const calls = q.batcher!.sent.calls;
      const id = randomUUID();
      // 40 asked in the same pass of the event loop, as a server asks for the requests it read together.
      const decisions = await Promise.all(Array.from({ length: 40 }, () => q.consume(id, 'developer')));
      expect(q.batcher!.sent.calls - calls).toBe(1);
      expect(sent).toEqual(['evalsha']);
      expect(q.batcher!.sent).toMatchObject({ calls: 2, decisions: 41, answered: 2 }); // with the first, loading call
      expect(decisions.map(verdict)).toEqual([...Array(15).fill('taken'), ...Array(25).fill('minute')]);
      // Each its own count: the taken ones saw 1..15 used, the refused the full window.
      expect(decisions.slice(0, 15).map((d) => d.snapshot!.minute.used)).toEqual(Array.from({ length: 15 }, (_, i) => i + 1));
      expect(decisions.slice(15).every((d) => d.snapshot!.minute.remaining === 0)).toBe(true);
      const usage = await q.peek(id, 'developer');
      expect([usage.minute.used, usage.day.used]).toEqual([15, 15]);
    } finally {
      await client.quit();
    }
  });

  it('answers each request of a mixed batch (keys, plans, day spent, flood-blocked) from its own verdict', async () => {
    const q = new Quota(quotaConfig({ free: { day: 50, minute: 2 }, developer: { day: 3, minute: 100 } }), redis);
    const guard = new FloodGuard(2, redis);
    const [free, dev, biz, blocked] = [randomUUID(), randomUUID(), randomUUID(), randomUUID()];
    for (let i = 0; i < 2; i++) await guard.countRefusal(`key:${blocked}`);
    const calls = q.batcher!.sent.calls;
    // Interleaved, all in one pass: free ×4 (minute 2), developer ×5 (day 3), business ×3, a blocked business key ×2.
    const asks: Array<[string, 'free' | 'developer' | 'business']> = [
      [free, 'free'], [dev, 'developer'], [biz, 'business'], [blocked, 'business'], [free, 'free'], [dev, 'developer'], [free, 'free'],
      [biz, 'business'], [dev, 'developer'], [blocked, 'business'], [dev, 'developer'], [free, 'free'], [biz, 'business'], [dev, 'developer'],
    ];
    const decisions = await Promise.all(asks.map(([id, plan]) => q.consume(id, plan, Date.now(), { guard, id: `key:${id}` })));
    expect(q.batcher!.sent.calls - calls).toBe(1);
    const of = (id: string) => decisions.filter((_, i) => asks[i]![0] === id);
    expect(of(free).map(verdict)).toEqual(['taken', 'taken', 'minute', 'minute']);
    expect(of(dev).map(verdict)).toEqual(['taken', 'taken', 'taken', 'day', 'day']);
    expect(of(biz).map(verdict)).toEqual(['taken', 'taken', 'taken']);
    expect(of(biz).map((d) => d.snapshot!.minute.remaining)).toEqual([599, 598, 597]); // Business: 600 a minute
    expect(of(blocked).map(verdict)).toEqual(['flood', 'flood']);
    // Refused requests took nothing: each key's counters hold its served requests.
    const used = async (id: string, plan: 'free' | 'developer' | 'business') => {
      const u = await q.peek(id, plan);
      return [u.minute.used, u.day.used];
    };
    expect(await used(free, 'free')).toEqual([2, 2]);
    expect(await used(dev, 'developer')).toEqual([3, 3]);
    expect(await used(biz, 'business')).toEqual([3, 3]);
    expect(await used(blocked, 'business')).toEqual([0, 0]);
  });

  it('takes exactly K across two processes each sending a batch of N at once (2N > K)', async () => {
    const id = randomUUID();
    const env = { ...process.env, METEOPUNTO_QUOTA_DEVELOPER_MINUTE: '45', METEOPUNTO_QUOTA_DEVELOPER_DAY: '10000' };
    let ready = 0;
    const children = [0, 1].map(() => spawn(process.execPath, [...CLI_COMMAND.slice(0, 2), 'test/api/access/fixtures/quota-batch-child.ts', id, '60'], {
      cwd: REPO, env, stdio: ['pipe', 'pipe', 'pipe'],
    }));
    const outputs = children.map((c) => new Promise<{ code: number | null; out: string; err: string }>((done) => {
      let out = '';
      let err = '';
      let said = false;
      c.stdout!.on('data', (b: Buffer) => {
        out += b.toString();
        // Both connected and waiting (tsx start-up takes a while), then go together.
        if (!said && out.startsWith('ready\n')) {
          said = true;
          if (++ready === children.length) for (const x of children) x.stdin!.end('go\n');
        }
      });
      c.stderr!.on('data', (b: Buffer) => (err += b.toString()));
      c.once('exit', (code) => done({ code, out, err }));
    }));
    const results = await Promise.all(outputs);
    for (const r of results) expect(r.code, r.err).toBe(0);
    const parsed = results.map((r) => JSON.parse(r.out.slice('ready\n'.length)) as { taken: number; calls: number; decisions: number });
    // Each process sent its 60 decisions as one call; Redis decided all 120 and took exactly 45.
    expect(parsed.map((p) => [p.calls, p.decisions])).toEqual([[1, 60], [1, 60]]);
    expect(parsed[0]!.taken + parsed[1]!.taken).toBe(45);
    const date = new Date().toISOString().slice(0, 10);
    expect(await redis.get(`mp:quota:day:${date}:${id}`)).toBe('45');
    expect(await redis.get(`mp:quota:min:${id}`)).toBe('45');
  }, 60_000);
});
