/**
 * A TCP proxy in front of a server (a test's redis-server) that can stage a
 * network blip: hold back the server's replies (the requests still reach the
 * server, which runs them), then cut the client connections, whose replies
 * are then lost. Connections made after the cut are relayed as usual.
 *
 *   const proxy = await startCutProxy(redis.port);
 *   const client = new Redis(proxy.url);
 *   proxy.holdReplies(); ...; proxy.cut();
 */
import { connect, createServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';

export interface CutProxy {
  url: string;
  /** From now on the server's replies on the open connections are dropped, not relayed. */
  holdReplies(): void;
  /** Closes every open client connection (and its server side); later connections are relayed. */
  cut(): void;
  close(): Promise<void>;
}

export async function startCutProxy(targetPort: number): Promise<CutProxy> {
  const open = new Set<{ client: Socket; server: Socket; hold: boolean }>();
  const proxy = createServer((client) => {
    const server = connect(targetPort, '127.0.0.1');
    const pair = { client, server, hold: false };
    open.add(pair);
    client.on('data', (b) => server.write(b));
    server.on('data', (b) => {
      if (!pair.hold) client.write(b);
    });
    const end = () => {
      open.delete(pair);
      client.destroy();
      server.destroy();
    };
    client.on('close', end).on('error', end);
    server.on('close', end).on('error', end);
  });
  await new Promise<void>((ok) => proxy.listen(0, '127.0.0.1', ok));
  const { port } = proxy.address() as AddressInfo;
  return {
    url: `redis://127.0.0.1:${port}`,
    holdReplies: () => {
      for (const pair of open) pair.hold = true;
    },
    cut: () => {
      for (const pair of [...open]) {
        pair.client.destroy();
        pair.server.destroy();
      }
    },
    close: () => {
      for (const pair of [...open]) pair.client.destroy();
      return new Promise((ok) => proxy.close(() => ok()));
    },
  };
}
