/**
 * Reanalysis section of `npm run bench` (history at speed): one year of
 * hourly Italy at 0.25° in the ERA5 CDS NetCDF layout (./era5-year.ts: 12
 * monthly NetCDF4 files, int16 packed like the CDS delivers them), then:
 *
 * - `meteopunto ingest reanalysis` of the 12 files in a child process
 *   (./reanalysis-ingest.ts): seconds and peak resident set, against
 *   {@link INGEST_SECONDS_TARGET} and {@link INGEST_RSS_TARGET_BYTES};
 * - `time=` across the year at the default cache, warm and cold lookups
 *   (./time-requests.ts).
 *
 * BENCH_REANALYSIS_DAYS (default 365) shortens the year for a quick check
 * (the targets are for a whole year); BENCH_REANALYSIS_DATA names a data
 * directory where that year is already ingested (`node
 * dist/bench/reanalysis-ingest.js <dir> <files>` of ./era5-year.ts's files):
 * the ingest is then not measured, only `time=`. Run it alone:
 * `BENCH_SECTIONS=reanalysis node dist/bench/run.js`.
 */
import { mkdirSync, mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { processEnv } from '../config/process-env.js';
import { integerSetting, setting } from '../config/environment.js';
import { NX, NY, VARS, YEAR, writeEra5Year } from './era5-year.js';
import { ingestInChild } from './reanalysis-ingest.js';
import type { BenchContext } from './section.js';
import { measureTimeRequests } from './time-requests.js';

/** One ERA5 year of Italy, hourly, on the 2-core machine. */
export const INGEST_SECONDS_TARGET = 60;
export const INGEST_RSS_TARGET_BYTES = 1024 ** 3;
const MIB = 2 ** 20;

function dirBytes(dir: string): number {
  let n = 0;
  for (const e of readdirSync(dir, { withFileTypes: true })) n += e.isDirectory() ? dirBytes(join(dir, e.name)) : statSync(join(dir, e.name)).size;
  return n;
}

export async function runReanalysisSection(ctx: Pick<BenchContext, 'checks'>): Promise<void> {
  const env = processEnv();
  const days = integerSetting(env, 'BENCH_REANALYSIS_DAYS', 365);
  const requests = integerSetting(env, 'BENCH_TIME_REQUESTS', 5000);
  const given = setting(env, 'BENCH_REANALYSIS_DATA');
  if (given !== undefined) {
    console.log(`reanalysis bench: the year already ingested under ${given} (BENCH_REANALYSIS_DATA): no ingest measured`);
    await measureTimeRequests(given, days, requests, ctx.checks);
    return;
  }
  const work = mkdtempSync(join(tmpdir(), 'mp-bench-rean-'));
  try {
    const inputs = join(work, 'inputs');
    mkdirSync(inputs);
    let t = performance.now();
    const files = await writeEra5Year(inputs, days);
    console.log(`reanalysis bench: ${files.length} ERA5-layout NetCDF4 files, ${days} days hourly, ${NX}×${NY} cells at 0.25°, ${VARS.length} variables + z, written in ${((performance.now() - t) / 1000).toFixed(1)} s (${(dirBytes(inputs) / MIB).toFixed(0)} MiB)`);
    const root = join(work, 'data');
    const ing = await ingestInChild(root, files);
    const store = dirBytes(join(root, 'tiles', 'reanalysis', String(YEAR)));
    console.log(`  ingest reanalysis (child process): ${ing.seconds.toFixed(1)} s (CPU ${ing.cpuSeconds.toFixed(1)} s${ing.mainThreadCpuSeconds !== null ? `, main thread ${ing.mainThreadCpuSeconds.toFixed(1)} s` : ''}, load ${loadavg()[0]!.toFixed(1)}), peak RSS ${(ing.peakRssBytes / MIB).toFixed(0)} MiB, for ${ing.times} steps × ${ing.variables} variables; store ${(store / MIB).toFixed(1)} MiB`);
    const whole = days >= 365 ? '' : ` (${days} days, not a whole year)`;
    ctx.checks.push(
      { what: `ERA5 year ingest, seconds${whole}`, measured: ing.seconds.toFixed(1), target: `≤ ${INGEST_SECONDS_TARGET}`, pass: ing.seconds <= INGEST_SECONDS_TARGET },
      { what: `ERA5 year ingest, peak RSS MiB${whole}`, measured: (ing.peakRssBytes / MIB).toFixed(0), target: `≤ ${INGEST_RSS_TARGET_BYTES / MIB}`, pass: ing.peakRssBytes <= INGEST_RSS_TARGET_BYTES },
    );

    await measureTimeRequests(root, days, requests, ctx.checks);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}
