/**
 * A real HTTP server on 127.0.0.1 that serves real files with scripted
 * misbehaviour per path: fail the first N requests with a status, stall the
 * first N (headers, then silence), truncate the body (Content-Length says
 * more), stream slowly. Counts requests per path.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listenLocal } from '../../support/emulators/http-server.js';

export interface Route {
  body: Buffer;
  /** Answer the first `count` requests with `status` (e.g. 503, 429 with a Retry-After) and a short text. */
  failFirst?: { count: number; status: number; retryAfter?: string };
  /** Send headers and a few bytes, then nothing, for the first `count` requests. */
  stallFirst?: number;
  /** Send only this many bytes of the body (with the full Content-Length), then close; for the first `count` requests (Infinity = always). */
  truncate?: { bytes: number; count: number };
  /** Send the body in `chunk`-byte pieces every `everyMs` for the first `count` requests. */
  slow?: { chunk: number; everyMs: number; count: number };
  /** Fixed status for every request (404, 403, ...), with `message` as a plain-text body when given. */
  status?: number;
  message?: string;
}

export interface FileServer {
  port: number;
  url(path: string): string;
  routes: Map<string, Route>;
  hits(path: string): number;
  /** Date.now() at the arrival of each request for `path`. */
  times(path: string): number[];
  /** Forget routes and request counts (between tests). */
  reset(): void;
  /** Resolves when `path` has been requested `n` times and, for a slow route, `bytes` sent in the current response. */
  onProgress(path: string, bytesAtLeast: number): Promise<void>;
  close(): Promise<void>;
}

export async function startFileServer(): Promise<FileServer> {
  const routes = new Map<string, Route>();
  const counts = new Map<string, number>();
  const arrivals = new Map<string, number[]>();
  const sent = new Map<string, number>();
  const waiters: { path: string; bytes: number; resolve: () => void }[] = [];
  const noteSent = (path: string, n: number) => {
    sent.set(path, n);
    for (const w of [...waiters]) {
      if (w.path === path && n >= w.bytes) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve();
      }
    }
  };

  const local = await listenLocal((req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').split('?')[0]!;
    const n = (counts.get(path) ?? 0) + 1;
    counts.set(path, n);
    arrivals.set(path, [...(arrivals.get(path) ?? []), Date.now()]);
    const route = routes.get(path);
    if (!route) {
      res.writeHead(404).end();
      return;
    }
    if (route.status) {
      if (route.message) res.writeHead(route.status, { 'content-type': 'text/plain' }).end(route.message);
      else res.writeHead(route.status).end();
      return;
    }
    if (route.failFirst && n <= route.failFirst.count) {
      const extra = route.failFirst.retryAfter ? { 'retry-after': route.failFirst.retryAfter } : {};
      res.writeHead(route.failFirst.status, { 'content-type': 'text/plain', ...extra }).end('try later');
      return;
    }
    const headers = { 'content-type': 'application/octet-stream', 'content-length': String(route.body.length) };
    if (route.stallFirst && n <= route.stallFirst) {
      res.writeHead(200, headers);
      res.write(route.body.subarray(0, 16)); // then silence: the client's idle timeout must fire
      return;
    }
    if (route.truncate && n <= route.truncate.count) {
      res.writeHead(200, headers);
      res.write(route.body.subarray(0, route.truncate.bytes), () => res.socket?.destroy());
      return;
    }
    if (route.slow && n <= route.slow.count) {
      res.writeHead(200, headers);
      let off = 0;
      const { chunk, everyMs } = route.slow;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        const end = Math.min(off + chunk, route.body.length);
        res.write(route.body.subarray(off, end));
        off = end;
        noteSent(path, off);
        if (off >= route.body.length) {
          clearInterval(timer);
          res.end();
        }
      }, everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    res.writeHead(200, headers).end(route.body);
  });
  return {
    port: local.port,
    url: local.url,
    routes,
    hits: (p) => counts.get(p) ?? 0,
    times: (p) => arrivals.get(p) ?? [],
    reset: () => {
      routes.clear();
      counts.clear();
      arrivals.clear();
      sent.clear();
    },
    onProgress: (path, bytes) =>
      new Promise<void>((resolve) => {
        if ((sent.get(path) ?? 0) >= bytes) resolve();
        else waiters.push({ path, bytes, resolve });
      }),
    close: local.close,
  };
}
