import { describe, expect, it } from 'vitest';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseJobsConfig, JobsConfigError, DEFAULT_PRODUCTS, loadJobsConfig } from '../../jobs/config.js';
import { configuredIngestJob, httpFiles, ingestJobId, runForTick } from '../../jobs/ingest-job.js';
import { latestRun, parseRunTime, runKey } from '../../jobs/run-time.js';
import { parseSteps } from '../../jobs/sources/steps.js';
import { checkTemplate, fillTemplate } from '../../jobs/sources/url-template.js';
import { parseChecksumFile } from '../../jobs/sources/checksum.js';

const ICON_EU_T2M =
  'https://opendata.dwd.de/weather/nwp/icon-eu/grib/{HH}/t_2m/icon-eu_europe_regular-lat-lon_single-level_{yyyymmddHH}_{step:03}_T_2M.grib2.bz2';

describe('run times', () => {
  it('parses the forms operators type, all as UTC', () => {
    const want = Date.UTC(2026, 10, 21, 12);
    for (const s of ['2026-11-21T12', '2026-11-21T12Z', '2026-11-21T12:00Z', '2026-11-21T12:00:00Z', '2026-11-21 12', '2026112112']) {
      expect(parseRunTime(s).getTime(), s).toBe(want);
    }
    expect(parseRunTime('2026-11-21').getTime()).toBe(Date.UTC(2026, 10, 21, 0));
  });

  it('refuses impossible dates and other zones, naming the input', () => {
    expect(() => parseRunTime('2026-02-30T00')).toThrow(/2026-02-30T00/);
    expect(() => parseRunTime('2026-11-21T25')).toThrow(/no such/);
    expect(() => parseRunTime('2026-11-21T12+01:00')).toThrow(/expected UTC/);
    expect(() => parseRunTime('tomorrow')).toThrow(/tomorrow/);
  });

  it('keys runs without colons (BullMQ id separator)', () => {
    expect(runKey(new Date(Date.UTC(2026, 10, 21, 12)))).toBe('2026-11-21T12Z');
    expect(runKey(new Date(Date.UTC(2026, 10, 21, 12, 30)))).toBe('2026-11-21T1230Z');
    expect(ingestJobId('nwp', '2026-11-21T12Z')).toBe('nwp@2026-11-21T12Z');
  });

  it('picks the newest published run: cycle 3 h, available after 4 h', () => {
    // 16:20 − 4 h = 12:20 → 12Z; 15:59 − 4 h = 11:59 → 09Z; 02:00 − 4 h = 22:00 the day before → 21Z.
    expect(latestRun(new Date('2026-11-21T16:20:00Z'), 3, 240).toISOString()).toBe('2026-11-21T12:00:00.000Z');
    expect(latestRun(new Date('2026-11-21T15:59:00Z'), 3, 240).toISOString()).toBe('2026-11-21T09:00:00.000Z');
    expect(latestRun(new Date('2026-11-21T02:00:00Z'), 3, 240).toISOString()).toBe('2026-11-20T21:00:00.000Z');
    expect(latestRun(new Date('2026-11-21T07:10:00Z'), 24, 0).toISOString()).toBe('2026-11-21T00:00:00.000Z');
  });
});

describe('steps and URL templates', () => {
  it('expands step lists', () => {
    expect(parseSteps('0-3')).toEqual([0, 1, 2, 3]);
    expect(parseSteps('0-6/3,12')).toEqual([0, 3, 6, 12]);
    expect(parseSteps('76-78/1,81-87/3')).toEqual([76, 77, 78, 81, 84, 87]);
    expect(() => parseSteps('5-1')).toThrow(/5-1/);
    expect(() => parseSteps('a')).toThrow(/'a'/);
  });

  it('fills the DWD ICON-EU template', () => {
    const url = fillTemplate(ICON_EU_T2M, { run: new Date(Date.UTC(2026, 10, 21, 6)), product: 'nwp', step: 7 });
    expect(url).toBe(
      'https://opendata.dwd.de/weather/nwp/icon-eu/grib/06/t_2m/icon-eu_europe_regular-lat-lon_single-level_2026112106_007_T_2M.grib2.bz2',
    );
    expect(fillTemplate('{yyyy}/{mm}/{dd}/{HH}{MM}/{yyyymmdd}/{step}/{product}', { run: new Date(Date.UTC(2026, 0, 2, 3, 4)), product: 'cams', step: 12 })).toBe(
      '2026/01/02/0304/20260102/12/cams',
    );
  });

  it('rejects unknown placeholders and stray braces', () => {
    expect(() => checkTemplate('x/{yy}/y')).toThrow(/\{yy\}/);
    expect(() => checkTemplate('x/{HH:02}')).toThrow(/only \{step\}/);
    expect(() => checkTemplate('x/{HH')).toThrow(/unbalanced/);
    expect(() => checkTemplate('{url}.sha256')).toThrow(/\{url\}/);
    expect(() => checkTemplate('{url}.sha256', true)).not.toThrow();
  });
});

describe('jobs config', () => {
  const http = (extra: object = {}) => ({
    products: {
      nwp: {
        schedule: { cron: '20 * * * *' },
        run: { cycleHours: 3, availableAfterMinutes: 240 },
        model: 'ICON-EU',
        source: { kind: 'http', urls: [ICON_EU_T2M], steps: '0-2', ...extra },
      },
    },
  });

  it('fills defaults', () => {
    const c = parseJobsConfig(http(), '/x/jobs.json');
    expect(c.retry).toEqual({ attempts: 5, backoffMs: 30_000 });
    expect(c.keepCompletedSeconds).toBe(7 * 86_400);
    expect(c.worker).toEqual({ lockMs: 60_000, stalledIntervalMs: 30_000, maxStalledCount: 2, shutdownGraceMs: 60_000 });
  });

  it('names the path and reason of a schema error', () => {
    expect(() => parseJobsConfig({ products: { nwp: { source: { kind: 'ftp' } } } }, '/x/jobs.json')).toThrow(JobsConfigError);
    expect(() => parseJobsConfig({ products: { nwp: { source: { kind: 'inbox', dir: 'in' }, extra: 1 } } }, '/x/jobs.json')).toThrow(/\/x\/jobs.json: \/products\/nwp/);
    expect(() => parseJobsConfig({ products: {}, retry: { attempts: 0, backoffSeconds: 1 } }, null)).toThrow(/\/retry\/attempts/);
  });

  it('refuses a {step} template without steps, and a schedule with both cron and every', () => {
    const noSteps = http();
    delete (noSteps.products.nwp.source as { steps?: string }).steps;
    expect(() => parseJobsConfig(noSteps, 'j.json')).toThrow(/uses \{step\} but no steps/);
    const both = http();
    (both.products.nwp.schedule as object) = { cron: '* * * * *', everySeconds: 5 };
    expect(() => parseJobsConfig(both, 'j.json')).toThrow(/exactly one of cron, everySeconds/);
    expect(() => parseJobsConfig(http({ checksumUrl: '{url}.{algo}' }), 'j.json')).toThrow(/\{algo\}/);
  });

  it('builds a self-contained job for a run: files per step, bzip2 by suffix, id from product + run', () => {
    const c = parseJobsConfig(http({ checksumUrl: '{url}.sha256' }), 'j.json');
    const cfg = c.products.nwp!;
    const now = new Date('2026-11-21T16:20:00Z');
    expect(runForTick(cfg, now).toISOString()).toBe('2026-11-21T12:00:00.000Z');
    const { id, data } = configuredIngestJob('/data', 'nwp', cfg, { now, trigger: 'schedule' });
    expect(id).toBe('nwp@2026-11-21T12Z');
    expect(data.run).toBe('2026-11-21T12:00:00.000Z');
    expect(data.model).toBe('ICON-EU');
    if (data.source.kind !== 'http') throw new Error('expected http');
    expect(data.source.files.map((f) => f.name)).toEqual([
      'icon-eu_europe_regular-lat-lon_single-level_2026112112_000_T_2M.grib2',
      'icon-eu_europe_regular-lat-lon_single-level_2026112112_001_T_2M.grib2',
      'icon-eu_europe_regular-lat-lon_single-level_2026112112_002_T_2M.grib2',
    ]);
    expect(data.source.files.every((f) => f.decompress === 'bzip2')).toBe(true);
    expect(data.source.files[1]!.checksumUrl).toBe(`${data.source.files[1]!.url}.sha256`);
    // Same run from a later tick: same id, so BullMQ keeps one job.
    expect(configuredIngestJob('/data', 'nwp', cfg, { now: new Date('2026-11-21T17:20:00Z'), trigger: 'schedule' }).id).toBe(id);
  });

  it('keeps two templates ending in the same file name apart', () => {
    const c = parseJobsConfig({ products: { x: { source: { kind: 'http', urls: ['http://a/1/f.grib', 'http://a/2/f.grib'] } } } }, 'j.json');
    expect(httpFiles('x', c.products.x!, new Date(0)).map((f) => f.name)).toEqual(['f.grib', '1-f.grib']);
  });

  it('built-in defaults are inbox sources only (no endpoint in code); a named config file must exist', async () => {
    expect(Object.values(DEFAULT_PRODUCTS).every((p) => p.source.kind === 'inbox')).toBe(true);
    const defaults = await loadJobsConfig('/nonexistent-data-dir', {});
    expect(defaults.path).toBeNull();
    expect(Object.keys(defaults.products)).toEqual(expect.arrayContaining(['nwp', 'cams', 'marine', 'soil', 'uv']));
    await expect(loadJobsConfig('/data', { METEOPUNTO_JOBS_CONFIG: '/nonexistent/jobs.json' })).rejects.toThrow(/jobs config \/nonexistent\/jobs.json: cannot read/);
  });
});

describe('checksum files', () => {
  const hex = 'a'.repeat(64);
  it('reads sha256sum lines and bare digests', () => {
    expect(parseChecksumFile(`${hex}  f.grib2.bz2\n${'b'.repeat(64)}  g.grib2.bz2\n`, 'f.grib2.bz2', 'sha256')).toBe(hex);
    expect(parseChecksumFile(`${'B'.repeat(64)} *g.grib2.bz2`, 'g.grib2.bz2', 'sha256')).toBe('b'.repeat(64));
    expect(parseChecksumFile(`${hex}\n`, 'whatever', 'sha256')).toBe(hex);
    expect(() => parseChecksumFile('d41d8cd98f00b204e9800998ecf8427e  x', 'x', 'sha256')).toThrow(/no sha256 digest/);
  });
});

describe('docs/jobs.md example: DWD ICON-EU open data (jobs/examples/dwd-icon-eu.jobs.json)', () => {
  it('loads, and expands to the files of the newest run (8 variables × 49 steps + orography)', async () => {
    const path = resolve(import.meta.dirname, '../../jobs/examples/dwd-icon-eu.jobs.json');
    const config = await loadJobsConfig('/data', { METEOPUNTO_JOBS_CONFIG: path });
    expect(config.path).toBe(path);
    // 16:30 UTC − 4 h = 12:30 → the 12Z run (cycle 6 h).
    const { id, data } = configuredIngestJob('/data', 'nwp', config.products.nwp!, { now: new Date('2026-11-21T16:30:00Z'), trigger: 'schedule' });
    expect(id).toBe('nwp@2026-11-21T12Z');
    if (data.source.kind !== 'http') throw new Error('expected http');
    const files = data.source.files;
    expect(files).toHaveLength(8 * 49 + 1);
    expect(new Set(files.map((f) => f.name)).size).toBe(files.length);
    expect(files[0]!.url).toBe(
      'https://opendata.dwd.de/weather/nwp/icon-eu/grib/12/t_2m/icon-eu_europe_regular-lat-lon_single-level_2026112112_000_T_2M.grib2.bz2',
    );
    expect(files.at(-1)).toEqual({
      url: 'https://opendata.dwd.de/weather/nwp/icon-eu/grib/00/hsurf/icon-eu_europe_regular-lat-lon_time-invariant_2026112100_HSURF.grib2.bz2',
      name: 'icon-eu_europe_regular-lat-lon_time-invariant_2026112100_HSURF.grib2',
      decompress: 'bzip2',
    });
    expect(config.products.cams!.source).toEqual({ kind: 'inbox', dir: 'inbox/cams', settleSeconds: 30 });
  });
});

describe('jobs/examples/italy.jobs.json: the production configuration for Italy', () => {
  const path = resolve(import.meta.dirname, '../../jobs/examples/italy.jobs.json');

  it('loads through the config schema: nwp ICON-2I on MeteoHub with the ICON-EU fallback, nwp-soil, cams from the ADS as netcdf_zip, soil, marine, uv, dem', async () => {
    const config = await loadJobsConfig('/data', { METEOPUNTO_JOBS_CONFIG: path });
    expect(Object.keys(config.products).sort()).toEqual(['cams', 'dem', 'marine', 'nwp', 'nwp-soil', 'ozone', 'soil', 'uv', 'uv-nrt']);
    const nwp = config.products.nwp!;
    expect(nwp.source).toMatchObject({ kind: 'meteohub', root: 'https://meteohub.agenziaitaliameteo.it', dataset: 'ICON_2I_SURFACE_PRESSURE_LEVELS', lateAfterHours: 18 });
    expect(nwp.fallback?.model).toBe('DWD ICON-EU');
    const cams = config.products.cams!.source;
    expect(cams).toMatchObject({ kind: 'ads', keyEnv: 'METEOPUNTO_ADS_KEY', request: { data_format: 'netcdf_zip' } });
    // The fallback's newest run at 16:30 UTC (published 4 h after its time, every 6 h): 12Z, 73 steps of 13 variables + HSURF.
    const { id, data } = configuredIngestJob('/data', 'nwp', { ...nwp.fallback!, source: nwp.fallback!.source }, { now: new Date('2026-11-21T16:30:00Z'), trigger: 'schedule' });
    expect(id).toBe('nwp@2026-11-21T12Z');
    if (data.source.kind !== 'http') throw new Error('expected http');
    expect(data.source.files).toHaveLength(13 * 73 + 1);
    expect(data.source.files[0]!.url).toBe('https://opendata.dwd.de/weather/nwp/icon-eu/grib/12/t_2m/icon-eu_europe_regular-lat-lon_single-level_2026112112_000_T_2M.grib2.bz2');
  });

  it('every product that answers now has a source covering now; the past from ERA5-Land and SARAH; dem once, by hand', async () => {
    const config = await loadJobsConfig('/data', { METEOPUNTO_JOBS_CONFIG: path });
    const now = new Date('2026-11-21T16:30:00Z');
    // LSA SAF: the hour published about 80 min after it began: at 16:30 the 15Z slots.
    const uv = configuredIngestJob('/data', 'uv-nrt', config.products['uv-nrt']!, { now, trigger: 'schedule' });
    expect(uv.id).toBe('uv-nrt@2026-11-21T15Z');
    if (uv.data.source.kind !== 'http') throw new Error('expected http');
    expect(uv.data.source.files.map((f) => f.url.split('/').pop())).toEqual(['00', '15', '30', '45'].map((m) => `NETCDF4_LSASAF_MSG_MDSSFTD_MSG-Disk_2026112115${m}.nc`));
    expect(config.products['uv-nrt']!.source).toMatchObject({ basicAuth: { userEnv: 'LSASAF_USER', passwordEnv: 'LSASAF_PASSWORD' } });
    // ERA5-Land: about five days behind; the day six days back, from the CDS with its own key variable.
    const soil = configuredIngestJob('/data', 'soil', config.products.soil!, { now, trigger: 'schedule' });
    expect(soil.id).toBe('soil@2026-11-15T00Z');
    if (soil.data.source.kind !== 'ads') throw new Error('expected ads');
    expect(soil.data.source).toMatchObject({ api: 'https://cds.climate.copernicus.eu/api', dataset: 'reanalysis-era5-land', keyEnv: 'METEOPUNTO_CDS_KEY' });
    expect(soil.data.source.requests.map((r) => r.request)).toMatchObject([{ year: ['2026'], month: ['11'], day: ['15'] }]);
    expect(config.products.uv!.source).toMatchObject({ kind: 'inbox', dir: 'inbox/uv' });
    // Marine: the Copernicus Marine example as it is (waves and SST for now, after the MED bulletins).
    const marine = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../jobs/examples/marine-cmems.jobs.json'), 'utf8')).products.marine;
    expect(JSON.parse(readFileSync(path, 'utf8')).products.marine).toEqual(marine);
    expect(configuredIngestJob('/data', 'marine', config.products.marine!, { now, trigger: 'schedule' }).id).toBe('marine@2026-11-21T00Z');
    expect(config.products.dem).toEqual({ source: { kind: 'inbox', dir: 'inbox/dem', settleSeconds: 60 } });
    // ozone: CAMS global total column ozone from the ADS, the 00 UTC run after ~10 h: at 16:30 today's, lead hours to +48 h cover now.
    const ozone = configuredIngestJob('/data', 'ozone', config.products.ozone!, { now, trigger: 'schedule' });
    expect(ozone.id).toBe('ozone@2026-11-21T00Z');
    if (ozone.data.source.kind !== 'ads') throw new Error('expected ads');
    expect(ozone.data.source).toMatchObject({ dataset: 'cams-global-atmospheric-composition-forecasts', keyEnv: 'METEOPUNTO_ADS_KEY' });
    expect(ozone.data.source.requests.map((r) => r.request)).toMatchObject([{ variable: ['total_column_ozone'], date: ['2026-11-21/2026-11-21'] }]);
  });

  it('names each provider root once and no credential: a mirror is one setting, the ADS key an environment variable', () => {
    const text = readFileSync(path, 'utf8');
    const hosts = [...text.matchAll(/https?:\/\/([^/"]+)/g)].map((m) => m[1]);
    expect(hosts.sort()).toEqual(['ads.atmosphere.copernicus.eu', 'ads.atmosphere.copernicus.eu', 'cds.climate.copernicus.eu', 'datalsasaf.lsasvcs.ipma.pt', 'meteohub.agenziaitaliameteo.it', 'meteohub.agenziaitaliameteo.it', 'opendata.dwd.de', 'stac.marine.copernicus.eu']);
    expect(text).not.toMatch(/"(key|token|password|secret)"\s*:/i);
    const mirrored = parseJobsConfig(JSON.parse(text.replace('https://opendata.dwd.de', 'http://mirror.local')), 'mirror');
    const { data } = configuredIngestJob('/data', 'nwp', { source: mirrored.products.nwp!.fallback!.source }, { now: new Date('2026-11-21T16:30:00Z'), trigger: 'schedule' });
    if (data.source.kind !== 'http') throw new Error('expected http');
    expect(data.source.files.every((f) => f.url.startsWith('http://mirror.local/weather/nwp/icon-eu/grib/'))).toBe(true);
  });

  it('a URL using {root} without a root, or a fallback behind a source that has no late run, is refused naming where', () => {
    expect(() => parseJobsConfig({ products: { nwp: { source: { kind: 'http', urls: ['{root}/a.grib'] } } } }, 'x')).toThrow(/\/products\/nwp\/source: a URL uses \{root\} but no root is configured/);
    expect(() => parseJobsConfig({ products: { nwp: { source: { kind: 'inbox', dir: 'i' }, fallback: { source: { kind: 'http', urls: ['http://a/b'] } } } } }, 'x')).toThrow(/\/products\/nwp\/fallback: only a meteohub source/);
  });
});
