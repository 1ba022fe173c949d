/**
 * The benchmark calls weather.php as a client would: with a real API key.
 * This creates a Business key in the embedded key store of the bench data
 * directory (`<dataDir>/keys.json`, through the same services the server and
 * the `keys` CLI use) and gives the access environment that raises the
 * Business quotas far above what a run can send, so the benchmark measures
 * key checks and quota accounting, never a 429.
 */
import { generateKey } from '../api/access/key-format.js';
import type { KeyRecord } from '../api/access/key-store.js';
import { createAccessServices } from '../api/access/services.js';

/** Quotas no benchmark run reaches (≈ 100k req/s for a minute; a day of it). */
const BENCH_QUOTA_MINUTE = '100000000';
const BENCH_QUOTA_DAY = '10000000000';

/**
 * The access environment of the bench server: embedded mode (no REDIS_URL,
 * so quotas in the server's memory, as a single-process deployment), keys in
 * `dataDir`, Business quotas raised.
 */
export function benchAccessEnv(dataDir: string): NodeJS.ProcessEnv {
  return {
    METEOPUNTO_DATA: dataDir,
    MP_QUOTA_BUSINESS_MINUTE: BENCH_QUOTA_MINUTE,
    MP_QUOTA_BUSINESS_DAY: BENCH_QUOTA_DAY,
  };
}

/** Create a Business API key in `dataDir`'s embedded key store; returns the key (sent as X-API-Key). */
export async function createBenchKey(dataDir: string): Promise<string> {
  const services = await createAccessServices({ env: benchAccessEnv(dataDir) });
  try {
    for (let attempt = 0; attempt < 5; attempt++) {
      const { key, prefix, hash } = generateKey();
      const record: KeyRecord = { prefix, hash, plan: 'business', kind: 'api', name: 'benchmark', created: new Date().toISOString() };
      if (await services.keys.insert(record)) return key;
    }
    throw new Error('bench: could not draw an unused key prefix');
  } finally {
    await services.close();
  }
}
