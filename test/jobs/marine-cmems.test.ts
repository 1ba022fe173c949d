/**
 * Marine feeds from Copernicus Marine, end to end on the emulated Marine Data
 * Store (test/support/emulators/copernicus-marine.ts): the example schedule
 * jobs/examples/marine-cmems.jobs.json (loaded through the real config
 * schema, its STAC root pointed at the emulator) lists each dataset the way
 * the toolbox does (STAC collection → newest dataset version → native asset
 * → S3 ListObjectsV2 of the months wanted) and fetches the newest files: the
 * MED SST L4 NRT file of the newest day (the real file of ../shared/data
 * under its NRT name), the MEDWAM wave file of the run's day from its newest
 * bulletin, the MED physics (thetao) file; older days, older bulletins and
 * other months are listed but not fetched. The job ingests them and the
 * store answers netCDF4-python's values.
 */
import { execFileSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { loadJobsConfig } from '../../jobs/config.js';
import { configuredIngestJob } from '../../jobs/ingest-job.js';
import { createIngestProcessor } from '../../jobs/processors/ingest.js';
import { selectFiles } from '../../jobs/sources/copernicus-marine.js';
import { TileStore } from '../../tiles/read/reader.js';
import { marineReference, SST_FILE, SST_TIME } from '../ingest/products/marine-reference.js';
import { medDatasets, startMarineEmulator, type MarineEmulator } from '../support/emulators/copernicus-marine.js';
import { describeShared } from '../support/shared-data.js';
import { tempRoot } from './support/harness.js';

const EXAMPLE = resolve(import.meta.dirname, '../../jobs/examples/marine-cmems.jobs.json');
const REPO = resolve(import.meta.dirname, '../..');
const SST = (d: string) => `${d.slice(0, 4)}/${d.slice(4, 6)}/${d}000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc`;
const WAVES_OLD = '2025/07/2025070900_h-HCMR--WAVE-MEDWAM4-MEDATL-b20250708_fc00-sv10.00.nc';
const WAVES_NEW = '2025/07/2025070900_h-HCMR--WAVE-MEDWAM4-MEDATL-b20250709_an00-sv10.00.nc';
const WAVES_JUNE = '2025/06/2025063000_h-HCMR--WAVE-MEDWAM4-MEDATL-b20250630_an00-sv10.00.nc';
const PHYSICS = '2025/07/20250709_2dh-CMCC--TEMP-MFSeas10-MEDATL-b20250709_fc-sv11.00.nc';

describeShared('marine feeds from Copernicus Marine (emulated Marine Data Store)', () => {
  let cm: MarineEmulator;
  const root = tempRoot('marine-cmems');
  const waves = join(root, 'waves.nc');
  const physics = join(root, 'physics.nc');
  const start = String(Date.parse(SST_TIME) / 1000);

  beforeAll(async () => {
    execFileSync('/usr/bin/python3', [join(REPO, 'test/api/fields/coastal/fixtures/make_medsea_waves.py'), waves, start]);
    execFileSync('/usr/bin/python3', [join(REPO, 'test/ingest/products/fixtures/make_med_thetao.py'), physics, start]);
    cm = await startMarineEmulator({
      datasets: medDatasets({
        sst: [{ key: SST('20250708'), path: SST_FILE }, { key: SST('20250709'), path: SST_FILE }],
        waves: [WAVES_JUNE, WAVES_OLD, WAVES_NEW].map((key) => ({ key, path: waves })),
        physics: [{ key: PHYSICS, path: physics }],
      }),
    });
  }, 120_000);
  afterAll(async () => {
    await cm.close();
    rmSync(root, { recursive: true, force: true });
  });

  it('the example runs daily after the MED bulletins and asks for the newest SST day and three days of waves and physics', async () => {
    const config = await loadJobsConfig(root, { METEOPUNTO_JOBS_CONFIG: EXAMPLE });
    const { id, data } = configuredIngestJob(root, 'marine', config.products.marine!, { now: new Date('2026-07-09T14:30:00Z'), trigger: 'schedule' });
    expect(id).toBe('marine@2026-07-09T00Z');
    if (data.source.kind !== 'copernicus-marine') throw new Error('expected copernicus-marine');
    expect(data.source.stac).toBe('https://stac.marine.copernicus.eu/metadata');
    expect(data.source.datasets.map((d) => [d.dataset, d.daysBack, d.daysAhead, d.latest])).toEqual([
      ['SST_MED_SST_L4_NRT_OBSERVATIONS_010_004_a_V2', 2, 0, 1],
      ['cmems_mod_med_wav_anfc_4.2km_PT1H-i', 0, 3, undefined],
      ['cmems_mod_med_phy-tem_anfc_4.2km-2D_PT1H-m', 0, 3, undefined],
    ]);
    // No credential anywhere: the native files are read anonymously, as the toolbox does.
    expect(JSON.stringify(data)).not.toMatch(/password|token|key/i);
  });

  it('selection: dated names in the window, newest bulletin per date, the newest `latest` dates', () => {
    const run = new Date('2025-07-10T00:00:00Z');
    const u = (k: string) => `http://s3/b/${k}`;
    const sst = [SST('20250707'), SST('20250708'), SST('20250709'), SST('20250711'), 'README.txt'].map(u);
    expect(selectFiles(sst, run, { daysBack: 2, daysAhead: 0, latest: 1 })).toEqual([u(SST('20250709'))]);
    expect(selectFiles(sst, run, { daysBack: 1, daysAhead: 1 })).toEqual([u(SST('20250709')), u(SST('20250711'))]);
    // Two bulletins of one day, listed in either order: the newer one.
    for (const waves of [[WAVES_OLD, WAVES_NEW], [WAVES_NEW, WAVES_OLD]]) expect(selectFiles(waves.map(u), run, { daysBack: 1, daysAhead: 0 })).toEqual([u(WAVES_NEW)]);
  });

  it('a job lists each dataset through STAC and S3 (through a 503 on a listing), fetches only the newest files, ingests them and answers netCDF4-python’s values', async () => {
    const config = await loadJobsConfig(root, { METEOPUNTO_JOBS_CONFIG: EXAMPLE });
    const cfg = config.products.marine!;
    if (cfg.source.kind !== 'copernicus-marine') throw new Error('expected copernicus-marine');
    // The STAC root is one setting: the emulator stands in for the Marine Data Store.
    const local = { ...cfg, source: { ...cfg.source, stac: cm.stac, retryInPlace: { firstDelaySeconds: 0.05 } } };
    const { id, data } = configuredIngestJob(root, 'marine', local, { run: new Date(SST_TIME), now: new Date(), trigger: 'operator' });
    cm.failNext('/mdl-native-13', 1, 503, '1');
    const seen = cm.requests.length;
    const processIngest = createIngestProcessor({ root, runIngest });
    const result = await processIngest({ id, data, attemptsMade: 0, opts: { attempts: 1 }, updateProgress: async () => undefined });
    expect(result).toMatchObject({ product: 'marine' });
    const mine = cm.requests.slice(seen);
    const objects = mine.filter((r) => r.method === 'GET' && r.path.endsWith('.nc')).map((r) => r.path.split('/').slice(-1)[0]).sort();
    expect(objects).toEqual([PHYSICS, SST('20250709'), WAVES_NEW].map((k) => k.split('/').pop()).sort());
    expect(mine.some((r) => r.status === 503)).toBe(true);
    expect(mine.filter((r) => r.path.endsWith('dataset.stac.json')).length).toBe(3);

    const store = new TileStore(root, { manifestCheckMs: 0 });
    const points = [{ lat: 44.12, lon: 12.7 }, { lat: 43.9, lon: 13.3 }];
    const sst = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', points });
    const vhm0 = marineReference({ kind: 'netcdf', file: waves, var: 'VHM0', time_index: 0, points });
    for (const [k, p] of points.entries()) {
      const v = (await store.sample('marine', p.lat, p.lon, Date.parse(SST_TIME), ['sea_surface_temperature', 'wave_height'])).values;
      expect(Math.abs(v.sea_surface_temperature! - sst[k]!.bilinear_sea!), `${p.lat}, ${p.lon}`).toBeLessThanOrEqual(0.02);
      expect(Math.abs(v.wave_height! - vhm0[k]!.bilinear_sea!), `${p.lat}, ${p.lon}`).toBeLessThanOrEqual(0.01);
    }
  });

  it('a day with no file yet is NOT_PUBLISHED (retried later), naming the dataset and the days looked for', async () => {
    const config = await loadJobsConfig(root, { METEOPUNTO_JOBS_CONFIG: EXAMPLE });
    const cfg = config.products.marine!;
    if (cfg.source.kind !== 'copernicus-marine') throw new Error('expected copernicus-marine');
    const local = { ...cfg, source: { ...cfg.source, stac: cm.stac } };
    const { id, data } = configuredIngestJob(root, 'marine', local, { run: new Date('2025-08-20T00:00:00Z'), now: new Date(), trigger: 'operator' });
    const processIngest = createIngestProcessor({ root, runIngest });
    const err = (await processIngest({ id, data, attemptsMade: 0, opts: { attempts: 3 }, updateProgress: async () => undefined }).then(() => new Error('expected a failure'), (e: unknown) => e)) as Error & { name: string };
    expect(err.message).toMatch(/SST_MED_SST_L4_NRT_OBSERVATIONS_010_004_a_V2: no file dated 2025-08-18\.\.2025-08-20 under http:\/\/127\.0\.0\.1:\d+\/mdl-native-12\/native\/SST_MED_SST_L4_NRT_OBSERVATIONS_010_004\/SST_MED_SST_L4_NRT_OBSERVATIONS_010_004_a_V2_202311/);
    expect(err.name).not.toBe('UnrecoverableError');
  });
});
