/**
 * An HTTP proxy in front of the suite's S3 server (./s3-server.ts) that makes
 * it look like a bucket across a network: every request waits `delayMs`
 * before it is forwarded (a real bucket's GET costs 30–50 ms of waiting), the
 * GETs are counted as they arrive (how many at once: concurrency measured
 * at the server, not timed), and chosen requests can be failed.
 *
 *   const s3 = await startS3Server();
 *   const proxy = await startLatencyProxy(s3.endpoint, { delayMs: 30 });
 *   const storage = s3.storage('prefix', { endpoint: proxy.endpoint });
 *
 * s3rver does not check SigV4 signatures, so a request signed for the proxy's
 * host is answered as it is.
 */
import { createServer, request, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** The request's path, without its query (the SDK adds `?x-id=GetObject`). */
function pathOf(req: IncomingMessage): string {
  return (req.url ?? '').split('?')[0]!;
}

export interface LatencyProxy {
  endpoint: string;
  /** GETs received (those `count` picks), GETs being answered now, and the most at once so far. */
  readonly gets: number;
  readonly getsInFlight: number;
  readonly maxGetsInFlight: number;
  /** Start counting afresh (the most at once, and the GETs). */
  resetCounts(): void;
  /** Answer 500 to every request whose method and path (without the query) `fail` picks (null: none); the counts still see them. */
  failWhen(fail: ((method: string, path: string) => boolean) | null): void;
  close(): Promise<void>;
}

/** `count`: which GETs the counts see, by path without the query (default all). */
export async function startLatencyProxy(target: string, opts: { delayMs: number; count?: (path: string) => boolean }): Promise<LatencyProxy> {
  const to = new URL(target);
  let gets = 0;
  let inFlight = 0;
  let maxInFlight = 0;
  let fail: ((method: string, path: string) => boolean) | null = null;

  const forward = (req: IncomingMessage, res: ServerResponse) => {
    if (fail?.(req.method ?? '', pathOf(req))) {
      req.resume();
      res.writeHead(500, { 'content-type': 'application/xml' });
      res.end('<?xml version="1.0" encoding="UTF-8"?><Error><Code>InternalError</Code><Message>failed by the test proxy</Message></Error>');
      return;
    }
    const up = request({ host: to.hostname, port: to.port, method: req.method, path: req.url, headers: req.headers }, (r) => {
      res.writeHead(r.statusCode ?? 502, r.headers);
      r.pipe(res);
    });
    up.on('error', (err) => {
      if (!res.headersSent) res.writeHead(502);
      res.end(String(err));
    });
    req.pipe(up);
  };

  const server = createServer((req, res) => {
    if (req.method === 'GET' && (opts.count?.(pathOf(req)) ?? true)) {
      gets++;
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      res.once('close', () => inFlight--);
    }
    setTimeout(() => forward(req, res), opts.delayMs);
  });
  // Many GETs at once on keep-alive sockets: no per-socket request limit, no early close.
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    get gets() {
      return gets;
    },
    get getsInFlight() {
      return inFlight;
    },
    get maxGetsInFlight() {
      return maxInFlight;
    },
    resetCounts: () => {
      gets = 0;
      maxInFlight = inFlight;
    },
    failWhen: (f) => {
      fail = f;
    },
    close: () => {
      server.closeAllConnections();
      return new Promise((ok) => server.close(() => ok()));
    },
  };
}
