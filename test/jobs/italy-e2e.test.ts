/**
 * Live Italy end to end: the committed jobs/examples/italy.jobs.json, its
 * provider roots swapped for emulators of MeteoHub, DWD open data, the
 * Atmosphere and Climate Data Stores, the Copernicus Marine Data Store and
 * the LSA SAF data server (test/support/italy-live/: content dated from the
 * real clock, written by ecCodes and netCDF4-python in each provider's
 * layout; the schedules ticking every few seconds, ICON-EU cut to the steps
 * around now), on the suite's Redis, with the schedules and TWO worker
 * processes of the built CLI (`node dist/cli/main.js worker`) and the API
 * on a real HTTP port. No sample tiles exist: every answer comes from what
 * the schedules fetched.
 *
 * - cams: the ADS answers a poll with 429 and holds the job running; the
 *   worker running it is SIGKILLed, the other takes the job over and
 *   re-attaches to the same remote job: one submission in all.
 * - nwp: ICON-2I's newest run lacks ASWDIR_S, so ICON-EU is fetched
 *   (temperature_source says so); once the run is complete the next tick
 *   ingests it and temperature_source names ICON-2I. (What the fallback
 *   stores, step 0 nulls and `jobs status` are checked in nwp-fallback.test.ts.)
 * - nwp-soil, marine, uv-nrt, soil (ERA5-Land, the past): each job's
 *   stored value at one point against ecCodes' grib_get or netCDF4-python.
 * - weather.php with Free, Developer and Business keys for now; comfort (UTCI)
 *   and uv_index 700 m above the Po-plain node against ./support/point-reference.ts,
 *   soil and waves against grib_get and netCDF4-python.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, rmSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { buildApp } from '../../api/app.js';
import type { Plan } from '../../api/access/contract.js';
import { generateKey } from '../../api/access/key-format.js';
import { FileKeyStore, keysFilePath } from '../../api/access/key-store-file.js';
import { openQueues, type Queues } from '../../jobs/queues.js';
import { runKey } from '../../jobs/run-time.js';
import { TileStore } from '../../tiles/read/reader.js';
import { marineReference } from '../ingest/products/marine-reference.js';
import { iconEuPath } from '../support/emulators/dwd-opendata.js';
import { camsGlobalOzoneAt, H, K, LAND, runsNear, SEA } from '../support/italy-live/content.js';
import { startLiveProviders, type LiveProviders } from '../support/italy-live/providers.js';
import { dataFile, describeShared } from '../support/shared-data.js';
import { tempRoot, uniquePrefix, waitFor } from './support/harness.js';
import { pointComfortUv } from './support/point-reference.js';
import { sunElevationDeg } from './support/sun-almanac.js';
import { spawnWorker, type WorkerProcess } from './support/worker-process.js';

const PY = '/usr/bin/python3';
const REPO = resolve(import.meta.dirname, '../..');
const PLANS = ['free', 'developer', 'business'] as const;
/** Free's fields, which every plan receives (interface spec). */
const FREE_FIELDS = ['icon', 'condition', 'temperature', 'temperature_source', 'dew_point', 'humidity', 'pressure_msl', 'wind_speed', 'wind_direction', 'wind_gust', 'temperature_trend_3h', 'valid_time'];
const DEM_TIF = (dir: string) => join(dir, 'nita1k.tif');
/** A point above the Po-plain node (about 50 m in the ICON-2I orography), so that the altitude correction acts. */
const ALT_M = 700;
const grib = (args: string[]) => Number(execFileSync('grib_get', args, { encoding: 'utf8' }).trim());

describeShared('live Italy: italy.jobs.json on every emulated provider, the scheduler, two worker processes, the API', () => {
  const redisUrl = inject('redisUrl');
  const dir = tempRoot('italy-live');
  const root = join(dir, 'data');
  const prefix = uniquePrefix();
  const now = new Date();
  const keys: Partial<Record<Plan, string>> = {};
  const workers: WorkerProcess[] = [];
  let live: LiveProviders;
  let queues: Queues;
  let app: FastifyInstance;
  let base: string;
  let workerEnv: Record<string, string>;
  const startWorker = (name: string) => workers.push(spawnWorker(workerEnv, ['--name', name, '--concurrency', '2'], { built: true }));

  beforeAll(async () => {
    // CAMS: the second poll answered 429 (Retry-After 1 s), then held running until the test releases it.
    live = await startLiveProviders(join(dir, 'providers'), now, () => ({ accepted: 1, running: 1, hold: true, pollErrors: { 2: { status: 429, retryAfter: '1' } } }));
    const config = live.writeConfig(join(dir, 'jobs.json'), 3);
    mkdirSync(join(root, 'inbox', 'dem'), { recursive: true });
    // dem, once: the operator's GeoTIFF (GDAL from the real 1 km DEM) in inbox/dem, older than the inbox's settle time.
    execFileSync('gdal_translate', ['-q', '-of', 'GTiff', '-ot', 'Float32', '-a_srs', 'EPSG:4326', dataFile('dem-north-italy-1km/nita1k_orog.grb'), DEM_TIF(dir)]);
    copyFileSync(DEM_TIF(dir), join(root, 'inbox', 'dem', 'nita1k.tif'));
    utimesSync(join(root, 'inbox', 'dem', 'nita1k.tif'), new Date(Date.now() - 600_000), new Date(Date.now() - 600_000));
    const store = new FileKeyStore(keysFilePath(root));
    for (const plan of ['free', 'developer', 'business'] as const) {
      const k = generateKey();
      await store.insert({ prefix: k.prefix, hash: k.hash, plan, kind: 'api', name: plan, created: new Date().toISOString() });
      keys[plan] = k.key;
    }
    await store.close();
    app = await buildApp({ dataDir: root, access: { env: { METEOPUNTO_DATA: root, METEOPUNTO_QUOTA_FREE_MINUTE: '1000', METEOPUNTO_QUOTA_FREE_DAY: '1000', METEOPUNTO_FLOOD_REFUSED_PER_MINUTE: '1000' } } });
    base = await app.listen({ port: 0, host: '127.0.0.1' });
    queues = openQueues(redisUrl, prefix);
    const env = { REDIS_URL: redisUrl, METEOPUNTO_DATA: root, METEOPUNTO_QUEUE_PREFIX: prefix, METEOPUNTO_JOBS_CONFIG: config, ...live.credentials };
    workerEnv = env;
    startWorker('w1');
    startWorker('w2');
  }, 240_000);
  afterAll(async () => {
    for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGTERM');
    await Promise.all(workers.map((w) => w.exited));
    await queues?.schedule.obliterate({ force: true }).catch(() => {});
    await queues?.ingest.obliterate({ force: true }).catch(() => {});
    await queues?.close();
    await app?.close();
    await live?.close();
    rmSync(dir, { recursive: true, force: true });
  });

  /** Waits for the first of the job ids (one per run a tick may have asked for) to complete; fails on a failed one. */
  async function completed(ids: string[], timeoutMs = 120_000): Promise<string> {
    return waitFor(`one of ${ids.join(', ')} completed`, async () => {
      for (const id of ids) {
        const state = await queues.ingest.getJobState(id);
        if (state === 'completed') return id;
        if (state === 'failed') throw new Error(`${id} failed: ${(await queues.ingest.getJob(id))?.failedReason}`);
      }
      return undefined;
    }, timeoutMs);
  }
  const ids = (product: string, runs: Date[], suffix = '') => runs.map((r) => `${product}@${runKey(r)}${suffix}`);
  const store = () => new TileStore(root, { manifestCheckMs: 0 });
  const hour = Math.floor(now.getTime() / H) * H;
  /** The CAMS global file of the run the ozone store holds. */
  const ozoneFile = () => live.ozoneDelivered.get(store().manifest('ozone')!.source.run!.slice(0, 10))!;

  async function weather(plan: Plan, point: { lat: number; lon: number }, extra = '') {
    const r = await fetch(`${base}/api/v1/weather.php?lat=${point.lat}&lon=${point.lon}${extra}`, { headers: { 'x-api-key': keys[plan]! } });
    const body = (await r.json()) as Record<string, unknown>;
    expect(r.status, JSON.stringify(body)).toBe(200);
    return body;
  }

  it('cams: a 429 mid-poll costs no second job, and the worker SIGKILLed mid-job is followed by the other, which re-attaches', async () => {
    const sub = await waitFor('the CAMS submission', () => live.ads.submissions.find((s) => s.dataset === 'cams-europe-air-quality-forecasts'), 90_000);
    await live.ads.polled(sub.jobID, 3);
    const camsId = `cams@${runKey(new Date(`${String((sub.inputs.date as string[])[0]).slice(0, 10)}T00:00:00Z`))}`;
    const running = await waitFor('the worker running the CAMS job', () => workers.find((w) => w.lines.some((l) => l.event === 'active' && l.jobId === camsId)), 30_000);
    running.child.kill('SIGKILL');
    expect((await running.exited).signal).toBe('SIGKILL');
    // Two workers again for the rest of the suite; the job itself must go to the survivor first (stalled-job check).
    startWorker('w3');
    live.ads.release(sub.jobID);
    expect(await completed([camsId], 90_000)).toBe(camsId);
    expect(workers.filter((w) => w !== running).some((w) => w.lines.some((l) => l.event === 'active' && l.jobId === camsId))).toBe(true);
    // One submission in all: the retry of the 429 happened in place, the takeover re-attached to the stored jobID.
    expect(live.ads.submissions.filter((s) => s.dataset === sub.dataset)).toHaveLength(1);
    const polls = live.ads.polls(sub.jobID);
    const i429 = polls.findIndex((p) => p.status === 429);
    expect(i429).toBeGreaterThan(0);
    expect(polls[i429 + 1]!.at - polls[i429]!.at).toBeGreaterThanOrEqual(1000);

    // PM2.5 at the Po-plain point and hour, against netCDF4-python on the delivered file.
    const file = live.camsDelivered.get(sub.inputs.date ? String((sub.inputs.date as string[])[0]).slice(0, 10).replace(/-/g, '') : '')![0]!;
    const t = new Date(hour).toISOString();
    const [ref] = JSON.parse(execFileSync(PY, [join(REPO, 'test/ingest/products/fixtures/cams_bilinear.py'), JSON.stringify({ file, queries: [{ var: 'pm2p5_conc', lat: LAND.lat, lon: LAND.lon, time: t }] })], { encoding: 'utf8' })) as number[];
    const got = (await store().sample('cams', LAND.lat, LAND.lon, hour, ['pm2_5'])).values.pm2_5!;
    expect(Math.abs(got - ref!)).toBeLessThanOrEqual(0.05);
  }, 180_000);

  it('each product goes from its scheduled fetch (dem: enqueued once) to the store: values against grib_get, GDAL and netCDF4-python', async () => {
    const { icon } = live;
    const enqueue = execFileSync(process.execPath, [join(REPO, 'dist/cli/main.js'), 'jobs', 'enqueue', 'dem', '--no-wait'], { env: { PATH: process.env.PATH!, ...workerEnv }, encoding: 'utf8' });
    expect(enqueue).toMatch(/dem@/);
    // A ceiling against a hang: the fallback (ICON-EU downloads and ingest, beside the CAMS job) took over 120 s
    // twice in eight runs at load 20-27 on 2 cores.
    await completed(ids('nwp', icon.euRuns, '-fallback'), 180_000);
    const eu = icon.euRuns.find((r) => store().manifest('nwp')?.source.run === r.toISOString())!;
    const step = (hour - eu.getTime()) / H;
    const euT2m = icon.euFiles[iconEuPath(eu, step, 'T_2M')]!.replace(/\.bz2$/, '');
    const t2m = (await store().sample('nwp', LAND.lat, LAND.lon, hour, ['temperature_2m'])).values.temperature_2m!;
    expect(t2m).toBeCloseTo(grib(['-l', `${LAND.lat},${LAND.lon},1`, euT2m]) - 273.15, 2);

    await completed(ids('nwp-soil', [icon.complete.run]));
    const wso = icon.complete.variables.W_SO![0]!.path;
    const soilStep = (hour - icon.complete.run.getTime()) / H;
    // θ = W_SO / (1000 kg/m³ × 0.02 m) for the 1–3 cm layer.
    const theta = grib(['-w', `step=${soilStep}`, '-l', `${LAND.lat},${LAND.lon},1`, wso]) / 20;
    expect((await store().sample('nwp-soil', LAND.lat, LAND.lon, hour)).values.soil_moisture_1_3cm!).toBeCloseTo(theta, 3);

    await completed(ids('marine', live.marineDays));
    const [vhm0] = marineReference({ kind: 'netcdf', file: live.marineFiles.waves, var: 'VHM0', time_index: 0, points: [SEA] });
    const waves = (await store().sample('marine', SEA.lat, SEA.lon, hour, ['wave_height'])).values.wave_height!;
    expect(Math.abs(waves - vhm0!.bilinear_sea!)).toBeLessThanOrEqual(0.01);

    const uvHour = await completed(ids('uv-nrt', live.lsaHours));
    // Now is answered by the newest slot's k, held. The files were made with DSSF = K × Haurwitz clear sky with the
    // Sun where it is when SEVIRI scans each pixel (here 635 s after the slot starts), so k is K wherever it is
    // defined, and missing with the Sun below 5° at that scan; the cells around the point differ by < 0.1° in
    // elevation, hence the band. Dawn, low-sun and midday slots are checked at any hour in uv-nrt-slots.test.ts.
    const newest = new Date(live.lsaHours.find((h) => uvHour.endsWith(runKey(h)))!.getTime() + 45 * 60_000);
    const k = (await store().sample('uv-nrt', LAND.lat, LAND.lon, now.getTime())).values.clear_sky_index ?? null;
    const elevation = sunElevationDeg(new Date(newest.getTime() + 635_000), LAND.lat, LAND.lon);
    if (k === null) expect(elevation, `k missing at ${newest.toISOString()}`).toBeLessThan(5.1);
    else {
      expect(elevation, `k = ${k} at ${newest.toISOString()}`).toBeGreaterThan(4.9);
      expect(Math.abs(k - K)).toBeLessThanOrEqual(0.01);
    }

    // dem: the stored cell nearest the Po-plain point answers GDAL's reading of the TIFF at that cell's centre.
    const demGrid = await waitFor('the dem version', () => store().manifest('dem')?.grid, 60_000);
    if (demGrid.kind !== 'regular_ll') throw new Error('expected a lat/lon dem');
    const cell = { lat: demGrid.y0 + Math.round((LAND.lat - demGrid.y0) / demGrid.dy) * demGrid.dy, lon: demGrid.x0 + Math.round((LAND.lon - demGrid.x0) / demGrid.dx) * demGrid.dx };
    const gdal = Number(execFileSync('gdallocationinfo', ['-valonly', '-wgs84', DEM_TIF(dir), String(cell.lon), String(cell.lat)], { encoding: 'utf8' }).trim());
    expect(Math.abs((await store().sample('dem', cell.lat, cell.lon, null)).values.elevation! - gdal)).toBeLessThanOrEqual(0.1);

    // ozone: CAMS global total column ozone (kg m-2 in the file) stored in DU, against netCDF4-python on the delivered file.
    await completed(ids('ozone', runsNear(now, 24, 600)));
    const ozone = (await store().sample('ozone', LAND.lat, LAND.lon, hour)).values.total_ozone!;
    expect(Math.abs(ozone - camsGlobalOzoneAt(ozoneFile(), LAND.lat, LAND.lon, hour))).toBeLessThanOrEqual(0.1);

    const soilRuns = runsNear(now, 24, 8640);
    await completed(ids('soil', soilRuns));
    const day = soilRuns.find((r) => store().manifest('soil')?.source.run === r.toISOString()) ?? soilRuns[0]!;
    const era5land = join(dir, 'providers', `era5land-${day.toISOString().slice(0, 10).replace(/-/g, '')}.nc`);
    const ref = Number(execFileSync(PY, [join(REPO, 'test/api/fields/soil/fixtures/read_nc_point.py'), era5land, 'swvl2', '1', '44.0', '11.0'], { encoding: 'utf8' }).trim());
    expect(Math.abs((await store().sample('soil', 44.0, 11.0, day.getTime() + H)).values.soil_moisture_7_28cm! - ref)).toBeLessThanOrEqual(0.0006);
  }, 300_000);

  it('weather.php answers every plan for now from fed data, naming ICON-EU while ICON-2I is late and ICON-2I once its run is complete', async () => {
    for (const plan of PLANS) expect((await weather(plan, LAND)).temperature_source).toMatch(/^nwp DWD ICON-EU 2\.2 km /);
    live.hub.publish(live.icon.complete);
    await completed([`nwp@${runKey(live.icon.complete.run)}`]);

    const free = await weather('free', LAND);
    const developer = await weather('developer', LAND);
    const business = await weather('business', LAND);
    for (const b of [free, developer, business]) {
      expect(b.temperature_source).toMatch(/^nwp ICON-2I 2\.2 km /);
      for (const f of FREE_FIELDS) expect(b[f], f).not.toBeNull();
    }
    expect(free.temperature).toBeCloseTo(business.temperature as number, 5);
    // Developer: the indices the model's fields allow, air quality and pollen from the CAMS job: its five
    // concentrations at the valid time against netCDF4-python on the delivered file (0.05 of rounding, 0.05 as above).
    const camsFile = live.camsDelivered.get(store().manifest('cams')!.source.run!.slice(0, 10).replace(/-/g, ''))![0]!;
    const SPECIES = { pm2_5: 'pm2p5_conc', pm10: 'pm10_conc', nitrogen_dioxide: 'no2_conc', ozone: 'o3_conc', sulphur_dioxide: 'so2_conc' };
    for (const b of [developer, business]) {
      for (const f of ['wbgt', 'frost', 'et0', 'pollen']) expect(b[f], `${f} in ${JSON.stringify(b)}`).not.toBeNull();
      const queries = Object.values(SPECIES).map((v) => ({ var: v, lat: LAND.lat, lon: LAND.lon, time: b.valid_time as string }));
      const refs = JSON.parse(execFileSync(PY, [join(REPO, 'test/ingest/products/fixtures/cams_bilinear.py'), JSON.stringify({ file: camsFile, queries })], { encoding: 'utf8' })) as number[];
      const aq = b.air_quality as Record<string, number>;
      Object.keys(SPECIES).forEach((name, i) => expect(Math.abs(aq[name]! - refs[i]!), `${name} ${aq[name]} against ${refs[i]}`).toBeLessThanOrEqual(0.1));
      expect((b.air_quality as { source: string }).source).toBe('cams, CAMS European regional ENSEMBLE 0.1°');
      expect((b.pollen as { source: string }).source).toBe('cams, CAMS European regional ENSEMBLE 0.1°');
    }
    expect(free).not.toHaveProperty('air_quality');
    // The longwave UTCI takes, from ICON-2I's net longwave and ground temperature: L↓ = ATHB_S/ε + σT_G⁴ (ε = 0.98),
    // grib_get at the node and hour.
    const at = ['-l', `${LAND.lat},${LAND.lon},1`];
    const step = (hour - live.icon.complete.run.getTime()) / H;
    const net = grib(['-w', `endStep=${step}`, ...at, live.icon.complete.variables.ATHB_S![0]!.path]);
    const ground = grib(['-w', `step=${step}`, ...at, live.icon.complete.variables.T_G![0]!.path]);
    const longwave = (await store().sample('nwp', LAND.lat, LAND.lon, hour, ['longwave_radiation'])).values.longwave_radiation!;
    expect(Math.abs(longwave - (net / 0.98 + 5.670374419e-8 * ground ** 4))).toBeLessThanOrEqual(0.2);
    // comfort and uv_index for a point 700 m up at the Po-plain node (the altitude correction moves the air
    // temperature and Tmrt's ground term), against ./support/point-reference.ts: the node's values from
    // grib_get, Tmrt (Di Napoli et al. 2020), UTCI_approx (Bröde et al. 2012, checked there on the reference cases),
    // the clear-sky UV index (Madronich 2007) with CAMS global's ozone (netCDF4-python) and the cloud factor of
    // docs/uv.md: LSA SAF's k where it covers now (the files were made with k = K), else ICON-2I's shortwave.
    const k = (await store().sample('uv-nrt', LAND.lat, LAND.lon, now.getTime())).values.clear_sky_index ?? null;
    const aloft = [await weather('developer', LAND, `&alt=${ALT_M}`), await weather('business', LAND, `&alt=${ALT_M}`)];
    const refs = pointComfortUv(live.icon.complete, { ...LAND, altM: ALT_M }, aloft.map((b) => {
      const validMs = Date.parse(b.valid_time as string);
      return { validMs, ozoneDu: camsGlobalOzoneAt(ozoneFile(), LAND.lat, LAND.lon, validMs), satelliteK: k === null ? null : K };
    }));
    aloft.forEach((b, i) => {
      const ref = refs[i]!;
      const sp = ref.spread;
      const what = `${JSON.stringify(ref)} against ${JSON.stringify({ temperature: b.temperature, comfort: b.comfort, uv_index: b.uv_index })}`;
      // Tolerances: the API's rounding to 0.1 (0.05), the store's 0.01 packing of T and Tmrt, and what the Sun's
      // position moves (the fixture's spread: the value with the Sun 0.02° higher and lower; large only near the horizon).
      expect(Math.abs((b.temperature as number) - ref.temperature), what).toBeLessThanOrEqual(0.06);
      const comfort = b.comfort as { value: number; category: string; mean_radiant_temperature: number } | null;
      if (ref.utci === null) expect(comfort, what).toBeNull();
      else if (sp.utci !== null) {
        expect(Math.abs(comfort!.mean_radiant_temperature - ref.tmrt), what).toBeLessThanOrEqual(0.06 + sp.tmrt!);
        expect(Math.abs(comfort!.value - ref.utci), what).toBeLessThanOrEqual(0.07 + sp.utci);
        // The category of the unrounded UTCI, unless that lies within the tolerance of an edge (either side then).
        if (ref.edges.every((e) => Math.abs(ref.utci! - e) > 0.07 + sp.utci!)) expect(comfort!.category, what).toBe(ref.category!.replace(/ /g, '_'));
      }
      const uv = b.uv_index as { value: number; clear_sky: number; cloud_modification: number; source: string };
      expect(uv.source).toMatch(/^clear-sky UV index \(Madronich 2007, CAMS global forecast total ozone\) × /);
      expect(uv.source.includes('LSA SAF'), what).toBe(k !== null);
      expect(Math.abs(uv.clear_sky - ref.uv_clear_sky), what).toBeLessThanOrEqual(0.05 + sp.uv_clear_sky!);
      expect(Math.abs(uv.cloud_modification - ref.cloud_modification), what).toBeLessThanOrEqual(0.005 + sp.cloud_modification!);
      expect(Math.abs(uv.value - ref.uv_index), what).toBeLessThanOrEqual(0.05 + sp.uv_index!);
    });
    // Business: soil for now from ICON-2I's layers: θ = W_SO / 20 kg/m² (1–3 cm) at the node by grib_get, linear
    // between the steps around the valid time; 3 decimals in the answer.
    const soil = business.soil as { source: string; moisture_1_3cm: number };
    expect(soil.source).toBe('nwp-soil, ICON-2I');
    const soilAt = (b: Record<string, unknown>) => {
      const h = (Date.parse(b.valid_time as string) - live.icon.complete.run.getTime()) / H;
      const theta = (s: number) => grib(['-w', `step=${s}`, ...at, live.icon.complete.variables.W_SO![0]!.path]) / 20;
      return (1 - (h - Math.floor(h))) * theta(Math.floor(h)) + (h - Math.floor(h)) * theta(Math.floor(h) + 1);
    };
    expect(Math.abs(soil.moisture_1_3cm - soilAt(business))).toBeLessThanOrEqual(0.0006);
    expect(developer).not.toHaveProperty('soil');
    // The sea from the marine job: VHM0 over the sea cells around the point (netCDF4-python), linear between the
    // hourly fields from the hour now lies in; 2 decimals in the answer, the store's packing (0.01) besides.
    const sea = await weather('business', SEA);
    const coastal = sea.coastal as { wave_height: number; source: string };
    expect(coastal.source).toBe('marine, Copernicus Marine MED (SST L4 NRT, MEDWAM waves, MED physics thetao)');
    const x = (Date.parse(sea.valid_time as string) - hour) / H;
    const [h0, h1] = [0, 1].map((i) => marineReference({ kind: 'netcdf', file: live.marineFiles.waves, var: 'VHM0', time_index: Math.floor(x) + i, points: [SEA] })[0]!.bilinear_sea!);
    expect(Math.abs(coastal.wave_height - ((1 - (x % 1)) * h0! + (x % 1) * h1!))).toBeLessThanOrEqual(0.015);
  }, 180_000);
});
