/**
 * HTTP over a raw socket, for requests no HTTP client sends (malformed,
 * CONNECT, HTTP/0.9): the bytes go out as given and the answer is read from
 * the wire until the server closes, the body is complete, or the socket
 * goes quiet.
 */
import { connect } from 'node:net';

export interface RawOptions {
  /** Close the sending side after the request (what a client does when it has nothing more to say). */
  halfClose?: boolean;
  /** Give up after this long without an end, ms (default 1500). */
  quietMs?: number;
  /** Wait for the server to close (or the quiet time) even once the body is complete. */
  untilClose?: boolean;
}

/** Sends raw bytes to 127.0.0.1:port; resolves with what came back (latin1) and whether the server closed. */
export function rawExchange(port: number, request: string | Buffer, opts: RawOptions = {}): Promise<{ text: string; closed: boolean }> {
  return new Promise((resolve, reject) => {
    const s = connect(port, '127.0.0.1');
    let got = '';
    let closed = false;
    const done = () => {
      s.destroy();
      resolve({ text: got, closed });
    };
    s.setTimeout(opts.quietMs ?? 1500, done);
    s.on('data', (d: Buffer) => {
      got += d.toString('latin1');
      const [head, body] = got.split('\r\n\r\n');
      const len = /content-length: (\d+)/i.exec(head ?? '');
      if (!opts.untilClose && len && body !== undefined && Buffer.byteLength(body, 'latin1') >= Number(len[1]) && !/^HEAD/.test(String(request))) done();
    });
    s.on('end', () => {
      closed = true;
      done();
    });
    s.on('error', reject);
    s.write(request);
    if (opts.halfClose) s.end();
  });
}

/** Status line, header block and body of a raw answer. */
export function parseResponse(response: string): { status: number; headers: string; body: string } {
  const i = response.indexOf('\r\n\r\n');
  const headers = response.slice(0, i);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(headers)?.[1]), headers, body: response.slice(i + 4) };
}
