/**
 * The benchmark calls weather.php as a client would: with a real API key.
 * This creates keys (one per plan measured, `BENCH_PLANS`) in the embedded key store
 * of the bench data directory (`<dataDir>/keys.json`, through the same
 * services the server and the `keys` CLI use) and gives the access
 * environment that raises every plan's quotas far above what a run can
 * send, so the benchmark measures key checks and quota accounting, never a
 * 429.
 */
import { PLANS, type Plan } from '../api/access/contract.js';
import { generateKey } from '../api/access/key-format.js';
import type { KeyRecord } from '../api/access/key-store.js';
import { createAccessServices } from '../api/access/services.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';

/** Quotas no benchmark run reaches (≈ 100k req/s for a minute; a day of it). */
const BENCH_QUOTA_MINUTE = '100000000';
const BENCH_QUOTA_DAY = '10000000000';

/**
 * The access environment of the bench server: keys in `dataDir` and quotas in
 * the server's memory (a single-process deployment), or both in Redis when
 * BENCH_REDIS_URL is set (as replicas share them; the keys it creates carry
 * the name `benchmark`); quotas raised (METEOPUNTO_QUOTA_<PLAN>_DAY / _MINUTE,
 * api/access/config.ts).
 */
export function benchAccessEnv(dataDir: string, outer: NodeJS.ProcessEnv = processEnv()): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { METEOPUNTO_DATA: dataDir };
  const redis = setting(outer, 'BENCH_REDIS_URL');
  if (redis) env.REDIS_URL = redis;
  for (const plan of PLANS) {
    env[`METEOPUNTO_QUOTA_${plan.toUpperCase()}_MINUTE`] = BENCH_QUOTA_MINUTE;
    env[`METEOPUNTO_QUOTA_${plan.toUpperCase()}_DAY`] = BENCH_QUOTA_DAY;
  }
  return env;
}

/**
 * The plans weather.php is measured with: BENCH_PLANS (comma-separated),
 * default business (Free + Developer fields, what a paying client gets)
 * then free (the Free fields alone, the Free field set).
 */
export function benchPlans(env: NodeJS.ProcessEnv = processEnv()): Plan[] {
  const raw = env.BENCH_PLANS ?? 'business,free';
  const plans = raw.split(',').map((p) => p.trim().toLowerCase()).filter((p) => p !== '');
  for (const p of plans) if (!(PLANS as readonly string[]).includes(p)) throw new Error(`BENCH_PLANS=${raw}: '${p}' is not one of ${PLANS.join(', ')}`);
  if (plans.length === 0) throw new Error(`BENCH_PLANS=${raw}: no plan`);
  return plans as Plan[];
}

/** Create an API key of `plan` in `dataDir`'s embedded key store; returns the key (sent as X-API-Key). */
export async function createBenchKey(dataDir: string, plan: Plan = 'business'): Promise<string> {
  const services = await createAccessServices({ env: benchAccessEnv(dataDir) });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const { key, prefix, hash } = generateKey();
      const record: KeyRecord = { prefix, hash, plan, kind: 'api', name: 'benchmark', created: new Date().toISOString() };
      if (await services.keys.insert(record)) return key;
    }
    throw new Error('bench: could not draw an unused key prefix');
  } finally {
    await services.close();
  }
}
