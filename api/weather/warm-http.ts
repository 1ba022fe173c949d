/**
 * The HTTP half of a starting server's warm-up (the answers' half:
 * ./warm-answers.ts): GETs to the server's own address over loopback,
 * several connections at once, so that Node's HTTP parser and writer,
 * Fastify's routing, hooks and replies, and for weather.php the key check,
 * the quota call and the route (./start-warm.ts gives the paths and the
 * key) are compiled before the first client arrives.
 *
 * The client is a raw socket per connection, keep-alive, each request sent
 * when the one before is answered, as clients do, the last one
 * `Connection: close`: its own CPU is a write and the reads, where
 * node:http's client cost about as much as the server's answer (measured:
 * docs/benchmarks-journal.md, "The start window").
 */
import { connect } from 'node:net';
import { ROOT_PATH } from '../routes/root.js';

export interface HttpWarmReport {
  requests: number;
  /** Requests not answered 200. */
  errors: number;
  ms: number;
}

/** Requests per connection, then it closes. */
const BURST = 50;
const STATUS_200 = 'HTTP/1.1 200 ';
const HEAD_END = '\r\n\r\n';
const CONTENT_LENGTH = /\r\ncontent-length: *(\d+)/i;

/**
 * One keep-alive connection to `host`:`port` asking `n` GETs of `/` one after the other, each sent when the one
 * before is answered, as a client does (pipelined requests take other paths in node:http: a response queued behind
 * another, no socket timeout refreshed between requests), the last one `Connection: close`; each request with the
 * header lines `extra()` gives (each ending in CRLF). Resolves with the number answered 200.
 */
function session(host: string, port: number, n: number, extra: () => string, path: () => string): Promise<number> {
  const request = (connection: string) => `GET ${path()} HTTP/1.1\r\nHost: ${host}:${port}\r\n${extra()}Connection: ${connection}\r\n\r\n`;
  return new Promise((done) => {
    let ok = 0;
    let sent = 0;
    let answered = 0;
    // What has arrived of the answers not yet complete.
    let buf = '';
    const send = () => {
      sent++;
      sock.write(request(sent < n ? 'keep-alive' : 'close'));
    };
    const sock = connect(port, host, send);
    sock.setNoDelay(true);
    sock.setEncoding('latin1');
    sock.on('data', (chunk: string) => {
      buf += chunk;
      for (;;) {
        const h = buf.indexOf(HEAD_END);
        if (h < 0) return;
        const len = Number(CONTENT_LENGTH.exec(buf.slice(0, h))?.[1] ?? 0);
        if (buf.length < h + HEAD_END.length + len) return;
        if (buf.startsWith(STATUS_200)) ok++;
        buf = buf.slice(h + HEAD_END.length + len);
        if (++answered < n && sent < n) send();
      }
    });
    sock.once('error', () => undefined);
    sock.once('close', () => done(ok));
  });
}

/**
 * About `requests` GETs at `host`:`port` (the server's own address), `connections` at once; stops after `maxMs`.
 * `paths`: asked in turn (default `/` alone); `headers`: sent with each request besides Host (names and values
 * without CR or LF), or several such sets sent in turn.
 */
export async function warmHttp(
  host: string,
  port: number,
  requests: number,
  opts: { connections?: number; maxMs?: number; headers?: Readonly<Record<string, string>> | readonly Readonly<Record<string, string>>[]; paths?: readonly string[] } = {},
): Promise<HttpWarmReport> {
  const connections = opts.connections ?? 8;
  const maxMs = opts.maxMs ?? 10_000;
  const sets = Array.isArray(opts.headers) ? opts.headers : [opts.headers ?? {}];
  const lines = sets.map((h: Readonly<Record<string, string>>) =>
    Object.entries(h)
      .map(([name, value]) => `${name}: ${value}\r\n`)
      .join(''),
  );
  let set = 0;
  const extra = () => lines[set++ % lines.length]!;
  const paths = opts.paths ?? [ROOT_PATH];
  let next = 0;
  const path = () => paths[next++ % paths.length]!;
  const t0 = performance.now();
  let sent = 0;
  let errors = 0;
  const lane = async () => {
    while (sent < requests && performance.now() - t0 < maxMs) {
      const n = Math.min(BURST, requests - sent);
      sent += n;
      const ok = await session(host, port, n, extra, path);
      errors += n - ok;
    }
  };
  await Promise.all(Array.from({ length: connections }, lane));
  return { requests: sent, errors, ms: performance.now() - t0 };
}
