/**
 * Emulator of NOAA PSL's download server for the 20th Century Reanalysis
 * v3 (https://psl.noaa.gov/data/gridded/data.20thC_ReanV3.html), laid out as
 * PSL publishes the files and as public scripts fetch them:
 *
 *   /Datasets/20thC_ReanV3/2mSI/air.2m.{yyyy}.nc, rhum.2m.{yyyy}.nc, shum.2m.{yyyy}.nc
 *   /Datasets/20thC_ReanV3/miscSI/prmsl.{yyyy}.nc
 *   /Datasets/20thC_ReanV3/10mSI/uwnd.10m.{yyyy}.nc, vwnd.10m.{yyyy}.nc
 *   /Datasets/20thC_ReanV3/timeInvariantSI/hgt.sfc.nc
 *
 * Files are served with Content-Length and Last-Modified (keyless, like
 * PSL's Apache server), a directory as an Apache-style index page, a
 * missing file as a 404 page. A test can make a path fail its next requests
 * (503, 429 with Retry-After) or trickle its first one (so a worker can be
 * killed mid-download). Every request is recorded with its arrival time.
 *
 *   const psl = await startPslEmulator({ files: pslFiles(dir, 1925) });
 *   psl.url('/Datasets/20thC_ReanV3/2mSI/air.2m.{yyyy}.nc')   …   await psl.close()
 */
import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { join } from 'node:path';
import { listenLocal } from './http-server.js';

export const PSL_ROOT = '/Datasets/20thC_ReanV3';

/** Where each 20CRv3 file lives under PSL_ROOT. */
const DIRECTORY: [RegExp, string][] = [
  [/^(air|rhum|shum)\.2m\.\d{4}\.nc$/, '2mSI'],
  [/^prmsl\.\d{4}\.nc$/, 'miscSI'],
  [/^[uv]wnd\.10m\.\d{4}\.nc$/, '10mSI'],
  [/^hgt\.sfc\.nc$/, 'timeInvariantSI'],
];

/** PSL paths → local files, for files named as PSL names them in `dir` (e.g. written by write_20crv3.py). */
export function pslFiles(dir: string, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(
    names.map((n) => {
      const sub = DIRECTORY.find(([re]) => re.test(n))?.[1];
      if (!sub) throw new Error(`PSL emulator: no 20CRv3 directory for ${n}`);
      return [`${PSL_ROOT}/${sub}/${n}`, join(dir, n)];
    }),
  );
}

export interface PslRequest {
  path: string;
  at: number;
  status: number;
}

export interface PslEmulator {
  origin: string;
  url(path: string): string;
  requests: PslRequest[];
  hits(path: string): number;
  failNext(path: string, count: number, status: number, retryAfter?: string): void;
  /** Send the next response for `path` in `chunk`-byte pieces every `everyMs`. */
  trickleNext(path: string, chunk: number, everyMs: number): void;
  close(): Promise<void>;
}

export async function startPslEmulator(opts: { files: Record<string, string> }): Promise<PslEmulator> {
  const requests: PslRequest[] = [];
  const failures = new Map<string, { count: number; status: number; retryAfter?: string }>();
  const trickles = new Map<string, { chunk: number; everyMs: number }>();
  const files = new Map(Object.entries(opts.files));

  const page = (res: ServerResponse, status: number, title: string, body: string) =>
    res.writeHead(status, { 'content-type': 'text/html;charset=ISO-8859-1' }).end(`<!DOCTYPE HTML PUBLIC "-//IETF//DTD HTML 3.2 Final//EN">\n<html><head><title>${title}</title></head><body>${body}</body></html>\n`);

  const local = await listenLocal((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rec: PslRequest = { path, at: Date.now(), status: 200 };
    requests.push(rec);
    const fail = failures.get(path);
    if (fail && fail.count > 0) {
      fail.count--;
      rec.status = fail.status;
      res.writeHead(fail.status, { 'content-type': 'text/html', ...(fail.retryAfter ? { 'retry-after': fail.retryAfter } : {}) });
      return res.end(`<html><head><title>${fail.status}</title></head><body>Service temporarily unavailable</body></html>`);
    }
    const file = files.get(path);
    if (file && (req.method === 'GET' || req.method === 'HEAD')) {
      const st = statSync(file);
      const bytes = readFileSync(file);
      res.writeHead(200, { 'content-type': 'application/x-netcdf', 'content-length': String(st.size), 'last-modified': st.mtime.toUTCString(), 'accept-ranges': 'bytes' });
      const slow = trickles.get(path);
      if (req.method === 'HEAD') return res.end();
      if (!slow) return res.end(bytes);
      trickles.delete(path);
      let off = 0;
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write(bytes.subarray(off, (off += slow.chunk)));
        if (off >= bytes.length) {
          clearInterval(timer);
          res.end();
        }
      }, slow.everyMs);
      res.on('close', () => clearInterval(timer));
      return;
    }
    const dir = path.endsWith('/') ? path : `${path}/`;
    const inside = [...files.keys()].filter((p) => p.startsWith(dir)).map((p) => p.slice(dir.length).split('/')[0]!);
    if (inside.length > 0) {
      const entries = [...new Set(inside)].sort().map((n) => {
        const f = files.get(dir + n);
        const meta = f ? `${statSync(f).mtime.toISOString().slice(0, 16).replace('T', ' ')}  ${statSync(f).size}` : '-';
        return `<tr><td><a href="${n}${f ? '' : '/'}">${n}${f ? '' : '/'}</a></td><td>${meta}</td></tr>`;
      });
      return page(res, 200, `Index of ${dir}`, `<h1>Index of ${dir}</h1><table><tr><th>Name</th><th>Last modified  Size</th></tr>${entries.join('')}</table>`);
    }
    rec.status = 404;
    page(res, 404, '404 Not Found', `<h1>Not Found</h1><p>The requested URL ${path} was not found on this server.</p>`);
  });

  return {
    origin: local.origin,
    url: local.url,
    requests,
    hits: (p) => requests.filter((r) => r.path === p).length,
    failNext: (path, count, status, retryAfter) => failures.set(path, { count, status, ...(retryAfter ? { retryAfter } : {}) }),
    trickleNext: (path, chunk, everyMs) => trickles.set(path, { chunk, everyMs }),
    close: local.close,
  };
}
