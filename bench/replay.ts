/**
 * The floor of an answer (docs/benchmarks.md, "The floor"): what a server
 * must spend on it if it computed nothing. The real access layer (key check,
 * quota decision, rate-limit headers: the bench's `access` server,
 * ./servers.ts) in front of a route that sends that answer's exact bytes,
 * captured from the real server in the same run: the headers our app set, in
 * their order, and the body as the route returns it (its UTF-8 bytes in a
 * Buffer: api/fields/body-slab.ts). Nothing is validated, looked up or
 * serialised.
 *
 * Capture: one request over a raw socket, its answer kept byte for byte.
 * Replay: the captured headers less those Node writes itself (framing, date,
 * keep-alive) and less the access layer's own (the rate-limit headers, which
 * the access layer in front sets again, at the same place: after the route's
 * headers), so the replayed answer is the captured one byte for byte but for
 * Node's own headers, the rate-limit values of the moment and `elapsed_ms`
 * (test/bench/replay.test.ts).
 *
 * `elapsed_ms`: weather.php's body carries the request's own, taken after the
 * quota and before the body is written (api/routes/weather.ts); the replay
 * writes its own at the same place, into a slot of {@link ELAPSED_SLOT}
 * characters padded with spaces (JSON whitespace: the body's length is fixed).
 * So the floor's `elapsed_ms` is what a request waits at that load when
 * answers cost only their bytes: the floor of weather.php's.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { connect } from 'node:net';
import type { Endpoint } from '../api/access/contract.js';
import { elapsedMs } from '../api/plugins/timing.js';
import { DECIMALS, roundTo } from '../api/weather/precision.js';

/** Headers Node writes itself (framing, date, keep-alive): never replayed, never compared. */
export const NODE_OWN_HEADERS: ReadonlySet<string> = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);
/** Headers the access layer sets on every served answer (api/access/plugin.ts): the floor's access layer sets them itself. */
export const ACCESS_OWN_HEADERS: ReadonlySet<string> = new Set(['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']);

/** A captured 200 answer: its headers to replay (lower-case names, in order) and its body as sent (UTF-8 decoded). */
export interface CapturedAnswer {
  headers: Array<[string, string]>;
  body: string;
  /** Bytes on the wire: status line, every header, body. */
  bytes: number;
}

/** An answer the floor server replays at `path` behind the access layer, as the `endpoint` it was captured from. */
export interface ReplayRoute {
  path: string;
  endpoint: Endpoint;
  answer: CapturedAnswer;
}

/** A raw HTTP/1.1 answer: its headers less Node's own and the access layer's, and its body (UTF-8). */
export function parseCapturedAnswer(raw: Buffer): CapturedAnswer {
  const split = raw.indexOf('\r\n\r\n');
  const head = raw.toString('latin1', 0, Math.max(0, split));
  if (!head.startsWith('HTTP/1.1 200') || split < 0) throw new Error(`replay: expected a 200 answer, got ${JSON.stringify(head.slice(0, 60))}`);
  const headers: Array<[string, string]> = [];
  for (const line of head.split('\r\n').slice(1)) {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).toLowerCase();
    if (!NODE_OWN_HEADERS.has(name) && !ACCESS_OWN_HEADERS.has(name)) headers.push([name, line.slice(colon + 1).trim()]);
  }
  return { headers, body: raw.toString('utf8', split + 4), bytes: raw.length };
}

/**
 * One GET of `path` with `apiKey` over a raw socket (Connection: close), the
 * answer's bytes as they came: nothing of an HTTP client in between.
 */
export function captureRaw(base: string, path: string, apiKey: string): Promise<Buffer> {
  const { hostname, port } = new URL(base);
  return new Promise((ok, fail) => {
    const chunks: Buffer[] = [];
    const sock = connect(Number(port), hostname);
    sock.setTimeout(30_000, () => sock.destroy(new Error(`replay: no answer from ${base}${path} in 30 s`)));
    sock.on('data', (c: Buffer) => chunks.push(c));
    sock.on('end', () => ok(Buffer.concat(chunks)));
    sock.on('error', fail);
    sock.write(`GET ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-API-Key: ${apiKey}\r\nConnection: close\r\n\r\n`, 'latin1');
  });
}

/** {@link captureRaw}, parsed. */
export async function captureAnswer(base: string, path: string, apiKey: string): Promise<CapturedAnswer> {
  return parseCapturedAnswer(await captureRaw(base, path, apiKey));
}

/** Characters the replayed `elapsed_ms` occupies: its number, then spaces (up to 99,999.999 ms). */
export const ELAPSED_SLOT = 9;
const ELAPSED_KEY = '"elapsed_ms":';

/** A body with its `elapsed_ms` number (if it has one) replaced by a blank slot: the template, and the slot's byte offset. */
export function withElapsedSlot(body: Buffer): { template: Buffer; at: number } | undefined {
  const key = body.indexOf(ELAPSED_KEY);
  if (key < 0) return undefined;
  const at = key + ELAPSED_KEY.length;
  let end = at;
  // A JSON number's characters: digits, sign, point, exponent.
  while (end < body.length && /[0-9.eE+-]/.test(String.fromCharCode(body[end]!))) end++;
  const template = Buffer.concat([body.subarray(0, at), Buffer.alloc(ELAPSED_SLOT, ' '), body.subarray(end)]);
  return { template, at };
}

/**
 * The replay route on an app that has the access layer (./servers.ts): the
 * quota decided as weather.php decides it (after the key check in
 * onRequest), then the captured headers, then the body in the form weather.php
 * and widget.php return theirs: a Buffer of its UTF-8 bytes with its content
 * type set (encoded here once: the floor computes nothing), with its own
 * `elapsed_ms` where the answer has one. Fastify sends it as it is.
 */
export function registerReplay(app: FastifyInstance, route: ReplayRoute): void {
  const headers = Object.fromEntries(route.answer.headers);
  const body = Buffer.from(route.answer.body, 'utf8');
  const slot = withElapsedSlot(body);
  app.get(route.path, { config: { endpoint: route.endpoint } }, async function replay(this: FastifyInstance, request: FastifyRequest, reply: FastifyReply) {
    await this.consumeQuota(request, reply);
    reply.headers(headers);
    if (!slot) return body;
    // A copy per answer, as weather.php writes a body per answer: Node may hold a sent Buffer until the socket drains.
    const out = Buffer.allocUnsafe(slot.template.length);
    slot.template.copy(out);
    out.write(String(roundTo(elapsedMs(request), DECIMALS.elapsed_ms)).slice(0, ELAPSED_SLOT), slot.at, 'latin1');
    return out;
  });
}
