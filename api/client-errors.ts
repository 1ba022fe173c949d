/**
 * Errors answered before a route runs, in the API's one shape
 * (`{"error":{"code","message"}}`, api/errors.ts):
 *
 * - requests Node's HTTP parser rejects (a request target over the 16 KiB
 *   header limit → 431 REQUEST_TOO_LARGE; a non-ASCII or otherwise malformed
 *   request line or header → 400 BAD_REQUEST), written on the socket by
 *   `clientErrorHandler`, without a body when the request was a HEAD;
 * - a URL whose percent-encoding Fastify's router cannot decode
 *   (`/%zz`) → 400 BAD_REQUEST (`frameworkErrors`);
 * - an HTTP/1.1 request without `Host` (RFC 9112 §3.2) → 400 BAD_REQUEST:
 *   Node's own check answers with an empty body, so it is switched off
 *   (`requireHostHeader: false`) and done here, in an onRequest hook;
 * - a request line of another version (HTTP/0.9 `GET /` and a blank line,
 *   `HTTP/2.0`) → 400 BAD_REQUEST and the connection closed (same hook);
 * - CONNECT → 405 METHOD_NOT_ALLOWED and the connection closed
 *   (`refuseConnect`, the server's `connect` listener).
 *
 * The only answers not in this shape are the connection simply closed when a
 * socket errors before any request could be read (nothing to answer). A bare
 * HTTP/0.9 line (`GET /` without the blank line) cannot be told from the
 * start of an HTTP/1 request: it is answered 400 when the client closes its
 * side, else 408 when the headers timeout runs out.
 */
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { ConnectionError, FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { errorBody } from './plugins/errors.js';
import type { ApiErrorCode } from './errors.js';

const REASON: Record<number, string> = { 400: 'Bad Request', 405: 'Method Not Allowed', 408: 'Request Timeout', 431: 'Request Header Fields Too Large' };

function refusal(nodeCode: string): { status: number; code: ApiErrorCode; message: string } {
  if (nodeCode === 'HPE_HEADER_OVERFLOW') return { status: 431, code: 'REQUEST_TOO_LARGE', message: 'the request line and headers exceed 16 KiB (Node.js limit): shorten the URL' };
  if (nodeCode === 'ERR_HTTP_REQUEST_TIMEOUT') return { status: 408, code: 'REQUEST_TIMEOUT', message: 'the request was not received in time (METEOPUNTO_HEADERS_TIMEOUT_MS, METEOPUNTO_REQUEST_TIMEOUT_MS)' };
  return { status: 400, code: 'BAD_REQUEST', message: 'malformed HTTP request: the request line or a header is not valid HTTP/1.1 (a request target must be ASCII, percent-encoded)' };
}

/** Writes an error answer on a socket no request object owns, and closes it. A HEAD gets the headers only. */
function answerOnSocket(socket: Socket | Duplex, status: number, code: ApiErrorCode, message: string, head: boolean, extra = ''): void {
  const body = JSON.stringify(errorBody(code, message));
  socket.end(
    `HTTP/1.1 ${status} ${REASON[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n` +
      `Cache-Control: no-store\r\n${extra}Connection: close\r\n\r\n${head ? '' : body}`,
  );
}

/** Fastify `clientErrorHandler`: Node's parser refused the request. */
export function clientErrorHandler(err: ConnectionError, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy();
    return;
  }
  const { status, code, message } = refusal(err.code);
  // A HEAD gets the headers only: a body would be read as the start of the next response.
  // Node gives the bytes read as a Buffer (Fastify's types describe its JSON form).
  const raw: unknown = err.rawPacket;
  const head = Buffer.isBuffer(raw) && raw.subarray(0, 5).toString('latin1') === 'HEAD ';
  answerOnSocket(socket, status, code, message, head);
}

/**
 * The HTTP server's `connect` listener: a CONNECT asks for a tunnel, which
 * only a proxy gives. Node hands it to this event rather than to Fastify
 * and, with no listener, closes the socket without a word.
 */
export function refuseConnect(_request: IncomingMessage, socket: Duplex): void {
  answerOnSocket(socket, 405, 'METHOD_NOT_ALLOWED', 'CONNECT is not answered: this server is not a proxy', false, 'Allow: GET, HEAD\r\n');
}

/** Fastify `frameworkErrors`: the router could not decode the URL. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  const bad = error.code === 'FST_ERR_BAD_URL';
  void reply
    .code(400)
    .type('application/json; charset=utf-8')
    .send(errorBody(bad ? 'BAD_REQUEST' : 'INVALID_PARAMETER', bad ? 'the URL is not valid percent-encoding' : error.message));
}

/**
 * onRequest hook: HTTP/1.0 or 1.1 only (Node also hands on HTTP/0.9 and
 * other versions in an HTTP/1 request line), and HTTP/1.1 requires Host.
 */
export function requireHttp1(request: FastifyRequest, reply: FastifyReply, done: () => void): void {
  const v = request.raw.httpVersion;
  if (v !== '1.1' && v !== '1.0') {
    void reply.code(400).header('Connection', 'close').type('application/json; charset=utf-8').send(errorBody('BAD_REQUEST', `HTTP/${v} is not answered here: send HTTP/1.1 (or 1.0)`));
    return;
  }
  if (v === '1.1' && !request.headers.host) {
    void reply.code(400).type('application/json; charset=utf-8').send(errorBody('BAD_REQUEST', 'HTTP/1.1 requests must carry a Host header'));
    return;
  }
  done();
}
