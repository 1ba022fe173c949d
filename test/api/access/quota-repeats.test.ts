/**
 * A key that comes back within one script call is counted in the script's
 * own table (api/access/quota-script.ts), and a batch asked while a call is
 * out waits for it (api/access/quota-batch.ts). The expected verdicts and
 * counters are worked out by hand from the rules of api/access/quota.ts
 * (minute first, then day; a refused request gives back what it took).
 * Real Redis (the suite's), through a loopback proxy that can hold Redis's
 * answers back to keep a call out.
 */
import { randomUUID } from 'node:crypto';
import { createServer, connect, type Server, type Socket } from 'node:net';
import type { Redis } from 'ioredis';
import { afterAll, describe, expect, it } from 'vitest';
import { consumeMany, readNumbers, type WindowsRequest } from '../../../api/access/quota-script.js';
import { QuotaBatcher } from '../../../api/access/quota-batch.js';
import { connectAccessRedis } from '../../../api/access/redis-connection.js';
import { recordCommands } from '../../support/redis-commands.js';
import { startRedisServer } from '../../support/redis-server.js';

const redis: Redis = await connectAccessRedis(process.env.REDIS_URL!);
const used: string[] = [];
afterAll(async () => {
  if (used.length > 0) await redis.del(...used);
  await redis.quit();
});

function keysOf(id: string) {
  used.push(`mp:test:min:${id}`, `mp:test:day:${id}`, `mp:test:flood:${id}`, `mp:test:flood:blocked:${id}`);
  return { minuteKey: `mp:test:min:${id}`, dayKey: `mp:test:day:${id}`, floodKey: `mp:test:flood:${id}` };
}

function ask(id: string, limits: { minute: number; day: number }, floodLimit = 0): WindowsRequest {
  const k = keysOf(id);
  return { minuteKey: k.minuteKey, dayKey: k.dayKey, limits, minuteS: 60, dayS: 90_000, flood: { key: k.floodKey, limit: floodLimit } };
}

describe('a key repeated within one call', () => {
  it('takes up to the minute limit, refuses the rest, and leaves the counters at the requests served', async () => {
    const a = randomUUID();
    const b = randomUUID();
    const la = { minute: 3, day: 100 };
    const lb = { minute: 100, day: 2 };
    // B's day counter starts at 1: one request of B left today.
    await redis.set(keysOf(b).dayKey, 1, 'EX', 90_000);
    const batch = [ask(a, la), ask(b, lb), ask(a, la), ask(a, la), ask(b, lb), ask(a, la), ask(b, lb), ask(a, la)];
    const got = await consumeMany(redis, batch);
    // A: minute limit 3 → taken ×3 (counts 1, 2, 3), then refused by the minute with the count that was refused (4).
    // B: day 1 → 2 taken; the next two refused by the day (count 3), their minute increments given back (minute stays 1).
    expect(got.map((g) => [g.outcome, g.minuteCount, g.dayCount])).toEqual([
      ['taken', 1, 1],
      ['taken', 1, 2],
      ['taken', 2, 2],
      ['taken', 3, 3],
      ['day', 1, 3],
      ['minute', 4, 3],
      ['day', 1, 3],
      ['minute', 4, 3],
    ]);
    for (const g of got) {
      expect(g.minuteMsLeft).toBeGreaterThan(55_000);
      expect(g.minuteMsLeft).toBeLessThanOrEqual(60_000);
    }
    const [am, ad, bm, bd] = await Promise.all([
      redis.get(keysOf(a).minuteKey), redis.get(keysOf(a).dayKey), redis.get(keysOf(b).minuteKey), redis.get(keysOf(b).dayKey),
    ]);
    expect([am, ad, bm, bd]).toEqual(['3', '3', '1', '2']);
    // Created with their lifetimes, as on a first request.
    expect(await redis.ttl(keysOf(a).minuteKey)).toBeGreaterThan(55);
    expect(await redis.ttl(keysOf(a).dayKey)).toBeGreaterThan(89_000);
  });

  it('reports a flood-blocked request with the counts as the call has left them so far', async () => {
    const c = randomUUID();
    const lim = { minute: 10, day: 10 };
    const blocked = { ...ask(c, lim, 2), flood: { key: `mp:test:flood:blocked:${c}`, limit: 2 } };
    await redis.set(blocked.flood.key, 2, 'EX', 60);
    const got = await consumeMany(redis, [ask(c, lim), ask(c, lim), blocked, ask(c, lim)]);
    // Two taken (1, 2), the blocked one takes nothing and sees 2 and 2, the last is the third.
    expect(got.map((g) => [g.outcome, g.minuteCount, g.dayCount])).toEqual([
      ['taken', 1, 1],
      ['taken', 2, 2],
      ['flood', 2, 2],
      ['taken', 3, 3],
    ]);
    expect(got[2]!.floodMsLeft).toBeGreaterThan(55_000);
    expect(await redis.get(keysOf(c).minuteKey)).toBe('3');
  });
});

describe('counters as the call finds them', () => {
  it('keeps the time left of a counter given back to 0, and gives a counter without expiry its lifetime', async () => {
    const f = randomUUID();
    const g = randomUUID();
    const lim = { minute: 10, day: 10 };
    // F: its minute counter given back to 0 with 30 s left (a refusal or refund did it): the window is not restarted.
    await redis.set(keysOf(f).minuteKey, 0, 'PX', 30_000);
    // G: counters without expiry (written by hand): they get the window's and the day's lifetime.
    await redis.set(keysOf(g).minuteKey, 4);
    await redis.set(keysOf(g).dayKey, 7);
    const got = await consumeMany(redis, [ask(f, lim), ask(g, lim), ask(f, lim)]);
    expect(got.map((x) => [x.outcome, x.minuteCount, x.dayCount])).toEqual([
      ['taken', 1, 1],
      ['taken', 5, 8],
      ['taken', 2, 2],
    ]);
    expect(got[0]!.minuteMsLeft).toBeLessThanOrEqual(30_000);
    expect(got[0]!.minuteMsLeft).toBeGreaterThan(25_000);
    expect(await redis.pttl(keysOf(f).minuteKey)).toBeLessThanOrEqual(30_000);
    expect(got[1]!.minuteMsLeft).toBe(60_000);
    expect(await redis.ttl(keysOf(g).minuteKey)).toBeGreaterThan(55);
    expect(await redis.ttl(keysOf(g).dayKey)).toBeGreaterThan(89_000);
  });
});

describe('the script call as written on the wire', () => {
  it('loads the script with EVAL when Redis does not hold it (a new Redis), then goes back to EVALSHA', async () => {
    // A Redis of its own: the suite's may hold the script already, and flushing its scripts would disturb other suites.
    const server = await startRedisServer();
    const client = await connectAccessRedis(server.url);
    try {
      const d = randomUUID();
      const lim = { minute: 2, day: 5 };
      const { sent, stop } = recordCommands(client);
      const first = await consumeMany(client, [ask(d, lim), ask(d, lim), ask(d, lim)]);
      const second = await consumeMany(client, [ask(d, lim)]);
      stop();
      // Refused by hash (NOSCRIPT), sent again with its text, and held by Redis from then on.
      expect(sent).toEqual(['evalsha', 'eval', 'evalsha']);
      // The NOSCRIPT call ran nothing: minute limit 2 → taken, taken, refused (count 3); then refused again (3).
      expect(first.map((g) => [g.outcome, g.minuteCount, g.dayCount])).toEqual([
        ['taken', 1, 1],
        ['taken', 2, 2],
        ['minute', 3, 2],
      ]);
      expect(second.map((g) => [g.outcome, g.minuteCount, g.dayCount])).toEqual([['minute', 3, 2]]);
      expect(await client.get(keysOf(d).minuteKey)).toBe('2');
    } finally {
      await client.quit();
      await server.stop();
    }
  });

  it('names each counter once per call, however often and in whatever order its requests come', async () => {
    const h = randomUUID();
    const i = randomUUID();
    const lim = { minute: 100, day: 100 };
    const client = await connectAccessRedis(process.env.REDIS_URL!);
    const written: Buffer[] = [];
    const send = client.sendCommand.bind(client);
    client.sendCommand = ((...args: Parameters<Redis['sendCommand']>) => {
      written.push(args[0].toWritable(client) as Buffer);
      return send(...args);
    }) as Redis['sendCommand'];
    try {
      // H ×3, I, H, I ×2, each with its flood counter: six counters in all.
      const batch = [ask(h, lim, 5), ask(h, lim, 5), ask(h, lim, 5), ask(i, lim, 5), ask(h, lim, 5), ask(i, lim, 5), ask(i, lim, 5)];
      const got = await consumeMany(client, batch);
      expect(got.map((x) => x.minuteCount)).toEqual([1, 2, 3, 1, 4, 2, 3]);
      const text = written.at(-1)!.toString('latin1');
      // *<arguments>: evalsha, the hash, the key count, six keys, one argument (the requests).
      expect(text.startsWith('*10\r\n$7\r\nevalsha\r\n$40\r\n')).toBe(true);
      expect(text.split(keysOf(h).minuteKey).length - 1).toBe(1);
      expect(text.split(keysOf(i).floodKey).length - 1).toBe(1);
    } finally {
      client.sendCommand = send;
      await client.quit();
    }
  });

  it('reads the reply, little-endian doubles, and refuses a reply of another length or type', () => {
    const values = [2, 15, 59_998, -2, 0, 9_999_999_999];
    const packed = Buffer.alloc(8 * values.length);
    values.forEach((v, i) => packed.writeDoubleLE(v, 8 * i));
    expect(readNumbers(packed)).toEqual(values);
    expect(readNumbers(Buffer.alloc(0))).toEqual([]);
    expect(() => readNumbers(Buffer.alloc(12))).toThrow(/malformed/);
    expect(() => readNumbers('2,15' as unknown as Buffer)).toThrow(/malformed/);
  });

  it('carries keys and arguments of any length byte for byte (an IPv6 flood id, multi-byte text)', async () => {
    const e = randomUUID();
    const lim = { minute: 10, day: 10 };
    // A key with characters of 1 to 4 bytes in UTF-8: the bulk lengths are counted in bytes.
    const odd = `mp:test:flood:ip:2001:db8::1:é€😀:${e}`;
    used.push(odd);
    await redis.set(odd, 2, 'EX', 60);
    const got = await consumeMany(redis, [{ ...ask(e, lim, 2), flood: { key: odd, limit: 2 } }, ask(e, lim)]);
    expect(got.map((g) => g.outcome)).toEqual(['flood', 'taken']);
    expect(await redis.get(odd)).toBe('2');
  });
});

/** A TCP proxy to Redis whose answers can be held back (the requests go through at once). */
async function slowProxy(target: string): Promise<{ url: string; holdMs: { value: number }; close(): Promise<void> }> {
  const { hostname, port } = new URL(target);
  const holdMs = { value: 0 };
  const sockets = new Set<Socket>();
  const server: Server = createServer((client) => {
    const upstream = connect(Number(port), hostname);
    sockets.add(client).add(upstream);
    client.on('data', (d) => upstream.write(d));
    upstream.on('data', (d) => (holdMs.value > 0 ? setTimeout(() => client.write(d), holdMs.value) : client.write(d)));
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
    client.on('error', () => upstream.destroy());
    upstream.on('error', () => client.destroy());
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port: p } = server.address() as { port: number };
  return {
    url: `redis://127.0.0.1:${p}`,
    holdMs,
    close: () => {
      for (const s of sockets) s.destroy();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}

const nextPass = () => new Promise((ok) => setImmediate(ok));

describe('batches asked while a call is out', () => {
  it('wait for its answer and then leave as one call', async () => {
    const proxy = await slowProxy(process.env.REDIS_URL!);
    const client = await connectAccessRedis(proxy.url);
    try {
      const batcher = new QuotaBatcher(client, 256, 10_000);
      const id = randomUUID();
      const lim = { minute: 1000, day: 1000 };
      await batcher.decide(ask(id, lim)); // loads the script
      proxy.holdMs.value = 200;
      const first = Array.from({ length: 3 }, () => batcher.decide(ask(id, lim)));
      await nextPass();
      await nextPass(); // the first call is out
      expect(batcher.sent.calls).toBe(2);
      const later: Array<Promise<unknown>> = [];
      for (let pass = 0; pass < 3; pass++) {
        for (let i = 0; i < 4; i++) later.push(batcher.decide(ask(id, lim)));
        await nextPass();
      }
      expect(batcher.sent.calls).toBe(2); // held: three passes' requests wait
      const verdicts = await Promise.all([...first, ...later]);
      expect(batcher.sent).toMatchObject({ calls: 3, decisions: 1 + 3 + 12 });
      // Decided in the order asked: the first request made the count 1.
      expect(verdicts.map((v) => (v as { minuteCount: number }).minuteCount)).toEqual(Array.from({ length: 15 }, (_, i) => i + 2));
    } finally {
      client.disconnect();
      await proxy.close();
    }
  });

  it('leave as soon as the answer before them comes, before the answered requests carry on and before their own pass', async () => {
    // A stand-in for the client: each call waits until the test answers it (seven doubles per record, api/access/quota-lua.ts).
    const answers: Array<(reply: Buffer) => void> = [];
    const fake = { sendCommand: () => new Promise<Buffer>((ok) => answers.push(ok)) } as unknown as Redis;
    const reply = (...values: number[]) => {
      const b = Buffer.alloc(8 * values.length);
      values.forEach((v, i) => b.writeDoubleLE(v, 8 * i));
      return b;
    };
    const batcher = new QuotaBatcher(fake, 256, 10_000);
    const id = randomUUID();
    const lim = { minute: 1000, day: 1000 };
    const first = batcher.decide(ask(id, lim));
    await nextPass();
    expect(batcher.sent.calls).toBe(1);
    // Asked now, it would leave in the next pass; the answer to the first call comes before that pass.
    const second = batcher.decide(ask(id, lim));
    let callsWhenFirstCarriesOn = 0;
    const firstCarriesOn = first.then((v) => ((callsWhenFirstCarriesOn = batcher.sent.calls), v));
    answers[0]!(reply(2, 1, 60_000, 1, 0, 0, 0));
    expect((await firstCarriesOn).minuteCount).toBe(1);
    expect(callsWhenFirstCarriesOn).toBe(2);
    answers[1]!(reply(2, 2, 59_000, 2, 0, 0, 0));
    expect(await second).toMatchObject({ outcome: 'taken', minuteCount: 2, minuteMsLeft: 59_000 });
    await nextPass();
    expect(batcher.sent).toMatchObject({ calls: 2, decisions: 2, answered: 2 });
  });

  it('leave after the hold time when the call before is slower', async () => {
    const proxy = await slowProxy(process.env.REDIS_URL!);
    const client = await connectAccessRedis(proxy.url);
    try {
      const batcher = new QuotaBatcher(client, 256, 20);
      const id = randomUUID();
      const lim = { minute: 1000, day: 1000 };
      await batcher.decide(ask(id, lim));
      proxy.holdMs.value = 300;
      const first = batcher.decide(ask(id, lim));
      await nextPass();
      await nextPass();
      const second = batcher.decide(ask(id, lim));
      await new Promise((ok) => setTimeout(ok, 120));
      // The first call is still out (300 ms), the second left after its 20 ms hold.
      expect(batcher.sent).toMatchObject({ calls: 3, answered: 1 });
      expect(await Promise.all([first, second]).then((v) => v.map((x) => x.minuteCount))).toEqual([2, 3]);
    } finally {
      client.disconnect();
      await proxy.close();
    }
  });
});
