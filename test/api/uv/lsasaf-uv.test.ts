/**
 * uv_index from the near-real-time satellite source, end to end: the
 * example schedule jobs/examples/uv-lsasaf.jobs.json (loaded through the
 * real config schema), pointed at the emulated LSA SAF data server
 * (test/support/emulators/lsasaf.ts, basic auth), fetches the newest
 * published hour of MDSSFTD files (written by netCDF4-python in the
 * product's layout, test/api/uv/make_lsasaf_mdssftd.py, DSSF_TOT = k ×
 * Haurwitz clear sky over 41–43 N, 12–14 E), ingests them as `uv-nrt` and an
 * answer at the tick's time (an hour past the newest slot) takes its cloud
 * modification from the held clear-sky index k, `source` naming LSA SAF;
 * outside the satellite's box the NWP answers; once a SARAH file covers the
 * time, SARAH answers. The login comes from the environment and reaches the
 * server only as the Authorization header. The clock is fixed (a June
 * morning, the Sun high over Italy: at night there is no clear-sky index)
 * and the answers are asked for with time= (Business).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { generateKey } from '../../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../../api/access/key-store-file.js';
import { UV_SOURCES } from '../../../api/fields/developer/uv.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { buildSampleDataset } from '../../../ingest/sample/build.js';
import { credentialEnvNames, loadJobsConfig, parseJobsConfig } from '../../../jobs/config.js';
import { redactSecrets, secretValues } from '../../../config/redaction.js';
import { configuredIngestJob } from '../../../jobs/ingest-job.js';
import { createIngestProcessor } from '../../../jobs/processors/ingest.js';
import { checkSources } from '../../../jobs/sources/source-check.js';
import type { IngestJobData } from '../../../jobs/job-types.js';
import { LSASAF_MDSSFTD, lsaSafFiles, startLsaSafEmulator, type LsaSafEmulator } from '../../support/emulators/lsasaf.js';

const EXAMPLE = resolve(import.meta.dirname, '../../../jobs/examples/uv-lsasaf.jobs.json');
const K = 0.6;
const CAL = 0.3;
const USER = 'meteopunto-test';
const PASSWORD = 'pw-3f9c1e7a'; // the emulator's login; the worker reads it from LSASAF_PASSWORD

const dir = mkdtempSync(join(tmpdir(), 'mp-uvnrt-'));
let lsa: LsaSafEmulator;
let app: FastifyInstance;
let base: string;
let key = '';
const saved = { user: process.env.LSASAF_USER, password: process.env.LSASAF_PASSWORD };

const now = new Date('2026-06-21T10:25:00Z');
// The newest hour the server has published at `now` (its four slots appear about 80 min after the hour starts): 09 UTC.
const run = new Date('2026-06-21T09:00:00Z');
const AT = `time=${now.toISOString().slice(0, 16)}Z`;

async function processJob(data: IngestJobData, id: string) {
  const processIngest = createIngestProcessor({ root: dir, runIngest });
  return processIngest({ id, data, attemptsMade: 0, opts: { attempts: 1 }, updateProgress: async () => undefined });
}

async function jobFor(origin: string) {
  const config = await loadJobsConfig(dir, { METEOPUNTO_JOBS_CONFIG: EXAMPLE });
  const cfg = config.products['uv-nrt']!;
  if (cfg.source.kind !== 'http') throw new Error('expected the http source');
  // The provider root is one setting: the emulator stands in for the data server.
  return configuredIngestJob(dir, 'uv-nrt', { ...cfg, source: { ...cfg.source, root: origin, retryInPlace: { firstDelaySeconds: 0.05 } } }, { now, trigger: 'schedule' });
}

beforeAll(async () => {
  const grid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
  await buildSampleDataset({ root: dir, now, hoursAhead: 6, nwpGrid: grid, demGrid: grid, products: ['nwp', 'dem'] });
  const files = join(dir, 'lsasaf');
  mkdirSync(files);
  const made = JSON.parse(
    execFileSync('/usr/bin/python3', [resolve(import.meta.dirname, 'make_lsasaf_mdssftd.py'), files, String(run.getTime() / 1000), '4', String(K), '41', '43', '12', '14'], { encoding: 'utf8' }),
  ) as { files: string[] };
  lsa = await startLsaSafEmulator({ user: USER, password: PASSWORD, files: lsaSafFiles(made.files) });
  const store = new FileKeyStore(keysFilePath(dir));
  const k = generateKey();
  await store.insert({ prefix: k.prefix, hash: k.hash, plan: 'business', kind: 'api', name: 'uv', created: new Date().toISOString() });
  await store.close();
  key = k.key;
}, 180_000);

afterAll(async () => {
  process.env.LSASAF_USER = saved.user;
  process.env.LSASAF_PASSWORD = saved.password;
  if (saved.user === undefined) delete process.env.LSASAF_USER;
  if (saved.password === undefined) delete process.env.LSASAF_PASSWORD;
  await app?.close();
  await lsa?.close();
  rmSync(dir, { recursive: true, force: true });
});

interface UvBody { value: number; clear_sky: number; cloud_modification: number; source: string }
const uvAt = async (q: string): Promise<UvBody> => {
  const r = await fetch(`${base}/api/v1/weather.php?${q}&${AT}&api_key=${key}`);
  expect(r.status).toBe(200);
  return ((await r.json()) as { uv_index: UvBody }).uv_index;
};

describe('uv_index from LSA SAF MSG DSSF (near real time), fetched from the emulated data server', () => {
  it('the example asks for the four 15-minute slots of the newest published hour on the real server, login by environment variable', async () => {
    const config = await loadJobsConfig(dir, { METEOPUNTO_JOBS_CONFIG: EXAMPLE });
    const at = new Date('2026-07-09T12:25:00Z');
    const { id, data } = configuredIngestJob(dir, 'uv-nrt', config.products['uv-nrt']!, { now: at, trigger: 'schedule' });
    expect(id).toBe('uv-nrt@2026-07-09T11Z');
    if (data.source.kind !== 'http') throw new Error('expected http');
    expect(data.source.files.map((f) => f.url)).toEqual(['00', '15', '30', '45'].map((m) => `https://datalsasaf.lsasvcs.ipma.pt/PRODUCTS/MSG/MDSSFTD/NETCDF/2026/07/09/NETCDF4_LSASAF_MSG_MDSSFTD_MSG-Disk_2026070911${m}.nc`));
    // The job data names the variables, never the login.
    expect(data.source.options.basicAuth).toEqual({ userEnv: 'LSASAF_USER', passwordEnv: 'LSASAF_PASSWORD' });
    // SARAH's continuation arrives days late, a day at a time: its inbox is looked at once a day.
    expect(config.products.uv!.schedule).toEqual({ cron: '20 6 * * *', tz: 'UTC' });
  });

  it('a basic-auth password is a secret of the worker’s logs whatever its variable is called', () => {
    const config = parseJobsConfig({ products: { 'uv-nrt': { source: { kind: 'http', urls: ['https://example.org/a.nc'], basicAuth: { userEnv: 'LSA_LOGIN', passwordEnv: 'LSA_PASS' } } } } }, 'jobs.json');
    expect(credentialEnvNames(config)).toContain('LSA_PASS');
    const secrets = secretValues({ LSA_LOGIN: USER, LSA_PASS: PASSWORD }, credentialEnvNames(config));
    expect(redactSecrets(`login failed for ${PASSWORD}`, secrets)).not.toContain(PASSWORD);
  });

  it('without the login in the environment the job fails at once naming the variable, asking the server nothing', async () => {
    delete process.env.LSASAF_USER;
    delete process.env.LSASAF_PASSWORD;
    const { id, data } = await jobFor(lsa.origin);
    const seen = lsa.requests.length;
    await expect(processJob(data, id)).rejects.toThrow(/environment variable LSASAF_USER \(the data server's login\) is not set on this worker/);
    expect(lsa.requests.length).toBe(seen);
  });

  it('a wrong password is refused by the server (401) and fails at once, the password in no message', async () => {
    process.env.LSASAF_USER = USER;
    process.env.LSASAF_PASSWORD = 'wrong-password-1';
    const { id, data } = await jobFor(lsa.origin);
    const err = (await processJob(data, id).then(() => new Error('expected a failure'), (e: unknown) => e)) as Error;
    expect(err.message).toMatch(/HTTP 401/);
    expect(err.message).not.toContain('wrong-password-1');
    expect(err.message).not.toContain(Buffer.from(`${USER}:wrong-password-1`).toString('base64'));
  });

  it('sources check reaches the data server with the login from the environment, and says which variable is missing', async () => {
    const config = await loadJobsConfig(dir, { METEOPUNTO_JOBS_CONFIG: EXAMPLE });
    const cfg = config.products['uv-nrt']!;
    if (cfg.source.kind !== 'http') throw new Error('expected http');
    const local = { ...config, products: { 'uv-nrt': { ...cfg, source: { ...cfg.source, root: lsa.origin } } } };
    const opts = { root: dir, now, timeoutMs: 5000, retryMs: 2000 };
    const [ok] = await checkSources(local, { ...opts, env: { LSASAF_USER: USER, LSASAF_PASSWORD: PASSWORD } });
    expect(ok).toMatchObject({ product: 'uv-nrt', kind: 'http', ok: true });
    const [missing] = await checkSources(local, { ...opts, env: { LSASAF_USER: USER } });
    expect(missing).toMatchObject({ ok: false, detail: expect.stringMatching(/environment variable LSASAF_PASSWORD .* is not set/) });
    const [refused] = await checkSources(local, { ...opts, env: { LSASAF_USER: USER, LSASAF_PASSWORD: 'nope-nope' } });
    expect(refused).toMatchObject({ ok: false, detail: expect.stringMatching(/HTTP 401/) });
  });

  it('fetches the hour through a 503 with Retry-After, ingests it and answers now from the held clear-sky index', async () => {
    process.env.LSASAF_USER = USER;
    process.env.LSASAF_PASSWORD = PASSWORD;
    const { id, data } = await jobFor(lsa.origin);
    expect(id).toBe('uv-nrt@2026-06-21T09Z');
    const first = `${LSASAF_MDSSFTD}/2026/06/21/NETCDF4_LSASAF_MSG_MDSSFTD_MSG-Disk_202606210900.nc`;
    lsa.failNext(first, 1, 503, '1');
    const seen = lsa.requests.length;
    const result = await processJob(data, id);
    expect(result).toMatchObject({ product: 'uv-nrt' });
    const mine = lsa.requests.slice(seen);
    expect(mine.map((r) => r.status).sort()).toEqual([200, 200, 200, 200, 503]);
    expect(mine.every((r) => r.user === USER)).toBe(true);
    const tries = mine.filter((r) => r.path === first);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000);

    app = await buildApp({ dataDir: dir, access: { env: { METEOPUNTO_DATA: dir, METEOPUNTO_QUOTA_BUSINESS_MINUTE: '1000' } } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    const uv = await uvAt('lat=41.9&lon=12.5');
    expect(uv.source).toBe(UV_SOURCES.satelliteNrt);
    // k by construction, to the answer's two decimals: the file's Sun (the Astronomical Almanac's approximate solar
    // coordinates, at the pixel's scan time) and ours agree to well under 1 % of k; with the Sun at the slot time instead, k would read 0.61.
    expect(Math.abs(uv.cloud_modification - K)).toBeLessThanOrEqual(0.005);
    expect(Math.abs(uv.value - uv.clear_sky * uv.cloud_modification)).toBeLessThanOrEqual(0.1);
    // Outside the satellite files' box the NWP factor answers.
    expect([UV_SOURCES.shortwave, UV_SOURCES.cloudCover]).toContain((await uvAt('lat=45.4&lon=9.2')).source);
  });

  it('where SARAH covers the time, SARAH answers (its effective cloud albedo), LSA SAF elsewhere', async () => {
    const file = join(dir, 'sarah-cal.nc');
    const start = now.getTime() / 1000 - 1500; // 10:00 to 13:00 UTC, half-hourly
    execFileSync('/usr/bin/python3', [resolve(import.meta.dirname, 'make_sarah_cal.py'), file, String(start), '7', String(CAL), '41', '42', '12', '13']);
    await runIngest({ root: dir, product: 'uv', files: [file] });
    // The API looks at manifests once a second (later under load): ask until it has seen SARAH's, for at most 15 s.
    let sarah = await uvAt('lat=41.5&lon=12.5');
    for (let i = 0; i < 60 && sarah.source !== UV_SOURCES.satellite; i++) {
      await new Promise((r) => setTimeout(r, 250));
      sarah = await uvAt('lat=41.5&lon=12.5');
    }
    expect(sarah.source).toBe(UV_SOURCES.satellite);
    expect(sarah.cloud_modification).toBeCloseTo(1 - CAL, 2);
    // Inside LSA SAF's box but outside SARAH's region: the near-real-time source.
    expect((await uvAt('lat=42.7&lon=13.7')).source).toBe(UV_SOURCES.satelliteNrt);
  });
});
