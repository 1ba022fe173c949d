/**
 * Errors Node's HTTP parser raises before Fastify sees a request (issue 16
 * item 4): answered in the API's shape `{"error":{"code","message"}}` with
 * `Connection: close`. An over-long request line or header block is 431, a
 * timeout 408, anything else unparseable 400 INVALID_PARAMETER. A HEAD
 * request gets the status line and headers only, so the client's parser
 * stays in step.
 */
import type { Socket } from 'node:net';

const STATUS: Record<string, [number, string, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large', 'Request line or headers too large (limit 16 KB)'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout', 'Request not received in time'],
};

export function clientErrorHandler(error: Error, socket: Socket): void {
  const err = error as Error & { code?: string; rawPacket?: unknown };
  if (!socket.writable || (err.code === 'ECONNRESET')) {
    socket.destroy();
    return;
  }
  const [status, reason, message] = STATUS[err.code ?? ''] ?? [400, 'Bad Request', 'Malformed HTTP request'];
  const code = status === 400 || status === 431 ? 'INVALID_PARAMETER' : 'REQUEST_TIMEOUT';
  const body = JSON.stringify({ error: { code, message } });
  const isHead = Buffer.isBuffer(err.rawPacket) && err.rawPacket.subarray(0, 5).toString('latin1') === 'HEAD ';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${isHead ? '' : body}`,
  );
}
