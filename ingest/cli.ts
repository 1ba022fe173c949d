/**
 * `meteopunto ingest <product> <file>... [--model <m>] [--run <ISO>] [--note <text>] [--allow <check>]... [--allow-older-run] [--json] [--quiet]`
 *
 * Runs one ingest inline (no Redis, no queue) into $METEOPUNTO_DATA and
 * prints what it published: version, variables, time range, grid, and the
 * fields it left out with the reason. Exit codes: 0 published, 1 the files
 * could not be ingested (ReadError/IngestError, the ingest gate's refusal
 * among them: the reason is printed on one line, the previously published
 * tiles stay live; a run older than the live one, unless --allow-older-run),
 * 2 bad usage.
 */
import { parseArgs } from 'node:util';
import { dataDir } from '../config/paths.js';
import { ReadError } from './field.js';
import { IngestError, type IngestProgress } from './ingest-types.js';
import { runIngest } from './pipeline.js';
import type { IngestReport } from './ingest-report.js';
import { PRODUCTS } from './products/registry.js';
import { expandZipInputs } from './zip.js';
import { announcePublished, publishedStores } from '../tiles/publish-channel.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';
import { CHECK_NAMES, isCheckName } from './gate/check.js';
import { OlderRunRefused } from '../tiles/write/publish.js';

const USAGE = `usage: meteopunto ingest <product> <file>... [options]

products:
${Object.values(PRODUCTS).map((p, _k, all) => `  ${p.name.padEnd(Math.max(...all.map((q) => q.name.length)))} ${p.summary}`).join('\n')}

options:
  --model <name>   model name recorded in the manifest (e.g. icon-2i)
  --run <ISO>      run time recorded in the manifest (default: the newest reference time in the files)
  --note <text>    free text recorded in the manifest
  --allow <check>  let one ingest gate check through for this ingest, recorded in the manifest
                   (repeatable; checks: ${CHECK_NAMES.join(', ')}; see docs/gate.md)
  --allow-older-run
                   publish even if the run is older than the live run of the same model (the newer
                   run is broken); warns naming both runs, recorded in the manifest (docs/operators.md)
  --json           print the result as JSON
  --quiet          no progress on stderr

Files are read by content (GRIB1/2, NetCDF3, NetCDF4/HDF5, GeoTIFF, or a ZIP of them), not by extension.
The data directory is $METEOPUNTO_DATA (default ./data).`;

export async function run(argv: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args: argv, allowPositionals: true, strict: true,
      options: {
        model: { type: 'string' }, run: { type: 'string' }, note: { type: 'string' }, allow: { type: 'string', multiple: true }, 'allow-older-run': { type: 'boolean', default: false },
        json: { type: 'boolean', default: false }, quiet: { type: 'boolean', default: false }, help: { type: 'boolean', short: 'h', default: false },
      },
    });
  } catch (err) {
    console.error(`meteopunto ingest: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const { values: o, positionals } = parsed;
  if (o.help) {
    console.log(USAGE);
    return 0;
  }
  const [product, ...files] = positionals;
  if (!product || files.length === 0) {
    console.error(`meteopunto ingest: ${product ? 'no input files given' : 'missing <product>'}\n\n${USAGE}`);
    return 2;
  }
  if (!Object.hasOwn(PRODUCTS, product)) {
    console.error(`meteopunto ingest: unknown product '${product}' (known: ${Object.keys(PRODUCTS).join(', ')})`);
    return 2;
  }
  const unknown = (o.allow ?? []).filter((c) => !isCheckName(c));
  if (unknown.length > 0) {
    console.error(`meteopunto ingest: --allow ${unknown[0]}: no such gate check (checks: ${CHECK_NAMES.join(', ')})`);
    return 2;
  }
  if (o['allow-older-run'] && PRODUCTS[product]!.runOrder !== 'forecast') {
    console.error(`meteopunto ingest: --allow-older-run: ${product}'s versions are not ordered by run, nothing to allow`);
    return 2;
  }
  if (o.run !== undefined && !Number.isFinite(Date.parse(o.run))) {
    console.error(`meteopunto ingest: --run must be an ISO 8601 time, got '${o.run}'`);
    return 2;
  }

  const progress = o.quiet ? undefined : await progressReporter();
  const root = dataDir();
  let unzipped: Awaited<ReturnType<typeof expandZipInputs>> | undefined;
  try {
    // A ZIP (the data stores' netcdf_zip) is read as its members, like the ADS source does.
    unzipped = await expandZipInputs(files);
    const report = await runIngest({
      root, product, files: unzipped.files,
      ...(o.allow ? { allow: o.allow } : {}),
      ...(o['allow-older-run'] ? { allowOlderRun: true } : {}),
      ...(progress ? { onProgress: progress.update } : {}),
      source: { ...(o.model ? { model: o.model } : {}), ...(o.run ? { run: new Date(o.run).toISOString() } : {}), ...(o.note ? { note: o.note } : {}) },
    });
    progress?.stop();
    // Loud, and on stderr too, so that it reaches the operator's log even with --json.
    if (report.olderRunOver) console.error(`meteopunto ingest: WARNING: ${olderRunLine(report.olderRunOver)}`);
    console.log(o.json ? JSON.stringify(report, null, 2) : formatReport(report, root));
    await announce(report);
    return 0;
  } catch (err) {
    progress?.stop();
    if (err instanceof ReadError || err instanceof IngestError) {
      // One line: the reason, then what it means for the live tiles.
      console.error(`meteopunto ingest: ${err.message.replace(/\s*\n\s*/g, ' ')} — nothing was published; the previous tiles (if any) stay live.`);
      return 1;
    }
    if (err instanceof OlderRunRefused) {
      console.error(`meteopunto ingest: ${err.message}. If the newer run is broken, publish this one anyway with --allow-older-run.`);
      return 1;
    }
    throw err;
  } finally {
    await unzipped?.cleanup();
  }
}

/** With REDIS_URL, tell the API replicas at once (tiles/publish-channel.ts); a failure only delays them to their manifest check. */
async function announce(report: IngestReport): Promise<void> {
  const redisUrl = setting(processEnv(), 'REDIS_URL');
  if (!redisUrl) return;
  try {
    await announcePublished(redisUrl, publishedStores(report));
  } catch (err) {
    console.error(`meteopunto ingest: published, but the announcement to the API servers failed (${(err as Error).message}); they find the new version at their next manifest check`);
  }
}

/** Human-readable summary of a run. */
export function formatReport(r: IngestReport, root: string): string {
  const lines = [`published ${r.product} version ${r.version} in ${root}`];
  const row = (k: string, v: string) => lines.push(`  ${k.padEnd(10)} ${v}`);
  row('variables', r.variables.join(', '));
  row('times', r.times === 0 ? 'static' : `${r.times} (${r.from} … ${r.to})`);
  row('grid', r.gridDescription);
  row('files', r.files.join(', '));
  for (const d of r.derived ?? []) row('derived', `${d.product} version ${d.version}`);
  for (const p of r.periods ?? []) row('year', `${p.period}: ${p.version}, ${p.times} time(s) ${p.from} … ${p.to}`);
  for (const d of r.dropped) row('dropped', `${d.file}: ${d.source} (${d.variable}) ${d.reason}`);
  if (r.skipped.length > 0) {
    const byReason = new Map<string, string[]>();
    for (const s of r.skipped) byReason.set(s.reason, [...(byReason.get(s.reason) ?? []), s.name]);
    for (const [reason, names] of byReason) row('skipped', `${[...new Set(names)].join(', ')}: ${reason}`);
  }
  for (const n of r.notes) row('note', n);
  if (r.olderRunOver) row('WARNING', olderRunLine(r.olderRunOver));
  for (const o of r.gateOverrides ?? []) row('allowed', `gate check ${o.check}${o.findings.length ? `: ${o.findings.join('; ')}` : ' (it found nothing)'}`);
  return lines.join('\n');
}

/** The override's effect, naming both runs. */
function olderRunLine(o: NonNullable<IngestReport['olderRunOver']>): string {
  return `--allow-older-run: run ${o.run}${o.model ? ` of ${o.model}` : ''} published over the newer run ${o.newerRun} (version ${o.newerVersion}), which is no longer live`;
}

/** Progress on stderr: a bar on a terminal, one line per stage otherwise. */
async function progressReporter(): Promise<{ update: (p: IngestProgress) => void; stop: () => void }> {
  if (process.stderr.isTTY) {
    const { SingleBar, Presets } = (await import('cli-progress')).default;
    const bar = new SingleBar({ format: 'ingest [{bar}] {percentage}% {stage}: {message}', stream: process.stderr, hideCursor: true }, Presets.shades_classic);
    bar.start(100, 0, { stage: 'read', message: '' });
    return {
      update: (p) => bar.update(Math.round(p.fraction * 100), { stage: p.stage, message: p.message ?? '' }),
      stop: () => bar.stop(),
    };
  }
  let last = '';
  return {
    update: (p) => {
      const line = `[${p.stage}] ${p.message ?? ''}`;
      if (line !== last) process.stderr.write(`${line}\n`);
      last = line;
    },
    stop: () => undefined,
  };
}
