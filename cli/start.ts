/**
 * `meteopunto start` (what `npm start` runs): on a fresh machine, when
 * $METEOPUNTO_DATA holds no tiles at all, build the labelled SAMPLE dataset
 * through the real ingest path (`meteopunto demo`), print a demo API key,
 * then serve (`meteopunto serve`, same options). The sample covers from a
 * few hours before it was made to 48 hours after: when the data answering
 * "now" is a sample that no longer covers now (/healthz would say 503), start
 * makes a fresh one on the same grids, saying so in one line. Real tiles are
 * never touched: with real data, start is just serve plus the key (and a
 * line when they do not cover now).
 *
 * The demo key (Business plan, so every field shows) is handed over once,
 * when it is created, after the server's start-up lines (./demo-key.ts);
 * it is re-created if it was revoked or the store emptied. The sample's
 * build shows a progress bar and one line (./sample-progress.ts).
 */
import { dataDir } from '../config/paths.js';
import { tileStorage } from '../tiles/storage/open.js';
import type { RegularLatLonGrid } from '../geo/grid.js';
import type { SampleOptions } from '../ingest/sample/build.js';
import type { TileStore } from '../tiles/read/reader.js';
import { announceDemoKey, ensureDemoKey } from './demo-key.js';
import { sampleProgress } from './sample-progress.js';

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('usage: meteopunto start [--port <n>] [--host <h>]\n\nBuilds SAMPLE data when $METEOPUNTO_DATA has no tiles, prints a demo API key, then serves (see meteopunto serve --help).');
    return 0;
  }
  const root = dataDir();
  if ((await prepareData(root)) === 'failed') return 1;
  const sample = await sampleProducts(root);
  if (sample.length > 0) {
    console.log(`\n*** SERVING SAMPLE DATA for ${sample.join(', ')}: synthetic fields, NOT a forecast. Ingest real files with \`meteopunto ingest nwp <file>...\`. ***\n`);
  }
  const key = await ensureDemoKey();
  const api = await import('../api/cli.js');
  return api.run(argv, {
    async onListening(url) {
      const lines = announceDemoKey(key, { url, root, terminal: process.stdout.isTTY === true });
      console.log(`\n${lines.join('\n')}\n`);
    },
  });
}

/** What start did to the data before serving. */
export type Preparation = 'built' | 'refreshed' | 'kept' | 'failed';

/**
 * Before serving: build the sample when there are no tiles; make a fresh one
 * when the sample answering "now" has run out (and no real tiles would be
 * replaced: the rule of `meteopunto demo` without --force); otherwise keep
 * the data, saying so when it does not cover now. `now` and `sample` are for
 * tests (default: the clock, the default sample).
 */
export async function prepareData(root: string, opts: { now?: Date; sample?: Partial<SampleOptions> } = {}): Promise<Preparation> {
  const now = opts.now ?? new Date();
  if ((await publishedProducts(root)).length === 0) {
    console.log(`meteopunto start: no tiles in ${tileStorage(root).location}: building the SAMPLE dataset (synthetic weather over Italy, not a forecast) through the real ingest path...`);
    return (await buildSample(root, { ...opts.sample, now })) ? 'built' : 'failed';
  }
  const { TileStore: Store } = await import('../tiles/read/reader.js');
  const { PublishedProducts } = await import('../api/router/published.js');
  const { healthReasons, nowProduct } = await import('../api/routes/health-reasons.js');
  const { realProducts } = await import('../ingest/sample/cli.js');
  const tiles = new Store(root);
  await tiles.readyAll();
  const published = new PublishedProducts(tiles, 0, () => now.getTime());
  const stale = healthReasons(published, tiles, now.getTime()).find((r) => r.code === 'now_not_covered');
  if (!stale) return 'kept';
  const current = nowProduct(published, tiles, now.getTime());
  if (current?.source.sample !== true || (await realProducts(root)).length > 0) {
    console.log(`meteopunto start: ${stale.message}`);
    return 'kept';
  }
  const { SAMPLE_HOURS_AHEAD } = await import('../ingest/sample/build.js');
  console.log(`meteopunto start: the SAMPLE dataset covers ${current.times[0]} to ${current.times[current.times.length - 1]}, not now: building a fresh one (it lasts ${opts.sample?.hoursAhead ?? SAMPLE_HOURS_AHEAD} hours)...`);
  const grids = sampleGrids(tiles);
  return (await buildSample(root, { ...grids, ...opts.sample, now })) ? 'refreshed' : 'failed';
}

/** The grids of the live sample nwp and dem, so that a fresh sample has the extent and resolution the old one had. */
function sampleGrids(tiles: TileStore): Pick<SampleOptions, 'nwpGrid' | 'demGrid'> {
  const regular = (key: string): RegularLatLonGrid | undefined => {
    const g = tiles.manifest(key)?.grid;
    return g?.kind === 'regular_ll' ? g : undefined;
  };
  const nwpGrid = regular('nwp');
  const demGrid = regular('dem');
  return { ...(nwpGrid ? { nwpGrid } : {}), ...(demGrid ? { demGrid } : {}) };
}

/** Builds the sample with a progress bar and one closing line (./sample-progress.ts). */
async function buildSample(root: string, opts: Partial<SampleOptions>): Promise<boolean> {
  const { buildSampleDataset } = await import('../ingest/sample/build.js');
  const progress = await sampleProgress(process.stdout);
  const t0 = performance.now();
  try {
    const result = await buildSampleDataset({ ...opts, root, onProgress: progress.onProgress });
    progress.finish({ result, elapsedMs: performance.now() - t0 });
    return true;
  } catch (err) {
    progress.finish({ error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

/** Products with a published current.json in the tile storage (a directory or a bucket). */
export async function publishedProducts(root: string): Promise<string[]> {
  const storage = tileStorage(root);
  const { dirs } = await storage.children('');
  const has = await Promise.all(dirs.map(async (d) => (await storage.head(`${d}/current.json`)) !== null));
  return dirs.filter((_, k) => has[k]);
}

async function sampleProducts(root: string): Promise<string[]> {
  const { TileStore } = await import('../tiles/read/reader.js');
  const store = new TileStore(root);
  await store.readyAll();
  return (await publishedProducts(root)).filter((p) => store.manifest(p)?.source.sample === true);
}
