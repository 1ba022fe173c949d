/**
 * Emulator of MeteoHub's open data (ItaliaMeteo, meteohub.agenziaitaliameteo.it),
 * laid out as its backend serves it and as public clients read it:
 *
 *   GET /api/datasets/{dataset}/opendata     JSON run list, newest first:
 *                                            [{"date": "2026-11-26", "run": "00:00", "filename": "…"}]
 *   GET /nwp/{directory}/                    index of the run folders ({yyyymmddHH}/)
 *   GET /nwp/{directory}/{yyyymmddHH}/       index of the variable folders (T_2M/, …)
 *   GET /nwp/{directory}/{yyyymmddHH}/{VAR}/ index of that variable's GRIB files
 *   GET …/{VAR}/{file}.grib                  the file (one GRIB per variable and level, every step)
 *
 * Indexes are nginx autoindex pages; an unknown path is nginx's 404 page, an
 * unknown dataset the backend's JSON 404. A run can be listed but
 * incomplete (some variables absent) or present in the tree but missing
 * from the run list; runs can be added while the emulator runs (a late run
 * arriving). A path can fail its next requests (429/503 with Retry-After).
 * Every request is recorded with its arrival time.
 *
 *   const hub = await startMeteohubEmulator({ runs: [{ run, variables: { T_2M: [{ name, path }] } }] });
 *   hub.origin  …  await hub.close()
 */
import { readFileSync, statSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { listenLocal } from './http-server.js';

export const METEOHUB_DATASET = 'ICON_2I_SURFACE_PRESSURE_LEVELS';
export const METEOHUB_DIRECTORY = 'ICON-2I_SURFACE_PRESSURE_LEVELS';

export interface MeteohubFile {
  /** The name MeteoHub gives it in the variable's folder, e.g. icon_2I_2026112600_heightAboveGround-2.grib. */
  name: string;
  /** Local file served. */
  path: string;
}

export interface MeteohubRun {
  run: Date;
  /** Variable folder → its files. A variable left out is a run still being uploaded. */
  variables: Record<string, MeteohubFile[]>;
  /** In the run list (default true). */
  listed?: boolean;
}

export interface MeteohubRequest {
  path: string;
  at: number;
  status: number;
}

export interface MeteohubEmulator {
  origin: string;
  url(path: string): string;
  requests: MeteohubRequest[];
  hits(path: string): number;
  /** Adds a run, or replaces the one with the same time (a late run arriving, a run completed). */
  publish(run: MeteohubRun): void;
  failNext(path: string, count: number, status: number, retryAfter?: string): void;
  close(): Promise<void>;
}

const stamp = (d: Date) => d.toISOString().slice(0, 13).replace(/[-T]/g, '');

export async function startMeteohubEmulator(opts: { runs: MeteohubRun[]; dataset?: string; directory?: string }): Promise<MeteohubEmulator> {
  const dataset = opts.dataset ?? METEOHUB_DATASET;
  const directory = opts.directory ?? METEOHUB_DIRECTORY;
  const runs = new Map<string, MeteohubRun>(opts.runs.map((r) => [stamp(r.run), r]));
  const requests: MeteohubRequest[] = [];
  const failures = new Map<string, { count: number; status: number; retryAfter?: string }>();

  const nginxPage = (res: ServerResponse, status: number, title: string, body: string) =>
    res.writeHead(status, { 'content-type': 'text/html', server: 'nginx' }).end(`<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n${body}\r\n</body>\r\n</html>\r\n`);
  const index = (res: ServerResponse, path: string, entries: { name: string; size?: number }[]) =>
    nginxPage(
      res,
      200,
      `Index of ${path}`,
      `<h1>Index of ${path}</h1><hr><pre><a href="../">../</a>\r\n${entries
        .map((e) => `<a href="${encodeURIComponent(e.name.replace(/\/$/, ''))}${e.name.endsWith('/') ? '/' : ''}">${e.name}</a>${' '.repeat(Math.max(1, 51 - e.name.length))}26-Nov-2026 04:10${' '.repeat(20)}${e.size ?? '-'}`)
        .join('\r\n')}\r\n</pre><hr>`,
    );
  const notFound = (res: ServerResponse) => nginxPage(res, 404, '404 Not Found', '<center><h1>404 Not Found</h1></center>\r\n<hr><center>nginx</center>');

  const local = await listenLocal((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://x').pathname);
    const rec: MeteohubRequest = { path, at: Date.now(), status: 200 };
    requests.push(rec);
    const fail = failures.get(path);
    if (fail && fail.count > 0) {
      fail.count--;
      rec.status = fail.status;
      if (fail.retryAfter) res.setHeader('retry-after', fail.retryAfter);
      return nginxPage(res, fail.status, `${fail.status}`, `<center><h1>${fail.status}</h1></center>`);
    }
    if (path.startsWith('/api/datasets/')) {
      const m = /^\/api\/datasets\/([^/]+)\/opendata$/.exec(path);
      if (!m || m[1] !== dataset) {
        rec.status = 404;
        return res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify(`Dataset not found for name: ${m?.[1] ?? path}`));
      }
      const list = [...runs.values()]
        .filter((r) => r.listed !== false)
        .sort((a, b) => b.run.getTime() - a.run.getTime())
        .map((r) => ({ date: r.run.toISOString().slice(0, 10), run: r.run.toISOString().slice(11, 16), filename: `data-${r.run.toISOString().slice(0, 10).replace(/-/g, '')}-${dataset}-${stamp(r.run)}.grib` }));
      return res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(list));
    }
    const tree = `/nwp/${directory}/`;
    if (!path.startsWith(tree)) {
      rec.status = 404;
      return notFound(res);
    }
    const parts = path.slice(tree.length).split('/');
    const [runStamp, variable, file] = parts;
    if (!runStamp) return index(res, path, [...runs.keys()].sort().map((s) => ({ name: `${s}/` })));
    const run = runs.get(runStamp);
    const files = run && variable ? run.variables[variable] : undefined;
    if (run && !variable && path.endsWith('/')) return index(res, path, Object.keys(run.variables).sort().map((v) => ({ name: `${v}/` })));
    if (files && !file && path.endsWith('/')) return index(res, path, files.map((f) => ({ name: f.name, size: statSync(f.path).size })));
    const hit = files && file ? files.find((f) => f.name === file) : undefined;
    if (hit && parts.length === 3) {
      const bytes = readFileSync(hit.path);
      res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(bytes.length), 'last-modified': statSync(hit.path).mtime.toUTCString() });
      return req.method === 'HEAD' ? res.end() : res.end(bytes);
    }
    rec.status = 404;
    notFound(res);
  });

  return {
    origin: local.origin,
    url: local.url,
    requests,
    hits: (p) => requests.filter((r) => r.path === p).length,
    publish: (r) => void runs.set(stamp(r.run), r),
    failNext: (path, count, status, retryAfter) => failures.set(path, { count, status, ...(retryAfter ? { retryAfter } : {}) }),
    close: local.close,
  };
}
