/**
 * `meteopunto sources check`, the built CLI run as a child process, with the
 * committed jobs/examples/italy.jobs.json pointed at the emulators of
 * MeteoHub, DWD open data, the Atmosphere and Climate Data Stores, the
 * Copernicus Marine Data Store and the LSA SAF data server (roots swapped, runs made for one fixed time that every
 * check is run at with --at, so a provider cycle passing during the suite
 * changes nothing): every source answers → one `ok` line each and exit 0; a
 * wrong ADS key, a key not set, an incomplete ICON-2I run, a missing ICON-EU
 * file, a wrong LSA SAF password → a FAIL line naming why, exit 1, and no
 * key or password printed.
 */
import { execFile, execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { latestRun } from '../../jobs/run-time.js';
import { startAdsEmulator, type AdsEmulator } from '../support/emulators/ads.js';
import { iconEuPath, startDwdEmulator, type DwdEmulator } from '../support/emulators/dwd-opendata.js';
import { medDatasets, startMarineEmulator, type MarineEmulator } from '../support/emulators/copernicus-marine.js';
import { iconEuFiles, meteohubRun } from '../support/emulators/icon-content.js';
import { lsaSafFiles, startLsaSafEmulator, type LsaSafEmulator } from '../support/emulators/lsasaf.js';
import { startMeteohubEmulator, type MeteohubEmulator, type MeteohubRun } from '../support/emulators/meteohub.js';
import { ICON, orographyHeights, runStamp, soilTemperatureAt, soilWaterLayer, writeIconFile } from '../support/icon-grib.js';
import { describeShared } from '../support/shared-data.js';
import { tempRoot } from './support/harness.js';

const REPO = resolve(import.meta.dirname, '../..');
const KEY = 'ads-test-key-7f3a9c';
const LSA = { user: 'meteopunto-ops', password: 'lsa-pass-4c2e91' };

function cli(args: string[], env: Record<string, string>): Promise<{ code: number; out: string; err: string }> {
  return new Promise((done) => {
    execFile(process.execPath, [join(REPO, 'dist/cli/main.js'), ...args], { env: { PATH: process.env.PATH!, ...env }, timeout: 120_000 }, (error, out, err) =>
      done({ code: error ? ((error as { code?: number }).code ?? 1) : 0, out, err }),
    );
  });
}

describeShared('meteopunto sources check (italy.jobs.json on the emulators)', () => {
  const dir = tempRoot('srccheck');
  let hub: MeteohubEmulator;
  let dwd: DwdEmulator;
  let ads: AdsEmulator;
  let lsa: LsaSafEmulator;
  let cm: MarineEmulator;
  let complete: MeteohubRun;
  let euRun: Date;
  const configPath = join(dir, 'jobs.json');
  // The one clock of the suite: the runs are made for it and every check runs at it (--at).
  const now = new Date();
  const at = ['--at', now.toISOString()];
  const env = () => ({ METEOPUNTO_DATA: join(dir, 'data'), METEOPUNTO_JOBS_CONFIG: configPath, METEOPUNTO_ADS_KEY: KEY, METEOPUNTO_CDS_KEY: KEY, LSASAF_USER: LSA.user, LSASAF_PASSWORD: LSA.password });

  beforeAll(async () => {
    const z = orographyHeights();
    // ICON-2I: the newest 00/12 UTC run at least an hour old; ICON-EU: the run the schedule would fetch now.
    const run = latestRun(now, 12, 60);
    complete = meteohubRun(dir, run, [0, 1], { T_2M: (h) => 288 - 0.0065 * h, TD_2M: () => 280, U_10M: () => 1, V_10M: () => 1, VMAX_10M: (_h, s) => s, TOT_PREC: (_h, s) => s, CLCT: () => 50, PMSL: () => 101_000, ASWDIR_S: () => 100, ATHB_S: () => -60, T_G: () => 285, WW: () => 0, HSURF: (h) => h, FR_LAND: () => 1 }, z);
    const soil = (name: string, v: typeof ICON[string]) => ({ name, path: writeIconFile(join(dir, name), v, run, [0, 1], () => 20, z) });
    complete.variables.W_SO = [soil(`icon_2I_${runStamp(run)}_depthBelowLandLayer-0.grib`, soilWaterLayer(0, 1))];
    complete.variables.T_SO = [soil(`icon_2I_${runStamp(run)}_depthBelowLand-5.grib`, soilTemperatureAt(5))];
    hub = await startMeteohubEmulator({ runs: [complete] });
    euRun = latestRun(now, 6, 240);
    const day00 = new Date(Date.UTC(euRun.getUTCFullYear(), euRun.getUTCMonth(), euRun.getUTCDate()));
    const eu = { T_2M: () => 280, TD_2M: () => 275, U_10M: () => 1, V_10M: () => 1, VMAX_10M: () => 0, TOT_PREC: () => 0, CLCT: () => 0, PMSL: () => 101_000, ASWDIR_S: () => 0, ASWDIFD_S: () => 0, WW: () => 0, ATHB_S: () => -60, T_G: () => 280 };
    dwd = await startDwdEmulator({ files: { ...iconEuFiles(dir, euRun, [0], eu, z), ...iconEuFiles(join(dir, 'c'), day00, [], { HSURF: (h) => h }, z) } });
    ads = await startAdsEmulator({ token: KEY, plan: () => ({}), datasets: ['cams-europe-air-quality-forecasts', 'reanalysis-era5-land', 'cams-global-atmospheric-composition-forecasts'] });
    // LSA SAF: the four 15-minute slots of the hour the uv-nrt schedule fetches at `now`, in the product's layout (netCDF4-python).
    const slots = join(dir, 'lsasaf');
    mkdirSync(slots);
    const hour = latestRun(now, 1, 80);
    const made = JSON.parse(execFileSync('/usr/bin/python3', [join(REPO, 'test/api/uv/make_lsasaf_mdssftd.py'), slots, String(hour.getTime() / 1000), '4', '0.8', '41', '43', '12', '14'], { encoding: 'utf8' })) as { files: string[] };
    lsa = await startLsaSafEmulator({ ...LSA, files: lsaSafFiles(made.files) });
    // Copernicus Marine: one file per dataset dated the marine run's day (listed only: the check downloads nothing).
    const day = latestRun(now, 24, 840).toISOString().slice(0, 10).replace(/-/g, '');
    const month = `${day.slice(0, 4)}/${day.slice(4, 6)}`;
    const listed = (key: string) => [{ key: `${month}/${key}`, path: join(REPO, 'package.json') }];
    cm = await startMarineEmulator({
      datasets: medDatasets({
        sst: listed(`${day}000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc`),
        waves: listed(`${day}00_h-HCMR--WAVE-MEDWAM4-MEDATL-b${day}_an00-sv10.00.nc`),
        physics: listed(`${day}_2dh-CMCC--TEMP-MFSeas10-MEDATL-b${day}_fc-sv11.00.nc`),
      }),
    });
    for (const inbox of ['uv', 'dem']) mkdirSync(join(dir, 'data', 'inbox', inbox), { recursive: true });

    const file = JSON.parse(readFileSync(join(REPO, 'jobs/examples/italy.jobs.json'), 'utf8'));
    for (const p of ['nwp', 'nwp-soil']) file.products[p].source.root = hub.origin;
    file.products.nwp.fallback.source.root = dwd.origin;
    file.products.cams.source.api = ads.api;
    file.products.soil.source.api = ads.api;
    file.products.ozone.source.api = ads.api;
    file.products['uv-nrt'].source.root = lsa.origin;
    file.products.marine.source.stac = cm.stac;
    writeFileSync(configPath, JSON.stringify(file));
  }, 180_000);
  afterAll(async () => {
    await Promise.all([hub?.close(), dwd?.close(), ads?.close(), lsa?.close(), cm?.close()]);
    rmSync(dir, { recursive: true, force: true });
  });

  it('every source answers as its product expects: one ok line each, exit 0', async () => {
    const r = await cli(['sources', 'check', ...at], env());
    expect(r.err).toBe('');
    const lines = r.out.trim().split('\n');
    expect(lines[0]).toBe(`sources in ${configPath}:`);
    expect(lines.slice(1, -1).map((l) => l.split(/\s+/).slice(0, 2).join(' '))).toEqual(['ok nwp', 'ok nwp', 'ok nwp-soil', 'ok soil', 'ok cams', 'ok ozone', 'ok marine', 'ok uv-nrt', 'ok uv', 'ok dem']);
    expect(r.out).toMatch(new RegExp(`ok {4}nwp {14}meteohub 127\\.0\\.0\\.1:\\d+: run ${complete.run.toISOString().slice(0, 13)}Z complete: 13 variables, 13 files; optional ASWDIFD_S absent`));
    expect(r.out).toMatch(/ok {4}nwp \(fallback\) {3}http 127\.0\.0\.1:\d+: run .*: the first file of each of the 14 URL template\(s\) answers as expected/);
    expect(r.out).toContain('ok    cams             ads 127.0.0.1:');
    expect(r.out).toContain('the key in METEOPUNTO_ADS_KEY is accepted; dataset cams-europe-air-quality-forecasts is there');
    expect(r.out).toContain('the key in METEOPUNTO_CDS_KEY is accepted; dataset reanalysis-era5-land is there');
    expect(r.out).toMatch(new RegExp(`ok {4}uv-nrt {11}http 127\\.0\\.0\\.1:\\d+: run ${latestRun(now, 1, 80).toISOString().slice(0, 13)}Z: the first file of each of the 4 URL template\\(s\\) answers as expected`));
    // The login went as the Authorization header the workers send.
    expect(lsa.requests.every((q) => q.status === 200 && q.user === LSA.user)).toBe(true);
    expect(r.out).toMatch(/ok {4}marine {11}copernicus-marine 127\.0\.0\.1:\d+: run \S+: files listed per dataset: SST_MED_SST_L4_NRT_OBSERVATIONS_010_004_a_V2 1, cmems_mod_med_wav_anfc_4\.2km_PT1H-i 1, cmems_mod_med_phy-tem_anfc_4\.2km-2D_PT1H-m 1/);
    expect(r.out).toContain('the key in METEOPUNTO_ADS_KEY is accepted; dataset cams-global-atmospheric-composition-forecasts is there');
    expect(lines.at(-1)).toBe('all 10 source(s) ok');
    expect(r.code).toBe(0);
  }, 120_000);

  it('a wrong key, an incomplete run and a missing file each fail with the reason; exit 1; the key is never printed', async () => {
    const lacking: MeteohubRun = { run: complete.run, variables: { ...complete.variables } };
    delete lacking.variables.TOT_PREC;
    hub.publish(lacking);
    dwd.failNext(iconEuPath(euRun, 0, 'WW'), 10, 404);
    try {
      const r = await cli(['sources', 'check', ...at], { ...env(), METEOPUNTO_ADS_KEY: 'wrong-key-123456', LSASAF_PASSWORD: 'wrong-pass-987' });
      expect(r.code).toBe(1);
      expect(r.out).toMatch(/FAIL {2}nwp {14}meteohub .*: late: no complete run of the last 18 h: .* lacks TOT_PREC/);
      expect(r.out).toMatch(/FAIL {2}nwp \(fallback\) .*_WW\.grib2\.bz2: HTTP 404/);
      expect(r.out).toMatch(/FAIL {2}cams {13}ads .*: the key in METEOPUNTO_ADS_KEY is refused: .*HTTP 401 \(Authentication failed/);
      expect(r.out).toMatch(/FAIL {2}uv-nrt {11}http .*_MSG-Disk_\d{10}00\.nc: HTTP 401/);
      expect(r.out).toMatch(/ok {4}nwp-soil/);
      expect(r.out).toMatch(/FAIL {2}ozone {12}ads .*: the key in METEOPUNTO_ADS_KEY is refused/);
      expect(r.out.trim().split('\n').at(-1)).toBe('5 of 10 source(s) failed');
      expect(r.out + r.err).not.toContain('wrong-key-123456');
      expect(r.out + r.err).not.toContain('wrong-pass-987');
      const unset = await cli(['sources', 'check', '--json', ...at], { METEOPUNTO_DATA: join(dir, 'data'), METEOPUNTO_JOBS_CONFIG: configPath });
      const cams = (JSON.parse(unset.out) as { checks: { product: string; ok: boolean; detail: string }[] }).checks.find((c) => c.product === 'cams')!;
      expect(cams).toMatchObject({ ok: false, detail: "METEOPUNTO_ADS_KEY is not set: put the data store's personal access token there" });
      const uv = (JSON.parse(unset.out) as { checks: { product: string; ok: boolean; detail: string }[] }).checks.find((c) => c.product === 'uv-nrt')!;
      expect(uv).toMatchObject({ ok: false, detail: "environment variable LSASAF_USER (the data server's login) is not set on this worker" });
      expect(unset.code).toBe(1);
    } finally {
      hub.publish(complete);
    }
  }, 120_000);

  it('wrong usage exits 2', async () => {
    expect((await cli(['sources', 'verify'], env())).code).toBe(2);
    const bare = await cli(['sources', 'check', '--at', '2026-11-26'], env());
    expect(bare.code).toBe(2);
    expect(bare.err).toContain("--at: '2026-11-26' is not an ISO 8601 time with its zone");
  });
});
