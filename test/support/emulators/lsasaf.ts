/**
 * Emulator of EUMETSAT LSA SAF's data server (https://datalsasaf.lsasvcs.ipma.pt),
 * laid out as its user guide and public download scripts show it:
 *
 *   /PRODUCTS/MSG/MDSSFTD/NETCDF/{yyyy}/{mm}/{dd}/NETCDF4_LSASAF_MSG_MDSSFTD_MSG-Disk_{yyyymmddHHMM}.nc
 *
 * Every path answers only with HTTP basic authentication (RFC 7617) for the
 * one registered login: without it 401 with `WWW-Authenticate: Basic`, with a
 * wrong one 401 as well. Directories are Apache-style index pages, a file is
 * served with Content-Length, a missing one is a 404 page. A test can make a
 * path fail its next requests (503, 429 with Retry-After). Every request is
 * recorded with its arrival time, status and the user name it carried (never
 * the password).
 *
 *   const lsa = await startLsaSafEmulator({ user, password, files: lsaSafFiles(paths) });
 *   lsa.origin + LSASAF_MDSSFTD + '/{yyyy}/{mm}/{dd}/…'   …   await lsa.close()
 */
import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { basename } from 'node:path';
import { listenLocal } from './http-server.js';

export const LSASAF_MDSSFTD = '/PRODUCTS/MSG/MDSSFTD/NETCDF';

/** Server paths of MDSSFTD files named as the server names them (the slot read from the name). */
export function lsaSafFiles(paths: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    paths.map((p) => {
      const m = /^NETCDF4_LSASAF_MSG_MDSSFTD_MSG-Disk_(\d{4})(\d{2})(\d{2})\d{4}\.nc$/.exec(basename(p));
      if (!m) throw new Error(`LSA SAF emulator: ${basename(p)} is not an MDSSFTD file name`);
      return [`${LSASAF_MDSSFTD}/${m[1]}/${m[2]}/${m[3]}/${basename(p)}`, p];
    }),
  );
}

export interface LsaSafRequest {
  path: string;
  at: number;
  status: number;
  /** The user name of the basic-auth header, when one came. */
  user?: string;
}

export interface LsaSafEmulator {
  origin: string;
  requests: LsaSafRequest[];
  failNext(path: string, count: number, status: number, retryAfter?: string): void;
  close(): Promise<void>;
}

export async function startLsaSafEmulator(opts: { user: string; password: string; files: Record<string, string> }): Promise<LsaSafEmulator> {
  const requests: LsaSafRequest[] = [];
  const failures = new Map<string, { count: number; status: number; retryAfter?: string }>();
  const send = (res: ServerResponse, status: number, body: string | Buffer, type = 'text/html') => {
    res.writeHead(status, { 'content-type': type, 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const server = await listenLocal((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rec: LsaSafRequest = { path, at: Date.now(), status: 0 };
    requests.push(rec);
    res.on('finish', () => (rec.status = res.statusCode));
    const auth = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    const [user, ...rest] = auth ? Buffer.from(auth[1]!, 'base64').toString('utf8').split(':') : [];
    if (user !== undefined) rec.user = user;
    if (user !== opts.user || rest.join(':') !== opts.password) {
      res.setHeader('www-authenticate', 'Basic realm="LSA SAF data"');
      send(res, 401, '<html><head><title>401 Unauthorized</title></head><body><h1>Unauthorized</h1></body></html>');
      return;
    }
    const fail = failures.get(path);
    if (fail && fail.count > 0) {
      fail.count--;
      if (fail.retryAfter) res.setHeader('retry-after', fail.retryAfter);
      send(res, fail.status, `<html><body><h1>${fail.status}</h1></body></html>`);
      return;
    }
    const file = opts.files[path];
    if (file) {
      const body = readFileSync(file);
      res.setHeader('last-modified', statSync(file).mtime.toUTCString());
      if (req.method === 'HEAD') {
        res.writeHead(200, { 'content-type': 'application/x-netcdf', 'content-length': body.length });
        res.end();
      } else send(res, 200, body, 'application/x-netcdf');
      return;
    }
    const dir = path.endsWith('/') ? path : `${path}/`;
    const children = [...new Set(Object.keys(opts.files).filter((p) => p.startsWith(dir)).map((p) => p.slice(dir.length).split('/')[0]! + (p.slice(dir.length).includes('/') ? '/' : '')))].sort();
    if (children.length > 0) {
      const rows = children.map((c) => `<tr><td><a href="${c}">${c}</a></td></tr>`).join('\n');
      send(res, 200, `<html><head><title>Index of ${dir}</title></head><body><h1>Index of ${dir}</h1><table>\n<tr><td><a href="../">Parent Directory</a></td></tr>\n${rows}\n</table></body></html>`);
      return;
    }
    send(res, 404, '<html><head><title>404 Not Found</title></head><body><h1>Not Found</h1></body></html>');
  });
  return {
    origin: server.origin,
    requests,
    failNext: (path, count, status, retryAfter) => failures.set(path, { count, status, ...(retryAfter ? { retryAfter } : {}) }),
    close: () => server.close(),
  };
}
