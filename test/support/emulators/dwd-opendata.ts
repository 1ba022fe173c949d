/**
 * Emulator of DWD's open-data server (opendata.dwd.de) for ICON-EU, laid
 * out as DWD publishes it and public scripts fetch it:
 *
 *   /weather/nwp/icon-eu/grib/{HH}/{var}/   index of the variable's files of the run of that hour
 *   …/icon-eu_europe_regular-lat-lon_single-level_{yyyymmddHH}_{step:03}_{VAR}.grib2.bz2
 *   …/icon-eu_europe_regular-lat-lon_time-invariant_{yyyymmddHH}_{VAR}.grib2.bz2   (hsurf, fr_land)
 *
 * Folders are lower-case variable names, files bzip2-compressed GRIB2, one
 * step per file; indexes are nginx autoindex pages with date and size, as
 * DWD's. A path can fail its next requests; every request is recorded.
 *
 *   const dwd = await startDwdEmulator({ files: { [iconEuPath(run, 0, 'T_2M')]: '/tmp/t.grib2.bz2' } });
 */
import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { listenLocal } from './http-server.js';

export const ICON_EU_ROOT = '/weather/nwp/icon-eu/grib';

const stamp = (d: Date) => d.toISOString().slice(0, 13).replace(/[-T]/g, '');

/** DWD's path of one ICON-EU file: a forecast step, or (step undefined) a time-invariant field. */
export function iconEuPath(run: Date, step: number | undefined, variable: string): string {
  const hh = run.toISOString().slice(11, 13);
  const name =
    step === undefined
      ? `icon-eu_europe_regular-lat-lon_time-invariant_${stamp(run)}_${variable}.grib2.bz2`
      : `icon-eu_europe_regular-lat-lon_single-level_${stamp(run)}_${String(step).padStart(3, '0')}_${variable}.grib2.bz2`;
  return `${ICON_EU_ROOT}/${hh}/${variable.toLowerCase()}/${name}`;
}

export interface DwdEmulator {
  origin: string;
  url(path: string): string;
  requests: { path: string; at: number; status: number }[];
  hits(path: string): number;
  failNext(path: string, count: number, status: number, retryAfter?: string): void;
  close(): Promise<void>;
}

export async function startDwdEmulator(opts: { files: Record<string, string> }): Promise<DwdEmulator> {
  const files = new Map(Object.entries(opts.files));
  const requests: DwdEmulator['requests'] = [];
  const failures = new Map<string, { count: number; status: number; retryAfter?: string }>();
  const page = (res: ServerResponse, status: number, title: string, body: string) =>
    res.writeHead(status, { 'content-type': 'text/html', server: 'nginx' }).end(`<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n${body}\r\n</body>\r\n</html>\r\n`);

  const local = await listenLocal((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rec = { path, at: Date.now(), status: 200 };
    requests.push(rec);
    const fail = failures.get(path);
    if (fail && fail.count > 0) {
      fail.count--;
      rec.status = fail.status;
      if (fail.retryAfter) res.setHeader('retry-after', fail.retryAfter);
      return page(res, fail.status, `${fail.status}`, `<center><h1>${fail.status}</h1></center>`);
    }
    const file = files.get(path);
    if (file) {
      const bytes = readFileSync(file);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length), 'last-modified': statSync(file).mtime.toUTCString() });
      return req.method === 'HEAD' ? res.end() : res.end(bytes);
    }
    const dir = path.endsWith('/') ? path : `${path}/`;
    const inside = [...new Set([...files.keys()].filter((p) => p.startsWith(dir)).map((p) => p.slice(dir.length).split('/')[0]!))].sort();
    if (inside.length > 0 && path.endsWith('/')) {
      const rows = inside.map((n) => {
        const f = files.get(dir + n);
        return `<a href="${n}${f ? '' : '/'}">${n}${f ? '' : '/'}</a> ${' '.repeat(Math.max(1, 80 - n.length))}26-Nov-2026 03:58 ${f ? String(statSync(f).size).padStart(19) : '-'.padStart(19)}`;
      });
      return page(res, 200, `Index of ${dir}`, `<h1>Index of ${dir}</h1><hr><pre><a href="../">../</a>\r\n${rows.join('\r\n')}\r\n</pre><hr>`);
    }
    rec.status = 404;
    page(res, 404, '404 Not Found', '<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>');
  });

  return {
    origin: local.origin,
    url: local.url,
    requests,
    hits: (p) => requests.filter((r) => r.path === p).length,
    failNext: (path, count, status, retryAfter) => failures.set(path, { count, status, ...(retryAfter ? { retryAfter } : {}) }),
    close: local.close,
  };
}
