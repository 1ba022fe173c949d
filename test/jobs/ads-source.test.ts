/**
 * The ADS/CDS source (jobs/sources/ads.ts) against the Retrieve API emulator
 * (test/support/emulators/ads.ts) serving the real CAMS Europe files: the
 * request and key as the official client sends them, polls retried in place
 * on 429 honouring Retry-After (gaps measured at the server), the server's
 * reason for a failed job, an unknown state ending at once, ZIP results
 * unpacked, re-attaching to a known remote job instead of submitting again,
 * results kept from an earlier attempt, and ERA5 months as files of their own, in time order.
 * The committed example config validates and its job data names the key's
 * variable, never a key.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJobsConfig } from '../../jobs/config.js';
import { adsSpec, configuredIngestJob } from '../../jobs/ingest-job.js';
import type { AdsSourceSpec } from '../../jobs/job-types.js';
import { fetchAdsFiles } from '../../jobs/sources/ads.js';
import { memoryRemoteJobs } from '../../jobs/sources/remote-jobs.js';
import { SourceError } from '../../jobs/sources/source-error.js';
import { readNetcdf } from '../../ingest/netcdf/netcdf-reader.js';
import { startAdsEmulator, type AdsEmulator, type AdsJobPlan, type Submission } from '../support/emulators/ads.js';
import { CAMS_FILES, era5Grib } from '../support/emulators/ads-content.js';
import { describeShared } from '../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../..');
const KEY = 'abcd1234-5678-test-key';
const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

const example = () => parseJobsConfig(JSON.parse(readFileSync(join(REPO, 'jobs/examples/cams-ads.jobs.json'), 'utf8')), 'cams-ads.jobs.json');

async function failure(p: Promise<unknown>): Promise<SourceError> {
  const err = await p.then(() => undefined, (e: unknown) => e);
  if (!(err instanceof SourceError)) throw new Error(`expected a SourceError, got ${String(err)}`);
  return err;
}

describe('the committed ADS example config', () => {
  it('validates, schedules cams daily, and its job data names the key variable, never a key', () => {
    const cfg = example();
    const cams = cfg.products.cams!;
    expect(cams.schedule).toEqual({ cron: '30 10 * * *', tz: 'UTC' });
    expect(cams.run).toEqual({ cycleHours: 24, availableAfterMinutes: 600 });
    const job = configuredIngestJob('/data', 'cams', cams, { now: new Date('2026-05-10T10:30:00Z'), trigger: 'schedule' });
    expect(job.data.run).toBe('2026-05-10T00:00:00.000Z');
    const src = job.data.source as AdsSourceSpec;
    expect(src.kind).toBe('ads');
    expect(src.keyEnv).toBe('METEOPUNTO_ADS_KEY');
    expect(src.requests).toHaveLength(1);
    expect(src.requests[0]!.request.date).toEqual(['2026-05-10/2026-05-10']);
    expect(src.requests[0]!.fileName).toBe('cams-europe-20260510.zip');
    expect(JSON.stringify(job.data)).not.toMatch(/PRIVATE-TOKEN|token/i);
  });

  it('refuses a key written in place of a variable name', () => {
    const raw = JSON.parse(readFileSync(join(REPO, 'jobs/examples/cams-ads.jobs.json'), 'utf8'));
    raw.products.cams.source.keyEnv = 'abcd-1234-5678';
    expect(() => parseJobsConfig(raw, 'bad.json')).toThrow(/products\/cams\/source/);
  });
});

describeShared('ADS source against the Retrieve API emulator', () => {
  let ads: AdsEmulator;
  let plan: (n: number, s: Submission) => AdsJobPlan;
  let submits = 0;
  let dir: string;
  let spec: AdsSourceSpec;
  const work = mkdtempSync(join(tmpdir(), 'mp-ads-work-'));

  beforeAll(async () => {
    ads = await startAdsEmulator({ token: KEY, plan: (sub) => plan(++submits, sub) });
    const cams = example().products.cams!;
    if (cams.source.kind !== 'ads') throw new Error('example is not an ads source');
    spec = adsSpec('cams', { ...cams.source, api: ads.api, fileName: 'cams-europe-{yyyymmdd}.nc', pollSeconds: 0.02, retryInPlace: { firstDelaySeconds: 0.01, maxDelaySeconds: 0.05 } }, new Date('2024-05-10T00:00:00Z'));
  });
  afterAll(async () => {
    await ads.close();
    rmSync(work, { recursive: true, force: true });
  });
  beforeEach(() => {
    ads.requests.length = 0;
    ads.submissions.length = 0;
    submits = 0;
    plan = () => ({ result: { files: [CAMS_FILES()[0]!] } });
    dir = mkdtempSync(join(tmpdir(), 'mp-ads-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  const env = { METEOPUNTO_ADS_KEY: KEY };

  it('submits the filled request with the key from the environment, polls, downloads the result byte for byte', async () => {
    const remote = memoryRemoteJobs();
    const r = await fetchAdsFiles(spec, { dir, env, remote });
    expect(r.paths).toEqual([join(dir, 'cams-europe-20240510.nc')]);
    expect(sha(readFileSync(r.paths[0]!))).toBe(sha(readFileSync(CAMS_FILES()[0]!)));
    expect(ads.submissions).toHaveLength(1);
    const sub = ads.submissions[0]!;
    expect(sub.dataset).toBe('cams-europe-air-quality-forecasts');
    expect(sub.inputs.date).toEqual(['2024-05-10/2024-05-10']);
    expect(sub.inputs.variable).toContain('olive_pollen');
    expect(ads.requests.filter((q) => q.path.startsWith('/api/')).every((q) => q.authorised)).toBe(true);
    // accepted once, running once, then successful: three looks at the job.
    expect(ads.polls(sub.jobID).length).toBe(3);
    expect(remote.ids).toEqual({ request: sub.jobID });
    expect((await readNetcdf(r.paths[0]!)).some((f) => f.name === 'opg_conc')).toBe(true);
  });

  it('without the environment variable: a permanent error naming it, nothing asked of the server', async () => {
    const err = await failure(fetchAdsFiles(spec, { dir, env: {} }));
    expect(err.code).toBe('NO_CREDENTIALS');
    expect(err.transient).toBe(false);
    expect(err.message).toMatch(/METEOPUNTO_ADS_KEY/);
    expect(ads.requests).toEqual([]);
  });

  it('a wrong key or an unaccepted licence fails at once with the data store’s explanation, never the key', async () => {
    const bad = await failure(fetchAdsFiles(spec, { dir, env: { METEOPUNTO_ADS_KEY: 'wrong-key' } }));
    expect(bad.transient).toBe(false);
    expect(bad.message).toMatch(/HTTP 401 \(Authentication failed: .*PRIVATE-TOKEN/);
    expect(ads.requests).toHaveLength(1);
    plan = () => ({ refuse: { status: 403, title: 'required licences not accepted', detail: 'accept the CAMS licence on the dataset page' } });
    const lic = await failure(fetchAdsFiles(spec, { dir, env }));
    expect(lic.transient).toBe(false);
    expect(lic.message).toMatch(/HTTP 403 \(required licences not accepted: accept the CAMS licence/);
    expect(lic.message).not.toContain(KEY);
  });

  it('a 429 on a poll is retried in place after its Retry-After (seconds): the same job, no second submission', async () => {
    plan = () => ({ accepted: 1, running: 2, pollErrors: { 2: { status: 429, retryAfter: '1' } }, result: { files: [CAMS_FILES()[0]!] } });
    await fetchAdsFiles(spec, { dir, env });
    expect(ads.submissions).toHaveLength(1);
    const polls = ads.polls(ads.submissions[0]!.jobID);
    expect(polls.map((p) => p.status)).toEqual([200, 429, 200, 200]);
    // Measured at the server: the retry came no sooner than the 1 s it asked for.
    expect(polls[2]!.at - polls[1]!.at).toBeGreaterThanOrEqual(1000);
  });

  it('Retry-After as an HTTP-date is honoured too, on the submission itself', async () => {
    const until = new Date(Math.ceil((Date.now() + 1500) / 1000) * 1000);
    plan = (n) => (n === 1 ? { refuse: { status: 429, title: 'Rate limit exceeded', retryAfter: until.toUTCString() } } : { result: { files: [CAMS_FILES()[0]!] } });
    await fetchAdsFiles(spec, { dir, env });
    const posts = ads.requests.filter((q) => q.method === 'POST');
    expect(posts.map((p) => p.status)).toEqual([429, 201]);
    expect(posts[1]!.at).toBeGreaterThanOrEqual(until.getTime());
    expect(ads.submissions).toHaveLength(1);
  });

  it('a failed job fails at once with the data store’s reason, and is forgotten so a new attempt submits afresh', async () => {
    plan = () => ({ end: { status: 'failed', reason: 'the request you have submitted is not valid: no data for leadtime_hour 97' } });
    const remote = memoryRemoteJobs();
    const err = await failure(fetchAdsFiles(spec, { dir, env, remote }));
    expect(err.code).toBe('REMOTE_FAILED');
    expect(err.transient).toBe(false);
    expect(err.message).toContain(`ADS job ${ads.submissions[0]!.jobID}`);
    expect(err.message).toMatch(/failed: The job has failed: the request you have submitted is not valid: no data for leadtime_hour 97/);
    expect(remote.ids).toEqual({});
  });

  it('a state the API does not define fails at the poll that returns it, naming it', async () => {
    plan = () => ({ accepted: 1, running: 0, end: { status: 'paused' } });
    const err = await failure(fetchAdsFiles(spec, { dir, env }));
    expect(err.code).toBe('REMOTE_FAILED');
    expect(err.transient).toBe(false);
    expect(err.message).toMatch(/in unknown state 'paused'/);
    expect(ads.polls(ads.submissions[0]!.jobID)).toHaveLength(2);
  });

  it('a ZIP result (netcdf_zip) is unpacked: each member, byte for byte, goes to ingest', async () => {
    plan = () => ({ result: { files: CAMS_FILES(), zip: true } });
    const r = await fetchAdsFiles(spec, { dir, env });
    expect(r.paths.map((p) => basename(p))).toEqual(CAMS_FILES().map((f) => basename(f)));
    for (const [i, p] of r.paths.entries()) expect(sha(readFileSync(p))).toBe(sha(readFileSync(CAMS_FILES()[i]!)));
    // A second fetch finds the unpacked members and asks nothing.
    const before = ads.requests.length;
    expect((await fetchAdsFiles(spec, { dir, env })).paths).toEqual(r.paths);
    expect(ads.requests.length).toBe(before);
  });

  it('a known remote job is re-attached to: polled again, never submitted again', async () => {
    plan = () => ({ hold: true, result: { files: [CAMS_FILES()[0]!] } });
    const remote = memoryRemoteJobs();
    const stop = new AbortController();
    const first = fetchAdsFiles(spec, { dir, env, remote, signal: stop.signal }).catch((e: unknown) => e);
    await new Promise<void>((ok) => {
      const t = setInterval(() => ads.submissions[0] && ads.polls(ads.submissions[0].jobID).length >= 3 && (clearInterval(t), ok()), 10);
    });
    stop.abort(new Error('attempt stopped'));
    await first;
    const id = ads.submissions[0]!.jobID;
    expect(remote.ids).toEqual({ request: id });
    ads.release(id);
    const r = await fetchAdsFiles(spec, { dir, env, remote });
    expect(ads.submissions).toHaveLength(1);
    expect(sha(readFileSync(r.paths[0]!))).toBe(sha(readFileSync(CAMS_FILES()[0]!)));
  });

  it('ERA5 split per month: one request per month, geopotential once, each result its own file, in time order', async () => {
    const era5 = {
      kind: 'ads' as const, api: ads.api, dataset: 'reanalysis-era5-single-levels', keyEnv: 'CDS_API_KEY', pollSeconds: 0.02,
      request: { product_type: ['reanalysis'], variable: ['2m_temperature', 'geopotential'], year: '{yyyy}', month: ['03', '01', '02'], day: ['01', '15', '30'], time: ['00:00', '12:00'], data_format: 'grib' },
      fileName: 'era5-{yyyy}.grib', split: 'month' as const, invariantVariables: ['geopotential'],
    };
    const s = adsSpec('reanalysis', era5, new Date(Date.UTC(2017, 0, 1)));
    let made = 0;
    plan = (_n, sub) => ({ accepted: 0, running: 0, result: { files: [era5Grib(sub.inputs, work, `r${++made}.grib`)] } });
    const r = await fetchAdsFiles(s, { dir, env: { CDS_API_KEY: KEY } });
    // The invariant request first, then the months ascending whatever order the configuration lists them in.
    expect(r.paths).toEqual(['invariant', '01', '02', '03'].map((m) => join(dir, `era5-2017-${m}.grib`)));
    expect(readdirSync(dir).filter((f) => f.endsWith('.grib')).sort()).toEqual(['era5-2017-01.grib', 'era5-2017-02.grib', 'era5-2017-03.grib', 'era5-2017-invariant.grib']);
    const inputs = ads.submissions.map((x) => x.inputs);
    expect(inputs.map((i) => [i.variable, i.month, i.day, i.time])).toEqual([
      [['geopotential'], ['01'], ['01'], ['00:00']],
      [['2m_temperature'], ['01'], ['01', '15', '30'], ['00:00', '12:00']],
      [['2m_temperature'], ['02'], ['01', '15'], ['00:00', '12:00']], // February 2017 has no 30th
      [['2m_temperature'], ['03'], ['01', '15', '30'], ['00:00', '12:00']],
    ]);
    // ecCodes reads each file: the geopotential message, then each month's temperature messages, dated as asked.
    const dates = r.paths.map((p) => execFileSync('grib_get', ['-p', 'shortName,dataDate,dataTime', p], { encoding: 'utf8' }).trim().split('\n'));
    expect(dates.map((d) => d.length)).toEqual([1, 6, 4, 6]);
    expect(dates[0]).toEqual(['z 20170101 0']);
    expect(dates[1]!.slice(0, 2)).toEqual(['2t 20170101 0', '2t 20170101 1200']);
    expect(dates[3]!.at(-1)).toBe('2t 20170330 1200');
  });

});
