/**
 * Copernicus Marine original files through the emulator of the Marine Data
 * Store (test/support/emulators/copernicus-marine.ts): the way the toolbox
 * finds them (STAC catalog → product → dataset item → its native asset → S3
 * listing, paged), then a marine ingest job fetching the day's MED SST L4
 * NRT file from the native path with the HTTP source, through a 503 with
 * Retry-After retried in place, answering netCDF4-python's value. The file
 * served is the real MED SST L4 (reprocessed) file of ../shared/data under
 * the NRT dataset's name.
 */
import { rmSync } from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runIngest } from '../../ingest/pipeline.js';
import { parseJobsConfig } from '../../jobs/config.js';
import { configuredIngestJob } from '../../jobs/ingest-job.js';
import type { JobProgressInfo } from '../../jobs/job-types.js';
import { createIngestProcessor } from '../../jobs/processors/ingest.js';
import { TileStore } from '../../tiles/read/reader.js';
import { marineReference, SST_FILE, SST_TIME } from '../ingest/products/marine-reference.js';
import { medDatasets, startMarineEmulator, type MarineEmulator } from '../support/emulators/copernicus-marine.js';
import { describeShared } from '../support/shared-data.js';
import { tempRoot } from './support/harness.js';

const SST_NAME = '{yyyymmdd}000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc';

describeShared('Copernicus Marine original files (emulated Marine Data Store)', () => {
  let cm: MarineEmulator;
  const datasets = medDatasets({ sst: [{ key: `2025/07/${SST_NAME.replace('{yyyymmdd}', '20250709')}`, path: SST_FILE }] });
  const root = tempRoot('marine-src');

  beforeAll(async () => {
    cm = await startMarineEmulator({ datasets });
  });
  afterAll(async () => {
    await cm.close();
    rmSync(root, { recursive: true, force: true });
  });

  const getJson = async (url: string) => (await fetch(url)).json() as Promise<{ links: { rel: string; href: string }[]; assets?: Record<string, { href: string; roles: string[] }> }>;

  it('the toolbox’s way in: catalog → product → item → native asset → a paged S3 listing → the object', async () => {
    const catalog = await getJson(`${cm.stac}/catalog.stac.json`);
    const child = catalog.links.find((l) => l.rel === 'child' && l.href.startsWith('SST_MED_SST_L4_NRT_OBSERVATIONS_010_004/'))!;
    const product = await getJson(`${cm.stac}/${child.href}`);
    const item = product.links.find((l) => l.rel === 'item')!;
    // The toolbox joins the STAC root, the collection id and the item's href.
    const dataset = await getJson(`${cm.stac}/SST_MED_SST_L4_NRT_OBSERVATIONS_010_004/${item.href}`);
    const native = dataset.assets!.native!;
    expect(native.roles).toContain('data');
    expect(native.href).toBe(cm.nativeUrl(datasets[0]!));
    const [, bucket, prefix] = /^https?:\/\/[^/]+\/([^/]+)\/(.*)$/.exec(native.href)!;
    const list = await (await fetch(`${cm.origin}/${bucket}?list-type=2&prefix=${encodeURIComponent(`${prefix}/2025/`)}&max-keys=1`)).text();
    expect(list).toContain(`<Key>${prefix}/2025/07/20250709000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc</Key>`);
    expect(list).toContain('<IsTruncated>false</IsTruncated>');
    const head = await fetch(`${native.href}/2025/07/20250709000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('etag')).toMatch(/^"[0-9a-f]{32}"$/);
    expect((await fetch(`${cm.origin}/${bucket}/${prefix}/2025/07/missing.nc`)).status).toBe(404);
  });

  it('a marine job fetches the day’s SST file from the native path through a 503 with Retry-After, and answers netCDF4-python’s value', async () => {
    const config = parseJobsConfig({
      products: {
        marine: {
          run: { cycleHours: 24, availableAfterMinutes: 0 },
          model: 'Copernicus Marine MED SST L4 NRT (emulated)',
          source: { kind: 'http', urls: [`${cm.nativeUrl(datasets[0]!)}/{yyyy}/{mm}/${SST_NAME}`], maxWaitSeconds: 30, retryInPlace: { firstDelaySeconds: 0.05 } },
        },
      },
    }, 'jobs.json');
    const { id, data } = configuredIngestJob(root, 'marine', config.products.marine!, { run: new Date(SST_TIME), now: new Date(), trigger: 'operator' });
    const object = new URL((data.source as { files: { url: string }[] }).files[0]!.url).pathname;
    cm.failNext(object, 1, 503, '1');
    const seen = cm.requests.length;
    const progress: JobProgressInfo[] = [];
    const processIngest = createIngestProcessor({ root, runIngest });
    const result = await processIngest({ id, data, attemptsMade: 0, opts: { attempts: 3 }, updateProgress: async (p) => void progress.push(p as unknown as JobProgressInfo) });
    expect(result).toMatchObject({ product: 'marine', files: ['20250709000000-GOS-L4_GHRSST-SSTfnd-OISST_HR_NRT-MED-v02.0-fv03.0.nc'] });
    const tries = cm.requests.slice(seen).filter((r) => r.path === object);
    expect(tries.map((r) => r.status)).toEqual([503, 200]);
    expect(tries[1]!.at - tries[0]!.at).toBeGreaterThanOrEqual(1000);
    // An open-sea point of the Tyrrhenian, all four neighbours sea.
    const [ref] = marineReference({ kind: 'netcdf', file: SST_FILE, var: 'analysed_sst', points: [{ lat: 40.0, lon: 12.0 }] });
    expect(ref!.sea.every(Boolean)).toBe(true);
    const got = (await new TileStore(root, { manifestCheckMs: 0 }).sample('marine', 40.0, 12.0, Date.parse(SST_TIME), ['sea_surface_temperature'])).values.sea_surface_temperature!;
    expect(Math.abs(got - ref!.bilinear_sea!)).toBeLessThanOrEqual(0.02);
  });
});
