/**
 * kill -9 during ingest, again and again: `meteopunto ingest nwp` on a real
 * file (ERA5-Land daily, 4 variables × 61 days) is SIGKILLed at seeded random
 * moments across its run. After every kill the live version must be complete
 * (`verifyVersion`: every chunk decodes and matches the checksums written at
 * publish) and give the value netCDF4-python reads from the file; once a run
 * completes, the temp dirs of the killed writers are gone and retired
 * versions stay within their bound. Figures are in docs/reliability.md.
 */
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { mulberry32 } from '../../../bench/prng.js';
import { MAX_RETIRED, MIN_RETIRED_MS } from '../../../tiles/ops/gc.js';
import { retiredMarker, TEMP_PREFIX } from '../../../tiles/layout.js';
import { readManifestSync } from '../../../tiles/manifest-file.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { verifyVersion } from '../../../tiles/ops/verify.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const ROOT = resolve(import.meta.dirname, '../../..');
const FILE = dataFile('era5land-italy-daily/weather_italy_era5land_daily_2023-11_12.nc');
const KILLS = 12;
// A grid node of the file (0.2° grid from 48 N, 7.2 E): time index 5 = 2023-11-06.
const LAT = 45;
const LON = 9;
// Noon of 6 Nov 2023, inside the day of record 5 (a daily record is the mean over the day it is labelled with).
const TIME = Date.UTC(2023, 10, 6, 12);

function reference(): number {
  const py = `import netCDF4; d = netCDF4.Dataset(${JSON.stringify(FILE)}); print(float(d['t2m'][5, 15, 9]))`;
  const r = spawnSync('/usr/bin/python3', ['-c', py], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`netCDF4-python failed: ${r.stderr}`);
  return Number(r.stdout.trim());
}

/**
 * Runs an ingest; kills it `killAfterMs` after it starts reading (undefined:
 * lets it finish). Returns the last stage it printed, how it ended, and how
 * long it ran from the start of reading.
 */
function ingest(data: string, killAfterMs?: number): Promise<{ stage: string; code: number | null; signal: string | null; ms: number }> {
  let t0 = NaN;
  let timer: NodeJS.Timeout | undefined;
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'ingest', 'nwp', FILE], {
    cwd: ROOT, env: { ...process.env, METEOPUNTO_DATA: data, REDIS_URL: '' }, stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stage = 'start';
  child.stderr.on('data', (b: Buffer) => {
    for (const m of b.toString().matchAll(/^\[(\w+)\]/gm)) {
      stage = m[1]!;
      if (stage === 'read' && Number.isNaN(t0)) {
        t0 = performance.now();
        if (killAfterMs !== undefined) timer = setTimeout(() => child.kill('SIGKILL'), killAfterMs);
      }
    }
  });
  return new Promise((ok) =>
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      ok({ stage, code, signal, ms: performance.now() - t0 });
    }),
  );
}

async function assertLiveComplete(data: string, expected: number): Promise<void> {
  const productDir = join(data, 'tiles', 'nwp');
  const manifest = readManifestSync(productDir);
  expect(manifest, 'current.json names a version').not.toBeNull();
  const report = await verifyVersion(join(productDir, manifest!.version), manifest);
  expect(report.failures).toEqual([]);
  expect(report.checksummed).toBe(true);
  const sample = await new TileStore(data).sample('nwp', LAT, LON, TIME, ['temperature_2m']);
  expect(sample.values.temperature_2m).toBeCloseTo(expected, 1);
}

describeShared('ingest killed with SIGKILL, repeatedly', () => {
  let data: string;
  afterAll(async () => {
    if (data) await rm(data, { recursive: true, force: true });
  });

  it(`never loses the live version in ${KILLS} kills, and the next publish cleans up`, async () => {
    data = await mkdtemp(join(tmpdir(), 'mp-kill-'));
    const expected = reference();
    const first = await ingest(data);
    expect(first.code).toBe(0);
    await assertLiveComplete(data, expected);

    const random = mulberry32(20261125);
    const stages: Record<string, number> = {};
    const productDir = join(data, 'tiles', 'nwp');
    const temps = () => readdirSync(productDir).filter((n) => n.startsWith(TEMP_PREFIX));
    let mostLeftovers = 0;
    for (let i = 0; i < KILLS; i++) {
      // Spread the kills from the start of reading to just past the publish of an uninterrupted run.
      const run = await ingest(data, Math.round(random() * first.ms * 1.05));
      stages[run.signal ? run.stage : 'finished'] = (stages[run.signal ? run.stage : 'finished'] ?? 0) + 1;
      await assertLiveComplete(data, expected);
      mostLeftovers = Math.max(mostLeftovers, temps().length);
    }
    // The kills must have hit the writing itself, not only start-up.
    expect((stages.write ?? 0) + (stages.derive ?? 0) + (stages.publish ?? 0), JSON.stringify(stages)).toBeGreaterThan(0);

    // (A kill right after the [write] line but before the temp dir exists leaves none: no assertion on mostLeftovers.)

    const finalStart = Date.now();
    const last = await ingest(data);
    expect(last.code, `final ingest after kills ${JSON.stringify(stages)}, at most ${mostLeftovers} temp dirs left`).toBe(0);
    await assertLiveComplete(data, expected);
    const left = readdirSync(productDir);
    expect(temps(), 'temp dirs of killed writers').toEqual([]);
    const versions = left.filter((n) => n.endsWith('.zarr') && existsSync(join(productDir, n)));
    // Retired versions beyond MAX_RETIRED go once their mark is MIN_RETIRED_MS old: those marked less than
    // that before the final publish's clean-up (a kill between a publish and its clean-up leaves its
    // predecessor unmarked until then) may stay.
    const young = versions.filter((n) => (statSync(retiredMarker(productDir, n), { throwIfNoEntry: false })?.mtimeMs ?? 0) > finalStart - MIN_RETIRED_MS);
    expect(versions.length, `${young.length} marked within ${MIN_RETIRED_MS} ms`).toBeLessThanOrEqual(1 + Math.max(MAX_RETIRED, young.length));
  }, 240_000);
});
