/**
 * `meteopunto demo [--now <ISO>] [--keep <dir>] [--force] [--json] [--quiet]`
 *
 * Builds the labelled SAMPLE dataset (synthetic NWP over Italy plus a 1 km
 * DEM) through the real ingest path into $METEOPUNTO_DATA. Refuses to
 * replace real (non-sample) nwp or dem tiles unless --force.
 * Exit codes: 0 built, 1 failed, 2 bad usage or real data present.
 */
import { parseArgs } from 'node:util';
import { dataDir } from '../../config/paths.js';
import { TileStore } from '../../tiles/read/reader.js';
import { formatReport } from '../cli.js';
import { buildSampleDataset, type SampleResult } from './build.js';
import { SAMPLE_STEPS } from './registry.js';

const USAGE = `usage: meteopunto demo [options]

Builds a SAMPLE dataset over Italy (synthetic weather on the real ICON-2I
terrain, ~2.5 km, hourly from a few hours ago to +48 h, plus a ~1 km DEM, and a sample
of every other product) and ingests it through the real path. The data is
labelled as sample everywhere (manifest, /healthz, tiles info). It is NOT a
forecast.

options:
  --now <ISO>    pretend it is this time (default: now); same time, same data
  --keep <dir>   keep the generated NetCDF files in <dir>
  --force        replace real (non-sample) tiles
  --json         print the result as JSON
  --quiet        no progress on stderr

The data directory is $METEOPUNTO_DATA (default ./data).`;

export async function run(argv: string[]): Promise<number> {
  let o;
  try {
    ({ values: o } = parseArgs({
      args: argv, strict: true, allowPositionals: false,
      options: {
        now: { type: 'string' }, keep: { type: 'string' }, force: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false },
      },
    }));
  } catch (err) {
    console.error(`meteopunto demo: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  const now = o.now === undefined ? new Date() : new Date(o.now);
  if (!Number.isFinite(now.getTime())) {
    console.error(`meteopunto demo: --now must be an ISO 8601 time, got '${o.now}'`);
    return 2;
  }
  const root = dataDir();
  const real = await realProducts(root);
  if (real.length > 0 && !o.force) {
    console.error(`meteopunto demo: ${root} already holds real (non-sample) tiles for ${real.join(', ')}; the sample would replace them. Use --force, or another METEOPUNTO_DATA.`);
    return 2;
  }
  const t0 = performance.now();
  try {
    const result = await buildSampleDataset({
      root, now,
      ...(o.keep ? { keepDir: o.keep } : {}),
      ...(o.quiet ? {} : { onProgress: (m: string) => process.stderr.write(`[demo] ${m}\n`) }),
    });
    console.log(o.json ? JSON.stringify(result, null, 2) : formatSample(result, root, performance.now() - t0));
    return 0;
  } catch (err) {
    console.error(`meteopunto demo: ${err instanceof Error ? err.message : String(err)}`);
    return 1;
  }
}

/** Products of the sample whose live version is not sample data. */
export async function realProducts(root: string): Promise<string[]> {
  const store = new TileStore(root);
  await store.readyAll();
  return SAMPLE_STEPS.flatMap((s) => s.stores ?? [s.product]).filter((p) => {
    const m = store.manifest(p);
    return m !== null && !m.source.sample;
  });
}

export function formatSample(r: SampleResult, root: string, elapsedMs: number): string {
  const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;
  const per = Object.entries(r.timingsMs).map(([p, t]) => `${p}: generate ${s(t.generate)} + ingest ${s(t.ingest)}`);
  return [
    '*** SAMPLE DATA: synthetic fields for trying Meteopunto out, NOT a forecast ***',
    `run ${r.run.toISOString()}, built in ${s(elapsedMs)} (${per.join('; ')})`,
    ...Object.values(r.reports).map((report) => formatReport(report, root)),
  ].join('\n');
}
