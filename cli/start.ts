/**
 * `meteopunto start` (what `npm start` runs): on a fresh machine, when
 * $METEOPUNTO_DATA holds no tiles at all, build the labelled SAMPLE dataset
 * through the real ingest path (`meteopunto demo`), print a demo API key,
 * then serve (`meteopunto serve`, same options). Existing tiles are never
 * touched: with real data, start is just serve plus the key.
 *
 * The demo key is kept in clear in $METEOPUNTO_DATA/demo-key.txt (mode 600)
 * so that every start can print it; the key store itself only holds its
 * hash. It is re-created if it was revoked or the store was emptied.
 */
import { readdirSync, existsSync } from 'node:fs';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { dataDir, tilesDir } from '../config/paths.js';

const DEMO_KEY_FILE = 'demo-key.txt';
const DEMO_KEY_PLAN = 'business';

export async function run(argv: string[]): Promise<number> {
  if (argv.includes('--help') || argv.includes('-h')) {
    console.log('usage: meteopunto start [--port <n>] [--host <h>]\n\nBuilds SAMPLE data when $METEOPUNTO_DATA has no tiles, prints a demo API key, then serves (see meteopunto serve --help).');
    return 0;
  }
  const root = dataDir();
  if (publishedProducts(root).length === 0) {
    console.log(`meteopunto start: no tiles in ${root}: building the SAMPLE dataset (synthetic weather over Italy, not a forecast) through the real ingest path...`);
    const { buildSampleDataset } = await import('../ingest/sample/build.js');
    const { formatSample } = await import('../ingest/sample/cli.js');
    const t0 = performance.now();
    try {
      const r = await buildSampleDataset({ root, onProgress: (m) => console.log(`  ${m}`) });
      console.log(formatSample(r, root, performance.now() - t0));
    } catch (err) {
      console.error(`meteopunto start: building the sample data failed: ${err instanceof Error ? err.message : String(err)}`);
      return 1;
    }
  }
  const sample = await sampleProducts(root);
  if (sample.length > 0) {
    console.log(`\n*** SERVING SAMPLE DATA for ${sample.join(', ')}: synthetic fields, NOT a forecast. Ingest real files with \`meteopunto ingest nwp <file>...\`. ***\n`);
  }
  await printDemoKey(root);
  const api = await import('../api/cli.js');
  return api.run(argv);
}

/** Products with a published current.json under tiles/. */
export function publishedProducts(root: string): string[] {
  const dir = tilesDir(root);
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(dir, d.name, 'current.json')))
    .map((d) => d.name);
}

async function sampleProducts(root: string): Promise<string[]> {
  const { TileStore } = await import('../tiles/reader.js');
  const store = new TileStore(root);
  return publishedProducts(root).filter((p) => store.manifest(p)?.source.sample === true);
}

/**
 * Print a working demo key: the one in demo-key.txt when the store still
 * accepts it, else a new one. Skipped (with a note) when the access layer
 * is missing or its store cannot be reached.
 */
async function printDemoKey(root: string): Promise<void> {
  try {
    const { createAccessServices } = await import('../api/access/services.js');
    const { generateKey, hashMatches, prefixOf } = await import('../api/access/key-format.js');
    const services = await createAccessServices();
    try {
      const file = join(root, DEMO_KEY_FILE);
      const saved = existsSync(file) ? (await readFile(file, 'utf8')).trim() : '';
      const prefix = saved ? prefixOf(saved) : null;
      const record = prefix ? await services.keys.get(prefix) : null;
      if (record && !record.revoked && hashMatches(saved, record.hash)) {
        console.log(`demo API key (${record.plan} plan, from ${file}): ${saved}`);
        return;
      }
      for (let attempt = 0; attempt < 5; attempt++) {
        const k = generateKey();
        const ok = await services.keys.insert({ prefix: k.prefix, hash: k.hash, plan: DEMO_KEY_PLAN, kind: 'api', name: 'demo key (npm start)', created: new Date().toISOString() });
        if (!ok) continue;
        await writeFile(file, `${k.key}\n`, { mode: 0o600 });
        await chmod(file, 0o600);
        console.log(`demo API key (${DEMO_KEY_PLAN} plan, new, saved in ${file}): ${k.key}`);
        console.log(`try: curl 'http://127.0.0.1:${process.env.PORT || 8080}/api/v1/weather.php?lat=41.9&lon=12.5' -H 'X-API-Key: ${k.key}'`);
        return;
      }
    } finally {
      await services.close();
    }
  } catch (err) {
    console.log(`(no demo key: ${err instanceof Error ? err.message : String(err)}; create one with \`meteopunto keys create --plan free\`)`);
  }
}
