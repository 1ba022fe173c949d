/**
 * The quota script decides the requests of a run (consecutive alike
 * requests, one record) from the first of them (api/access/quota-lua.ts).
 * Checked against a model written here from the rules of api/access/quota.ts
 * alone — each request in order: refused by the flood guard while its counter
 * is at the limit (nothing taken), else minute first, then day, a refused
 * request giving back what it took — on random batches: a few keys, runs of
 * every length, limits met within the batch, counters already part used,
 * blocked flood counters. Real Redis (the suite's).
 */
import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { consumeMany, type WindowsRequest } from '../../../api/access/quota-script.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { mulberry32 } from '../../../bench/prng.js';

const redis: Redis = await connectAccessRedis(process.env.REDIS_URL!);
const used: string[] = [];
afterAll(async () => {
  if (used.length > 0) await redis.del(...used);
  await redis.quit();
});

interface Client { request: WindowsRequest; minute: number; day: number; flood: number }

/** The verdicts of `batch` one request at a time, and the counters after it. */
function model(batch: Client[]): { got: [string, number, number][]; counters: Map<string, number> } {
  const counters = new Map<string, number>();
  const count = (key: string, start: number) => counters.get(key) ?? start;
  const got: [string, number, number][] = [];
  for (const c of batch) {
    const r = c.request;
    const m = count(r.minuteKey, c.minute);
    const d = count(r.dayKey, c.day);
    if (r.flood && r.flood.limit > 0 && c.flood >= r.flood.limit) got.push(['flood', m, d]);
    else if (m + 1 > r.limits.minute) got.push(['minute', m + 1, d]);
    else if (d + 1 > r.limits.day) got.push(['day', m, d + 1]);
    else {
      counters.set(r.minuteKey, m + 1).set(r.dayKey, d + 1);
      got.push(['taken', m + 1, d + 1]);
    }
  }
  return { got, counters };
}

describe('runs of alike requests', () => {
  it('decides every request of every run as one by one, and leaves the counters at the requests served', async () => {
    const random = mulberry32(20261127);
    const pick = (n: number) => Math.floor(random() * n);
    for (let trial = 0; trial < 40; trial++) {
      // Three clients, each with counters already part used (or absent) and a flood counter blocked or not.
      const clients: Client[] = [];
      for (let c = 0; c < 3; c++) {
        const id = randomUUID();
        const keys = { minuteKey: `mp:test:min:${id}`, dayKey: `mp:test:day:${id}`, flood: `mp:test:flood:${id}` };
        used.push(keys.minuteKey, keys.dayKey, keys.flood);
        const minute = pick(4);
        const day = pick(6);
        const flood = pick(3);
        if (minute > 0) await redis.set(keys.minuteKey, minute, 'EX', 60);
        if (day > 0) await redis.set(keys.dayKey, day, 'EX', 90_000);
        if (flood > 0) await redis.set(keys.flood, flood, 'EX', 60);
        const floodLimit = pick(2) === 0 ? 0 : 1 + pick(3);
        const request: WindowsRequest = {
          minuteKey: keys.minuteKey, dayKey: keys.dayKey, limits: { minute: 1 + pick(9), day: 1 + pick(12) }, minuteS: 60, dayS: 90_000,
          flood: floodLimit > 0 ? { key: keys.flood, limit: floodLimit } : undefined,
        };
        clients.push({ request, minute, day, flood });
      }
      // Runs of 1 to 12 requests of one client, in random order.
      const batch: Client[] = [];
      while (batch.length < 40) {
        const c = clients[pick(3)]!;
        for (let n = 1 + pick(12); n > 0; n--) batch.push(c);
      }
      const want = model(batch);
      const got = await consumeMany(redis, batch.map((c) => c.request));
      expect(got.map((g) => [g.outcome, g.minuteCount, g.dayCount]), `trial ${trial}`).toEqual(want.got);
      for (const g of got) {
        // A blocked request before any of its client's was taken may find no minute counter (PTTL -2).
        if (g.outcome === 'flood' && g.minuteMsLeft === -2) continue;
        expect(g.minuteMsLeft).toBeGreaterThan(50_000);
        expect(g.minuteMsLeft).toBeLessThanOrEqual(60_000);
        if (g.outcome === 'flood') expect(g.floodMsLeft).toBeGreaterThan(50_000);
        else expect(g.floodMsLeft).toBe(0);
      }
      for (const c of clients) {
        const r = c.request;
        const [m, d] = await Promise.all([redis.get(r.minuteKey), redis.get(r.dayKey)]);
        expect(Number(m ?? 0), `trial ${trial} minute`).toBe(want.counters.get(r.minuteKey) ?? c.minute);
        expect(Number(d ?? 0), `trial ${trial} day`).toBe(want.counters.get(r.dayKey) ?? c.day);
      }
    }
  });
});
