/**
 * Publish announcements over Redis pub/sub (tiles/publish-channel.ts), with
 * the suite's real Redis: `meteopunto ingest` run as its own process (the
 * real IFS GRIB2 of ../shared/data ingested as nwp) announces what it
 * published, and a reader in this process — whose manifest check waits an
 * hour — stages, warms and switches to it at once; without the subscription
 * the same reader stays on the old version. With Redis absent the ingest
 * still publishes (saying the announcement failed) and a reader checking
 * current.json every 200 ms finds the version by itself. And `meteopunto
 * serve` with REDIS_URL, sent no request at all after the publish (so its
 * manifest check never runs), warms and switches on the announcement alone.
 */
import { afterAll, expect, inject, it } from 'vitest';
import { readManifestSync } from '../../tiles/manifest-file.js';
import { followPublished, publishedStores, type PublishFollower } from '../../tiles/publish-channel.js';
import { TileStore } from '../../tiles/read/reader.js';
import type { WarmReport } from '../../tiles/read/warm.js';
import { productDir } from '../../config/paths.js';
import { freePort } from '../support/redis-server.js';
import { dataFile, describeShared } from '../support/shared-data.js';
import { runCli, startApiProcess } from '../api/access/fixtures/api-process.js';
import { tempRoot } from './temp-root.js';

const GRIB = () => dataFile('ifs-hres-t2m-italy/alternate-scanning.grib');
const ALL = (m: { variables: Record<string, unknown> }) => Object.keys(m.variables);
const followers: PublishFollower[] = [];
afterAll(async () => {
  for (const f of followers) await f.close();
});

async function ingest(root: string, redisUrl: string | undefined): Promise<{ code: number; stderr: string; version: string }> {
  const env: NodeJS.ProcessEnv = { METEOPUNTO_DATA: root, REDIS_URL: redisUrl ?? '' };
  const r = await runCli(['ingest', 'nwp', GRIB(), '--quiet'], env);
  return { ...r, version: readManifestSync(productDir(root, 'nwp'))!.version };
}

/** Polls `pin` until it names `version` or `ms` pass; the version live at the end. */
async function liveAfter(tiles: TileStore, version: string, ms: number): Promise<string> {
  const end = Date.now() + ms;
  while (Date.now() < end && tiles.pin('nwp')?.version !== version) await new Promise((r) => setTimeout(r, 50));
  return tiles.pin('nwp')!.version;
}

it('names the stores a run published: its product and derived ones, or its periods', () => {
  expect(publishedStores({ product: 'nwp', derived: [{ product: 'sm100' }] })).toEqual(['nwp', 'sm100']);
  expect(publishedStores({ product: 'reanalysis', periods: [{ period: '1950' }, { period: '1951' }] })).toEqual(['reanalysis/1950', 'reanalysis/1951']);
});

describeShared('publish announcements', () => {
  it('an announced publish makes another process switch at once; without the subscription it does not', async () => {
    const redisUrl = inject('redisUrl');
    const root = tempRoot('announce');
    const first = await ingest(root, undefined);
    expect(first.code).toBe(0);

    const reports: WarmReport[] = [];
    const subscribed = new TileStore(root, { manifestCheckMs: 3_600_000, warm: ALL, onWarm: (r) => reports.push(r) });
    const unsubscribed = new TileStore(root, { manifestCheckMs: 3_600_000, warm: ALL });
    await subscribed.warmLive(['nwp']);
    await unsubscribed.warmLive(['nwp']);
    const f = followPublished(redisUrl, (stores) => subscribed.refresh(stores));
    followers.push(f);
    await f.ready;

    const second = await ingest(root, redisUrl);
    expect(second.code, second.stderr).toBe(0);
    expect(second.stderr).not.toMatch(/announcement/);
    expect(second.version).not.toBe(first.version);
    expect(await liveAfter(subscribed, second.version, 30_000)).toBe(second.version);
    expect(reports.at(-1)).toEqual(expect.objectContaining({ key: 'nwp', version: second.version, switched: true }));
    // The reader that only checks current.json (hourly here) still answers from the first version.
    expect(unsubscribed.pin('nwp')!.version).toBe(first.version);
  }, 120_000);

  it('Redis absent: the ingest publishes and says the announcement failed; the manifest check finds the version', async () => {
    const root = tempRoot('announce-none');
    const first = await ingest(root, undefined);
    const tiles = new TileStore(root, { manifestCheckMs: 200, warm: ALL });
    await tiles.warmLive(['nwp']);
    expect(tiles.pin('nwp')!.version).toBe(first.version);
    const second = await ingest(root, `redis://127.0.0.1:${await freePort()}`);
    expect(second.code).toBe(0);
    expect(second.stderr).toMatch(/published, but the announcement to the API servers failed .*next manifest check/);
    expect(await liveAfter(tiles, second.version, 30_000)).toBe(second.version);
  }, 120_000);

  it('meteopunto serve with REDIS_URL switches on the announcement alone, no request sent', async () => {
    const redisUrl = inject('redisUrl');
    const root = tempRoot('announce-serve');
    const first = await ingest(root, undefined);
    const api = await startApiProcess({ METEOPUNTO_DATA: root, REDIS_URL: redisUrl, METEOPUNTO_LOG_FORMAT: 'json' });
    try {
      const until = async (re: RegExp, ms: number) => {
        const end = Date.now() + ms;
        while (Date.now() < end && !re.test(api.output())) await new Promise((r) => setTimeout(r, 100));
        return re.test(api.output());
      };
      expect(await until(/tile cache warm: ready/, 60_000), api.output()).toBe(true);
      expect((await (await fetch(`${api.url}/healthz`)).json()).products.nwp.version).toBe(first.version);
      const second = await ingest(root, redisUrl);
      expect(second.code, second.stderr).toBe(0);
      expect(await until(new RegExp(`"version":"${second.version.replace(/\./g, '\\.')}"[^\n]*new version warm: switched to it`), 30_000), api.output()).toBe(true);
      expect((await (await fetch(`${api.url}/healthz`)).json()).products.nwp.version).toBe(second.version);
    } finally {
      await api.stop();
    }
  }, 180_000);
});
