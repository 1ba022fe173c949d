/**
 * Answering in batches (api/plugins/batching.ts): the first onRequest hook
 * carries on only in the check phase, after the poll phase has read every
 * request that is ready; the answers are unchanged. What it buys is
 * measured in `npm run bench` (docs/benchmarks.md), not here.
 */
import { connect, type AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { afterEach, describe, expect, it } from 'vitest';
import { registerBatching } from '../../api/plugins/batching.js';

describe('answering in batches', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanup.splice(0)) await c();
  });

  it('reads every request that arrived together before it answers the first', async () => {
    const app = Fastify({ logger: false });
    registerBatching(app);
    const events: string[] = [];
    // Runs after the hand-over: the start of an answer.
    app.addHook('onRequest', async (request) => {
      events.push(`answer ${(request.query as { n: string }).n}`);
    });
    app.get('/x', async () => ({ ok: true }));
    app.server.on('request', (req: { url?: string }) => events.push(`read ${new URL(req.url ?? '', 'http://h').searchParams.get('n')}`));
    let accepted = 0;
    const bothAccepted = new Promise<void>((ok) => app.server.on('connection', () => ++accepted === 2 && ok()));
    await app.listen({ port: 0, host: '127.0.0.1' });
    cleanup.push(() => app.close());
    const { port } = app.server.address() as AddressInfo;
    const socks = [1, 2].map(() => connect(port, '127.0.0.1'));
    cleanup.push(async () => socks.forEach((s) => s.destroy()));
    await Promise.all([...socks.map((s) => new Promise((ok) => s.once('connect', ok))), bothAccepted]);
    const answered = socks.map(
      (s) =>
        new Promise<string>((ok) => {
          let got = '';
          s.on('data', (d) => (got += d.toString('latin1')).endsWith('}') && ok(got));
        }),
    );
    // Both requests are in the server's socket buffers before its next poll: one turn reads both.
    socks.forEach((s, i) => s.write(`GET /x?n=${i + 1} HTTP/1.1\r\nHost: h\r\n\r\n`));
    const bodies = await Promise.all(answered);
    expect(events).toEqual(['read 1', 'read 2', 'answer 1', 'answer 2']); // without the hand-over: answer 1, read 1, answer 2, read 2
    for (const b of bodies) expect(b).toMatch(/^HTTP\/1\.1 200[\s\S]*\{"ok":true\}$/);
  });
});
