/**
 * A bucket that stops answering: reads already cached keep answering, a read
 * that needs the bucket fails within the configured time with the tile
 * store's STORAGE_UNAVAILABLE (503 through the API's one error mapping), not
 * a hang and not a 500; when the bucket answers again, so does the reader.
 * The bucket is s3rver behind a loopback TCP relay that can be switched to
 * accept connections and never answer (a bucket hung or black-holed).
 */
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { TileError } from '../../../tiles/errors.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { failureOf } from '../../../api/plugins/errors.js';
import { constantInput, T0 } from '../fields.js';

let s3: S3TestServer;
let relay: { server: Server; port: number; hang(): void; pass(): void; close(): void };

beforeAll(async () => {
  s3 = await startS3Server();
  const target = Number(new URL(s3.endpoint).port);
  let hanging = false;
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => undefined);
    if (hanging) return; // accepted, never answered
    const upstream = createConnection({ host: '127.0.0.1', port: target });
    sockets.add(upstream);
    upstream.on('close', () => sockets.delete(upstream));
    upstream.on('error', () => client.destroy());
    client.pipe(upstream).pipe(client);
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const port = (server.address() as { port: number }).port;
  const dropAll = () => sockets.forEach((s) => s.destroy());
  relay = {
    server, port,
    hang: () => { hanging = true; dropAll(); },
    pass: () => { hanging = false; dropAll(); },
    close: () => { dropAll(); server.close(); },
  };
});
afterAll(async () => {
  relay?.close();
  await s3?.close();
});

describe('a bucket that stops answering', () => {
  it('cached answers go on, uncached reads fail in bounded time as STORAGE_UNAVAILABLE → 503, and recover', async () => {
    const prefix = `down-${randomBytes(4).toString('hex')}`;
    // A grid wide enough that two points lie in different chunks (edge 32 cells of 0.1°).
    const grid = { kind: 'regular_ll' as const, nx: 80, ny: 40, x0: 7, y0: 36, dx: 0.1, dy: 0.1 };
    await writeProductVersion(s3.storage(prefix), constantInput('nwp', 4, grid));
    const timeoutMs = 600;
    const store = new TileStore(s3.storage(prefix, { endpoint: `http://127.0.0.1:${relay.port}`, timeoutMs }));
    const west = [37, 7.5] as const; // chunk (0, 0)
    const east = [37, 14.5] as const; // chunk (0, 2)
    expect((await store.sample('nwp', ...west, T0)).values.temperature_2m).toBeCloseTo(4, 2);

    relay.hang();
    expect(store.trySample('nwp', ...west, T0)!.values.temperature_2m).toBeCloseTo(4, 2);
    const t0 = performance.now();
    const err = await store.sample('nwp', ...east, T0).then(() => null, (e: unknown) => e);
    const took = performance.now() - t0;
    expect(err).toBeInstanceOf(TileError);
    expect((err as TileError).code).toBe('STORAGE_UNAVAILABLE');
    expect((err as TileError).message).toMatch(/no answer within 600 ms/);
    // Bounded: one request's timeout (the SDK's retry runs inside it), far from a hang.
    expect(took).toBeLessThan(3 * timeoutMs);
    const f = failureOf(err as Error);
    expect([f.status, f.code]).toEqual([503, 'DATA_NOT_AVAILABLE']);
    expect(f.message).not.toContain(s3.bucket);
    // The manifest poller failing meanwhile keeps the version known: cached answers still flow.
    await new Promise((r) => setTimeout(r, 2 * timeoutMs));
    expect(store.trySample('nwp', ...west, T0)!.values.temperature_2m).toBeCloseTo(4, 2);

    relay.pass();
    expect((await store.sample('nwp', ...east, T0)).values.temperature_2m).toBeCloseTo(4, 2);
  });
});
