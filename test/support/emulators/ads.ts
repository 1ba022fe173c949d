/**
 * Emulator of the Copernicus data stores' Retrieve API (ADS and CDS run the
 * same service, ecmwf-projects/cads-processing-api-service, an OGC API -
 * Processes), laid out as that service and ECMWF's ecmwf-datastores-client
 * show it:
 *
 *   POST /api/retrieve/v1/processes/{dataset}/execution {"inputs"}  → 201 StatusInfo, Location, links rel=monitor
 *   GET  /api/retrieve/v1/jobs/{jobID}                              → StatusInfo: accepted → running → successful|failed|…
 *   GET  /api/retrieve/v1/jobs/{jobID}/results                      → {"asset": {"value": {type, href, "file:size"}}};
 *        failed/rejected: 400 problem {type, title, detail, traceback}; not finished: 404 "result not ready"
 *   GET  /download/{jobID}/{file}                                   → the result (no key needed, like the object store)
 *   POST /api/profiles/v1/account/verification/pat                  → 200 the account when the key is valid (the client's check_authentication)
 *   GET  /api/retrieve/v1/processes/{dataset}                       → the dataset's process description; 404 for one not in `datasets`
 *
 * The key goes in PRIVATE-TOKEN (401 problem without it). Each submission's
 * fate is a plan the test gives (how many polls it stays accepted/running,
 * polls answered 429 with Retry-After, held running until released, the end
 * state and its result files, zipped with Python's zipfile when asked).
 * Every request is recorded with its arrival time, so tests count
 * submissions and measure waits at the server.
 *
 *   const ads = await startAdsEmulator({ token: 'k', plan: () => ({ result: { files: [path] } }) });
 *   config "api": ads.api   …   ads.submissions.length, ads.polls(jobID), await ads.close()
 */
import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { listenLocal } from './http-server.js';

export interface AdsResult {
  /** Files on disk the job delivers (real files from ../shared/data, or made from them). */
  files: string[];
  /** Deliver them as one ZIP (`netcdf_zip`), else the single file as it is. */
  zip?: boolean;
}

export interface AdsJobPlan {
  /** Refuse the submission itself: 403 licence not accepted, 429 with Retry-After, 400 bad request, … */
  refuse?: { status: number; title: string; detail?: string; retryAfter?: string };
  /** Polls answered 'accepted', then 'running' (defaults 1 and 1). */
  accepted?: number;
  running?: number;
  /** Stay 'running' until release(jobID). */
  hold?: boolean;
  /** Poll number (1-based, per job) → an error answer instead of the status. */
  pollErrors?: Record<number, { status: number; retryAfter?: string }>;
  /** The end: successful with `result` (default), failed or rejected with a reason, or any other status string. */
  end?: { status: 'successful' } | { status: 'failed' | 'rejected'; reason: string; traceback?: string } | { status: string };
  result?: AdsResult;
}

export interface Submission {
  jobID: string;
  dataset: string;
  inputs: Record<string, unknown>;
  at: number;
}

export interface RecordedRequest {
  method: string;
  path: string;
  /** Date.now() when the request arrived. */
  at: number;
  status: number;
  /** Whether PRIVATE-TOKEN carried the right key (the key itself is never recorded). */
  authorised: boolean;
}

export interface AdsEmulator {
  /** API root to configure (`"api"`), like https://ads.atmosphere.copernicus.eu/api. */
  api: string;
  submissions: Submission[];
  requests: RecordedRequest[];
  /** Status requests for one job, in order. */
  polls(jobID: string): RecordedRequest[];
  /** Let a held job finish at its next poll. */
  release(jobID: string): void;
  /** Resolves when the job has been polled `n` times. */
  polled(jobID: string, n: number): Promise<void>;
  close(): Promise<void>;
}

interface LiveJob {
  sub: Submission;
  plan: AdsJobPlan;
  polls: number;
  released: boolean;
  status: string;
  download?: { name: string; path: string; type: string };
}

export interface AdsEmulatorOptions {
  token: string;
  plan: (s: Submission) => AdsJobPlan | Promise<AdsJobPlan>;
  /** Datasets the store knows (default: any). */
  datasets?: string[];
}

const RETRIEVE = '/api/retrieve/v1';

function contentType(path: string): string {
  if (path.endsWith('.zip')) return 'application/zip';
  if (/\.(grib2?|grb2?)$/.test(path)) return 'application/x-grib';
  return 'application/netcdf';
}

export async function startAdsEmulator(opts: AdsEmulatorOptions): Promise<AdsEmulator> {
  const work = mkdtempSync(join(tmpdir(), 'mp-ads-emu-'));
  const jobs = new Map<string, LiveJob>();
  const submissions: Submission[] = [];
  const requests: RecordedRequest[] = [];
  const waiters: { id: string; n: number; ok: () => void }[] = [];
  let origin = '';

  const statusInfo = (j: LiveJob) => {
    const self = `${origin}${RETRIEVE}/jobs/${j.sub.jobID}`;
    const finished = !['accepted', 'running'].includes(j.status);
    return {
      processID: j.sub.dataset, type: 'process', jobID: j.sub.jobID, status: j.status,
      created: new Date(j.sub.at).toISOString(), updated: new Date().toISOString(),
      started: j.status === 'accepted' ? null : new Date(j.sub.at).toISOString(), finished: finished ? new Date().toISOString() : null,
      links: [{ href: self, rel: 'self', type: 'application/json' }, ...(finished ? [{ href: `${self}/results`, rel: 'results' }] : [])],
      metadata: { request: { ids: j.sub.inputs } },
    };
  };

  /** The status a poll moves the job to: accepted × n, running × m (or until released), then the end. */
  const advance = (j: LiveJob) => {
    const accepted = j.plan.accepted ?? 1;
    const running = j.plan.running ?? 1;
    if (j.polls <= accepted) j.status = 'accepted';
    else if (j.polls <= accepted + running || (j.plan.hold && !j.released)) j.status = 'running';
    else j.status = j.plan.end?.status ?? 'successful';
  };

  const deliver = (j: LiveJob) => {
    const files = j.plan.result?.files ?? [];
    if (files.length === 0) throw new Error(`ADS emulator: job ${j.sub.jobID} succeeded without result files in its plan`);
    if (!j.plan.result!.zip) {
      j.download = { name: basename(files[0]!), path: files[0]!, type: contentType(files[0]!) };
      return;
    }
    // An independent writer: Python's zipfile (deflate), as the data store's own workers pack netcdf_zip.
    const zip = join(work, `${j.sub.jobID}.zip`);
    execFileSync('/usr/bin/python3', ['-c', 'import sys, zipfile, os\nwith zipfile.ZipFile(sys.argv[1], "w", zipfile.ZIP_DEFLATED) as z:\n    [z.write(f, os.path.basename(f)) for f in sys.argv[2:]]', zip, ...files]);
    j.download = { name: `${j.sub.jobID.slice(0, 8)}.zip`, path: zip, type: 'application/zip' };
  };

  const handle = async (req: IncomingMessage, res: ServerResponse, body: string, rec: RecordedRequest) => {
    const json = (status: number, v: unknown, headers: Record<string, string> = {}) => {
      rec.status = status;
      res.writeHead(status, { 'content-type': status >= 400 ? 'application/problem+json' : 'application/json', ...headers });
      res.end(JSON.stringify(v));
    };
    const problem = (status: number, title: string, detail?: string, extra: Record<string, string> = {}) =>
      json(status, { type: title.toLowerCase(), title, status, ...(detail ? { detail } : {}), instance: req.url, trace_id: randomUUID() }, extra);
    const path = rec.path;

    const dl = /^\/download\/([^/]+)\/([^/]+)$/.exec(path);
    if (dl && req.method === 'GET') {
      const j = jobs.get(dl[1]!);
      if (!j?.download || j.download.name !== decodeURIComponent(dl[2]!)) return problem(404, 'Not Found');
      const bytes = readFileSync(j.download.path);
      rec.status = 200;
      res.writeHead(200, { 'content-type': j.download.type, 'content-length': String(bytes.length) });
      return res.end(bytes);
    }
    if (!rec.authorised) return problem(401, 'Authentication failed', 'Authentication failed: a valid PRIVATE-TOKEN is required');

    if (path === '/api/profiles/v1/account/verification/pat' && req.method === 'POST') return json(200, { id: 'emulated-account', sub: 'emulated-account' });
    const proc = new RegExp(`^${RETRIEVE}/processes/([^/]+)$`).exec(path);
    if (proc && req.method === 'GET') {
      const id = decodeURIComponent(proc[1]!);
      if (opts.datasets && !opts.datasets.includes(id)) return problem(404, 'Process not found', `Process ${id} not found`);
      return json(200, { id, title: id, version: '1.0.0', jobControlOptions: ['async-execute'], outputTransmission: ['reference'] });
    }
    const exec = new RegExp(`^${RETRIEVE}/processes/([^/]+)/execution$`).exec(path);
    if (exec && req.method === 'POST') {
      let inputs: Record<string, unknown>;
      try {
        inputs = (JSON.parse(body) as { inputs: Record<string, unknown> }).inputs;
      } catch {
        return problem(400, 'invalid request', 'body is not JSON with "inputs"');
      }
      const sub: Submission = { jobID: randomUUID(), dataset: decodeURIComponent(exec[1]!), inputs, at: rec.at };
      const plan = await opts.plan(sub);
      if (plan.refuse) return problem(plan.refuse.status, plan.refuse.title, plan.refuse.detail, plan.refuse.retryAfter ? { 'retry-after': plan.refuse.retryAfter } : {});
      submissions.push(sub);
      const j: LiveJob = { sub, plan, polls: 0, released: false, status: 'accepted' };
      jobs.set(sub.jobID, j);
      const info = statusInfo(j);
      info.links.push({ href: `${origin}${RETRIEVE}/jobs/${sub.jobID}`, rel: 'monitor', type: 'application/json' });
      return json(201, info, { location: `${origin}${RETRIEVE}/jobs/${sub.jobID}` });
    }

    const jm = new RegExp(`^${RETRIEVE}/jobs/([^/]+)(/results)?$`).exec(path);
    const j = jm ? jobs.get(decodeURIComponent(jm[1]!)) : undefined;
    if (jm && req.method === 'GET' && !j) return problem(404, 'no such job', `job ${jm[1]} not found`);
    if (j && req.method === 'GET' && !jm![2]) {
      j.polls++;
      for (const w of [...waiters]) if (w.id === j.sub.jobID && j.polls >= w.n) waiters.splice(waiters.indexOf(w), 1), w.ok();
      const err = j.plan.pollErrors?.[j.polls];
      if (err) return problem(err.status, err.status === 429 ? 'Too Many Requests' : 'Service Unavailable', 'try again later', err.retryAfter ? { 'retry-after': err.retryAfter } : {});
      advance(j);
      if (j.status === 'successful' && !j.download) deliver(j);
      return json(200, statusInfo(j));
    }
    if (j && req.method === 'GET' && jm![2]) {
      if (j.status === 'successful' && j.download) {
        const size = readFileSync(j.download.path).length;
        return json(200, { asset: { value: { type: j.download.type, href: `${origin}/download/${j.sub.jobID}/${encodeURIComponent(j.download.name)}`, 'file:size': size, 'file:checksum': 'unchecked' } } });
      }
      if (j.status === 'failed' || j.status === 'rejected') {
        const end = j.plan.end as { reason: string; traceback?: string };
        return json(400, { type: 'job results failed', title: 'The job has failed', status: 400, detail: end.reason, traceback: end.traceback ?? `Traceback (most recent call last):\n  ...\nRuntimeError: ${end.reason}`, instance: req.url });
      }
      return problem(404, 'result not ready', `Status of ${j.sub.jobID} is ${j.status}.`);
    }
    return problem(404, 'Not Found');
  };

  const local = await listenLocal((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (c: string) => (body += c));
    req.on('end', () => {
      const rec: RecordedRequest = { method: req.method ?? 'GET', path: (req.url ?? '/').split('?')[0]!, at: Date.now(), status: 0, authorised: req.headers['private-token'] === opts.token };
      requests.push(rec);
      handle(req, res, body, rec).catch((err: unknown) => {
        rec.status = 500;
        res.writeHead(500, { 'content-type': 'application/problem+json' }).end(JSON.stringify({ title: 'internal server error', detail: String(err) }));
      });
    });
  });
  origin = local.origin;

  const polls = (id: string) => requests.filter((r) => r.method === 'GET' && r.path === `${RETRIEVE}/jobs/${id}`);
  return {
    api: `${origin}/api`,
    submissions,
    requests,
    polls,
    release: (id) => {
      const j = jobs.get(id);
      if (!j) throw new Error(`ADS emulator: no job ${id}`);
      j.released = true;
    },
    polled: (id, n) =>
      new Promise<void>((ok) => {
        if ((jobs.get(id)?.polls ?? 0) >= n) ok();
        else waiters.push({ id, n, ok });
      }),
    close: async () => {
      await local.close();
      rmSync(work, { recursive: true, force: true });
    },
  };
}

