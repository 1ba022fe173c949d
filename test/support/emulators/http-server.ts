/**
 * The one helper every provider emulator shares: a real HTTP server on
 * 127.0.0.1 on a free port (the kernel picks it), whose close() also ends
 * open keep-alive connections so a suite never waits for them.
 *
 *   const s = await listenLocal((req, res) => res.end('ok'));
 *   fetch(s.url('/path')); ...; await s.close();
 */
import { createServer, type RequestListener, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

export interface LocalServer {
  server: Server;
  port: number;
  /** Base URL, `http://127.0.0.1:<port>`. */
  origin: string;
  /** Absolute URL of a path (starting with /) on this server. */
  url(path: string): string;
  close(): Promise<void>;
}

export async function listenLocal(handler: RequestListener): Promise<LocalServer> {
  const sockets = new Set<Socket>();
  const server = createServer(handler);
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((ok, fail) => {
    server.once('error', fail);
    server.listen(0, '127.0.0.1', () => ok());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    server,
    port,
    origin,
    url: (path) => `${origin}${path}`,
    close: () =>
      new Promise<void>((ok) => {
        for (const s of sockets) s.destroy();
        server.close(() => ok());
      }),
  };
}
