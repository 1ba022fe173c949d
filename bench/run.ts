/**
 * `npm run bench`: the speed figures of docs/benchmarks.md, from one run.
 * Builds the bench data once (./data.ts: a national nwp store and a DEM
 * through the real writer) and one API key per plan measured (./api-key.ts),
 * unless every section run builds its own (./section.ts `ownData`), then runs the sections of ./sections.ts in order, each printing its
 * figures, and last prints every target beside its figure, PASS or FAIL
 * (./targets.ts).
 *
 * Options (env): BENCH_SECTIONS (the sections to run, comma-separated;
 * default all), BENCH_SECONDS (HTTP measuring time per server, default 8),
 * BENCH_CONNECTIONS (default 32), BENCH_PLANS (plans of the keys weather.php
 * is measured with, default "business,free"), BENCH_REDIS_URL (keys and
 * quotas in Redis), BENCH_PROFILE_DIR (CPU profiles of the servers),
 * BENCH_RANDOM_REQUESTS (requests of the random-points run, default
 * 1,000,000), BENCH_REANALYSIS_DAYS (shorter reanalysis year).
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { processEnv } from '../config/process-env.js';
import { integerSetting, setting } from '../config/environment.js';
import { benchPlans, createBenchKey } from './api-key.js';
import { buildBenchData, GRID, STEPS } from './data.js';
import type { BenchContext } from './section.js';
import { needsBenchData, selectSections } from './sections.js';
import { describeTargets } from './targets.js';

async function main(): Promise<void> {
  const env = processEnv();
  const sections = selectSections(setting(env, 'BENCH_SECTIONS'));
  const root = mkdtempSync(join(tmpdir(), 'mp-bench-'));
  try {
    // Sections that build their own data (the reanalysis year) run alone without the nwp store (about a minute).
    let firstValidMs = NaN;
    const keys: Array<BenchContext['keys'][number]> = [];
    if (needsBenchData(sections)) {
      const t = performance.now();
      firstValidMs = await buildBenchData(root, Date.now());
      console.log(`bench data: nwp ${GRID.nx}×${GRID.ny} cells (0.025°×0.02°), ${STEPS} hourly steps, 18 variables (Free and Developer inputs); dem 0.01°; written in ${((performance.now() - t) / 1000).toFixed(1)} s`);
      // weather.php is called as a client calls it: a real key in X-API-Key (the bare route gets the same header).
      for (const plan of benchPlans()) keys.push({ plan, apiKey: await createBenchKey(root, plan) });
    }
    const ctx: BenchContext = {
      root,
      firstValidMs,
      seconds: integerSetting(env, 'BENCH_SECONDS', 8),
      connections: integerSetting(env, 'BENCH_CONNECTIONS', 32),
      redis: setting(env, 'BENCH_REDIS_URL') !== undefined,
      keys,
      checks: [],
    };
    for (const s of sections) await s.run(ctx);
    if (ctx.checks.length > 0) for (const line of describeTargets(ctx.checks, ctx.redis)) console.log(line);
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// Run when executed (dist/bench/run.js), not when imported.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
