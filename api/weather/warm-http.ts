/**
 * The HTTP half of a starting server's warm-up (the answers' half:
 * ./warm-answers.ts): requests to the server's own `GET /` over loopback,
 * several connections at once, so that Node's HTTP parser and writer and
 * Fastify's routing, hooks and reply code (shared by every route) are
 * compiled before the first client arrives. `/` answers a constant and needs
 * no key: nothing is counted anywhere.
 *
 * The client is a raw socket sending a burst of pipelined requests, the last
 * one `Connection: close`, and reading until the server closes: its own CPU
 * is a write and the reads, where node:http's client cost about as much as
 * the server's answer (measured: docs/benchmarks-journal.md, "The start window").
 */
import { connect } from 'node:net';
import { ROOT_PATH } from '../routes/root.js';

export interface HttpWarmReport {
  requests: number;
  /** Requests not answered 200. */
  errors: number;
  ms: number;
}

/** Requests per connection: the server answers them in order, then closes. */

const BURST = 50;
const STATUS_200 = 'HTTP/1.1 200 ';

/**
 * One burst of `n` GETs of `/` on a new connection to `host`:`port`, each with the header lines `extra`
 * (each ending in CRLF); resolves with the number answered 200.
 */
function burst(host: string, port: number, n: number, extra: string): Promise<number> {
  const one = `GET ${ROOT_PATH} HTTP/1.1\r\nHost: ${host}:${port}\r\n${extra}\r\n`;
  const last = `GET ${ROOT_PATH} HTTP/1.1\r\nHost: ${host}:${port}\r\n${extra}Connection: close\r\n\r\n`;
  return new Promise((done) => {
    let ok = 0;
    // The end of the last chunk, so that a status line split between two chunks is still found.
    let tail = '';
    const sock = connect(port, host, () => sock.end(one.repeat(n - 1) + last));
    sock.setEncoding('latin1');
    sock.on('data', (chunk: string) => {
      const text = tail + chunk;
      for (let i = text.indexOf(STATUS_200); i >= 0; i = text.indexOf(STATUS_200, i + 1)) ok++;
      tail = text.slice(-(STATUS_200.length - 1));
    });
    sock.once('error', () => undefined);
    sock.once('close', () => done(ok));
  });
}

/**
 * About `requests` GETs of `/` at `host`:`port` (the server's own address), `connections` at once; stops after `maxMs`.
 * `headers`: sent with each request besides Host (names and values without CR or LF).
 */
export async function warmHttp(
  host: string,
  port: number,
  requests: number,
  opts: { connections?: number; maxMs?: number; headers?: Readonly<Record<string, string>> } = {},
): Promise<HttpWarmReport> {
  const connections = opts.connections ?? 8;
  const maxMs = opts.maxMs ?? 10_000;
  const extra = Object.entries(opts.headers ?? {})
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('');
  const t0 = performance.now();
  let sent = 0;
  let errors = 0;
  const lane = async () => {
    while (sent < requests && performance.now() - t0 < maxMs) {
      const n = Math.min(BURST, requests - sent);
      sent += n;
      const ok = await burst(host, port, n, extra);
      errors += n - ok;
    }
  };
  await Promise.all(Array.from({ length: connections }, lane));
  return { requests: sent, errors, ms: performance.now() - t0 };
}
