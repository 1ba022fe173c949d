/**
 * Atmosphere / Climate Data Store source: each request of the job (one, or
 * one per month plus one for the time-invariant variables; ads-requests.ts)
 * becomes a remote job on the data store (ads-client.ts), followed to its
 * end and its result downloaded with the HTTP source's limits and checks.
 *
 * - The remote job id is stored (remote-jobs.ts) the moment the data store
 *   gives it, so a retry or another worker re-attaches to the job already
 *   queued: a 429 or a crash never costs a second job in the queue.
 * - Polls wait 1 s, then half as long again each time, up to `pollMs`, as
 *   the official client does; a 429/5xx on a poll is retried in place.
 * - A failed or rejected job fails this job at once with the data store's
 *   reason; a dismissed job, or a state the API does not define, too.
 * - A ZIP result (`netcdf_zip`) is unpacked (ingest/zip.ts) and each member
 *   goes to ingest.
 * - The files go to ingest in the order of the requests: the time-invariant
 *   one first, then the months in time order, each its own file, so that a
 *   reanalysis year is staged a month at a time
 *   (ingest/products/reanalysis/streamed.ts), never read whole.
 * - The personal key is read from the environment variable `keyEnv` when the
 *   job runs, sent only in the PRIVATE-TOKEN header and cut out of anything a
 *   server echoes: never in a log line, an error or the job data.
 *
 * Results already complete from an earlier attempt (final names, a members
 * list written last) are reused without asking the data store again.
 */
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { processEnv } from '../../config/process-env.js';
import { isZip, unzipFile } from '../../ingest/zip.js';
import type { AdsRequestSpec, AdsSourceSpec } from '../job-types.js';
import { adsApi, failureReason, jobStatus, resultAsset, submit, type AdsApi, type StatusInfo } from './ads-client.js';
import { downloadFile } from './http-download.js';
import { removePartials } from './http.js';
import { runPool } from './pool.js';
import { memoryRemoteJobs, type RemoteJobs } from './remote-jobs.js';
import { attemptPolicy, sleep, type RetryPolicy } from './retry.js';
import { SourceError } from './source-error.js';

export interface AdsFetchContext {
  dir: string;
  env?: NodeJS.ProcessEnv;
  signal?: AbortSignal;
  onProgress?: (fraction: number, message: string) => void;
  /** Where remote job ids are kept between attempts (the BullMQ job's data); in memory when absent. */
  remote?: RemoteJobs;
}

const WAITING = new Set(['accepted', 'running']);
const FAILED = new Set(['failed', 'rejected']);
const ENDED = new Set(['dismissed', 'deleted']);

async function exists(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

interface Run {
  api: AdsApi;
  dir: string;
  remote: RemoteJobs;
  policy: RetryPolicy;
  signal?: AbortSignal;
  say: (fraction: number, message: string) => void;
}

const membersList = (dir: string, r: AdsRequestSpec) => join(dir, `${r.fileName}.members`);

/** The result files of a request kept from an earlier attempt, unpacking a ZIP left whole. */
async function kept(run: Run, r: AdsRequestSpec): Promise<string[] | undefined> {
  const list = await readFile(membersList(run.dir, r), 'utf8').then((t) => JSON.parse(t) as string[], () => undefined);
  if (list) return list.map((m) => join(run.dir, m));
  const dest = join(run.dir, r.fileName);
  if (!(await exists(dest))) return undefined;
  return unpacked(run, r, dest);
}

/** A ZIP's members (listed last, so a crash mid-way unpacks again), else the file itself. */
async function unpacked(run: Run, r: AdsRequestSpec, dest: string): Promise<string[]> {
  if (!(await isZip(dest))) return [dest];
  const members = await unzipFile(dest, `${dest}.d`, { maxMemberBytes: run.api.spec.options.maxBytes });
  const names = members.map((m) => join(`${r.fileName}.d`, basename(m)));
  await writeFile(`${membersList(run.dir, r)}.part`, JSON.stringify(names));
  await rename(`${membersList(run.dir, r)}.part`, membersList(run.dir, r));
  return names.map((n) => join(run.dir, n));
}

/** Follow the remote job this request already has, else submit it and keep its id before anything else. */
async function attachOrSubmit(run: Run, r: AdsRequestSpec): Promise<StatusInfo> {
  const known = run.remote.get(r.key);
  if (known) {
    const st = await jobStatus(run.api, known);
    if (st) {
      run.say(0, `${r.key}: re-attached to ADS job ${known} (${st.status})`);
      return st;
    }
    await run.remote.forget(r.key);
    run.say(0, `${r.key}: ADS job ${known} is gone from the data store; submitting again`);
  }
  const st = await submit(run.api, r.request);
  await run.remote.set(r.key, st.jobID);
  run.say(0, `${r.key}: ADS job ${st.jobID} ${st.status}`);
  return st;
}

/** Polls until the job is successful; any other end throws. */
async function waitFor(run: Run, r: AdsRequestSpec, first: StatusInfo): Promise<StatusInfo> {
  const { spec } = run.api;
  const what = `ADS job ${first.jobID} for ${spec.dataset} (${r.key})`;
  let st = first;
  let wait = Math.min(1000, spec.pollMs);
  for (;;) {
    if (st.status === 'successful') return st;
    if (!WAITING.has(st.status)) {
      // Whatever ended it, a new attempt (an operator's retry) must submit afresh.
      const reason = FAILED.has(st.status) ? await failureReason(run.api, st) : ENDED.has(st.status) ? 'ended on the data store' : 'a state the Retrieve API does not define';
      await run.remote.forget(r.key);
      throw new SourceError('REMOTE_FAILED', `${what} ${FAILED.has(st.status) || ENDED.has(st.status) ? st.status : `in unknown state '${st.status}'`}: ${reason}`, false);
    }
    if (Date.now() + wait > run.policy.deadline) {
      throw new SourceError('TIMEOUT', `${what} still ${st.status} at the end of maxWaitSeconds; the next attempt follows the same job`, true);
    }
    await sleep(wait, run.signal);
    wait = Math.min(wait * 1.5, spec.pollMs);
    const next = await jobStatus(run.api, st.jobID);
    if (!next) {
      await run.remote.forget(r.key);
      throw new SourceError('REMOTE_FAILED', `${what} vanished from the data store (404); the next attempt submits again`, true);
    }
    if (next.status !== st.status) run.say(0.1, `${r.key}: ADS job ${st.jobID} ${next.status}`);
    st = next;
  }
}

async function fetchRequest(run: Run, r: AdsRequestSpec, report: (f: number, m: string) => void): Promise<{ paths: string[]; bytes: number }> {
  const earlier = await kept(run, r);
  if (earlier) {
    report(1, `${r.fileName} kept from an earlier attempt`);
    return { paths: earlier, bytes: 0 };
  }
  const done = await waitFor(run, r, await attachOrSubmit(run, r));
  const asset = await resultAsset(run.api, done);
  if (!asset) {
    await run.remote.forget(r.key);
    throw new SourceError('REMOTE_FAILED', `the results of ADS job ${done.jobID} (${r.key}) expired; the next attempt submits again`, true);
  }
  const dest = join(run.dir, r.fileName);
  const got = await downloadFile({
    url: asset.href, dest, decompress: 'none', options: run.api.spec.options, retry: run.policy,
    ...(run.signal ? { signal: run.signal } : {}),
    onRetry: (e, ms, n) => report(0.2, `${r.fileName}: ${e.message}; retry ${n} in ${Math.ceil(ms / 1000)} s`),
    onBytes: (n, total) => {
      const of = total ?? asset.size;
      if (of) report(0.2 + 0.8 * Math.min(n / of, 0.99), `downloading ${r.fileName}`);
    },
  });
  const size = (await stat(dest)).size;
  if (asset.size !== undefined && size !== asset.size) {
    await rm(dest, { force: true });
    throw new SourceError('LENGTH_MISMATCH', `${asset.href}: ${size} bytes, the data store announced ${asset.size}`, true);
  }
  const paths = await unpacked(run, r, dest);
  report(1, `${r.fileName} from ADS job ${done.jobID}${paths.length > 1 || paths[0] !== dest ? ` (${paths.length} files unpacked)` : ''}`);
  return { paths, bytes: got.receivedBytes };
}

/** Submit (or re-attach to) every request of the job, wait, download into ctx.dir; the local paths to ingest. */
export async function fetchAdsFiles(spec: AdsSourceSpec, ctx: AdsFetchContext): Promise<{ paths: string[]; receivedBytes: number }> {
  const key = (ctx.env ?? processEnv())[spec.keyEnv];
  if (!key) throw new SourceError('NO_CREDENTIALS', `ADS: environment variable ${spec.keyEnv} (the personal API key of the data store) is not set on this worker`, false);
  await mkdir(ctx.dir, { recursive: true });
  await removePartials(ctx.dir);
  const policy = attemptPolicy(spec.options);
  const remote = ctx.remote ?? memoryRemoteJobs();
  const n = spec.requests.length;
  const fractions = new Array<number>(n).fill(0);
  const say = (i: number) => (f: number, m: string) => {
    fractions[i] = Math.max(fractions[i]!, f);
    ctx.onProgress?.(fractions.reduce((a, b) => a + b, 0) / n, m);
  };
  const results = await runPool(
    spec.requests,
    spec.options.parallel,
    (r, i, signal) => {
      const hooks = { signal, onRetry: (e: SourceError, ms: number, k: number) => say(i)(fractions[i]!, `${r.key}: ${e.message}; retry ${k} in ${Math.ceil(ms / 1000)} s`) };
      const run: Run = { api: adsApi(spec, key, policy, hooks), dir: ctx.dir, remote, policy, signal, say: say(i) };
      return fetchRequest(run, r, say(i));
    },
    ctx.signal,
  );
  // runPool keeps the requests' order (ads-requests.ts: the invariant request, then the months in time order).
  return { paths: results.flatMap((x) => x.paths), receivedBytes: results.reduce((s, x) => s + x.bytes, 0) };
}
