/**
 * The Atmosphere Data Store source against a real HTTP server on 127.0.0.1
 * that speaks the ADS Retrieve API (submit, job status, results, asset) and
 * serves a real CAMS Europe NetCDF file as the result. The API key comes from
 * the worker's environment only; the committed example config validates and
 * its job data carries the variable's name, never a key.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { parseJobsConfig } from '../../jobs/config.js';
import { adsSpec, configuredIngestJob } from '../../jobs/ingest-job.js';
import type { AdsSourceSpec } from '../../jobs/job-types.js';
import { fetchAdsFile } from '../../jobs/sources/ads.js';
import { SourceError } from '../../jobs/sources/source-error.js';
import { readNetcdf } from '../../ingest/netcdf/index.js';
import { dataFile, describeShared } from '../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../..');
const FILE = dataFile('cams-europe-pollen-jaen/2024AnalisisPolem.nc');
const KEY = 'abcd1234-test-key';

interface Seen {
  method: string;
  url: string;
  token: string | undefined;
  body: string;
}

/** An ADS look-alike: the job is 'accepted', then 'running', then 'successful'; `refuse` answers the submit with 403. */
function adsServer() {
  const seen: Seen[] = [];
  let polls = 0;
  let refuse = false;
  const file = readFileSync(FILE);
  const server: Server = createServer((req: IncomingMessage, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      seen.push({ method: req.method!, url: req.url!, token: req.headers['private-token'] as string | undefined, body });
      const json = (status: number, v: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(v));
      };
      if (req.headers['private-token'] !== KEY && req.url !== '/download/result.nc') return json(401, { title: 'Unauthorized', detail: 'invalid token' });
      if (req.method === 'POST' && req.url === '/api/retrieve/v1/processes/cams-europe-air-quality-forecasts/execution') {
        if (refuse) return json(403, { title: 'Required licences not accepted', detail: 'accept the CAMS licence on the dataset page' });
        return json(201, { jobID: 'job-42', status: 'accepted' });
      }
      if (req.url === '/api/retrieve/v1/jobs/job-42') return json(200, { jobID: 'job-42', status: ++polls < 2 ? 'running' : 'successful' });
      if (req.url === '/api/retrieve/v1/jobs/job-42/results') return json(200, { asset: { value: { href: `http://127.0.0.1:${(server.address() as AddressInfo).port}/download/result.nc`, 'file:size': file.length } } });
      if (req.url === '/download/result.nc') {
        res.writeHead(200, { 'content-length': file.length });
        return res.end(file);
      }
      json(404, { title: 'not found' });
    });
  });
  return {
    server, seen, file,
    reset() {
      seen.length = 0;
      polls = 0;
      refuse = false;
    },
    refuse() {
      refuse = true;
    },
    api: () => `http://127.0.0.1:${(server.address() as AddressInfo).port}/api`,
  };
}

const example = () => parseJobsConfig(JSON.parse(readFileSync(join(REPO, 'jobs/examples/cams-ads.jobs.json'), 'utf8')), 'cams-ads.jobs.json');

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
    expect(src.request.date).toEqual(['2026-05-10/2026-05-10']);
    expect(src.fileName).toBe('cams-europe-20260510.nc');
    expect(JSON.stringify(job.data)).not.toMatch(/PRIVATE-TOKEN|token/i);
  });

  it('refuses a key written in place of a variable name', () => {
    const raw = JSON.parse(readFileSync(join(REPO, 'jobs/examples/cams-ads.jobs.json'), 'utf8'));
    raw.products.cams.source.keyEnv = 'abcd-1234-5678';
    expect(() => parseJobsConfig(raw, 'bad.json')).toThrow(/products\/cams\/source/);
  });
});

describeShared('ADS source against a loopback ADS', () => {
  const ads = adsServer();
  let dir: string;
  let spec: AdsSourceSpec;
  beforeAll(async () => {
    await new Promise<void>((r) => ads.server.listen(0, '127.0.0.1', r));
    const cams = example().products.cams!;
    if (cams.source.kind !== 'ads') throw new Error('example is not an ads source');
    spec = { ...adsSpec('cams', { ...cams.source, api: ads.api() }, new Date('2024-05-10T00:00:00Z')), pollMs: 20 };
  });
  afterAll(() => new Promise<void>((r) => ads.server.close(() => r())));
  beforeEach(() => {
    ads.reset();
    dir = mkdtempSync(join(tmpdir(), 'mp-ads-'));
    return () => rmSync(dir, { recursive: true, force: true });
  });

  it('submits the filled request with the key from the environment, polls, downloads the result byte for byte', async () => {
    const r = await fetchAdsFile(spec, { dir, env: { METEOPUNTO_ADS_KEY: KEY } });
    expect(r.paths).toEqual([join(dir, 'cams-europe-20240510.nc')]);
    const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
    expect(sha(readFileSync(r.paths[0]!))).toBe(sha(ads.file));
    const submit = ads.seen[0]!;
    expect(submit.method).toBe('POST');
    expect(submit.token).toBe(KEY);
    const inputs = JSON.parse(submit.body).inputs;
    expect(inputs.date).toEqual(['2024-05-10/2024-05-10']);
    expect(inputs.variable).toContain('olive_pollen');
    expect(ads.seen.filter((s) => s.url === '/api/retrieve/v1/jobs/job-42').length).toBe(2);
    // What arrived is a real CAMS file the reader decodes.
    expect((await readNetcdf(r.paths[0]!)).some((f) => f.name === 'opg_conc')).toBe(true);
  });

  it('without the environment variable: a permanent error naming it, nothing asked of the server', async () => {
    const err = await fetchAdsFile(spec, { dir, env: {} }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).code).toBe('NO_CREDENTIALS');
    expect((err as SourceError).transient).toBe(false);
    expect((err as SourceError).message).toMatch(/METEOPUNTO_ADS_KEY/);
    expect(ads.seen).toEqual([]);
  });

  it('a wrong key or an unaccepted licence fails at once with the ADS explanation', async () => {
    const bad = await fetchAdsFile(spec, { dir, env: { METEOPUNTO_ADS_KEY: 'wrong' } }).then(() => { throw new Error('expected a refusal'); }, (e: unknown) => e as SourceError);
    expect(bad.transient).toBe(false);
    expect(bad.message).toMatch(/HTTP 401.*invalid token/);
    ads.refuse();
    const lic = await fetchAdsFile(spec, { dir, env: { METEOPUNTO_ADS_KEY: KEY } }).then(() => { throw new Error('expected a refusal'); }, (e: unknown) => e as SourceError);
    expect(lic.transient).toBe(false);
    expect(lic.message).toMatch(/HTTP 403.*licences not accepted/);
  });
});
