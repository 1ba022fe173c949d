/**
 * Builds the access layer's stores from the environment: with REDIS_URL,
 * keys, quotas and the flood guard in Redis (shared by every replica);
 * without, keys in `$METEOPUNTO_DATA/keys.json` and quotas in this process's
 * memory (run one API process). The server and the `keys` CLI share this.
 * With Redis, keys the file still holds and Redis lacks are named in a
 * notice (./key-import.ts), which the server logs and the CLI prints.
 */
import { existsSync } from 'node:fs';
import type { Redis } from 'ioredis';
import { dataDir } from '../../config/paths.js';
import { loadAccessConfig, type AccessConfig } from './config.js';
import { FloodGuard } from './flood-guard.js';
import { FileKeyStore, keysFilePath } from './key-store-file.js';
import type { KeyStore } from './key-store.js';
import { RedisKeyStore } from './key-store-redis.js';
import { Quota } from './quota.js';
import { connectAccessRedis, type RedisHealthLog } from './redis-connection.js';
import { KeyRecordCache } from './key-changes.js';
import { unimportedNotice } from './key-import.js';
import { processEnv } from '../../config/process-env.js';
import { setting } from '../../config/environment.js';

export interface AccessServices {
  mode: 'embedded' | 'redis';
  config: AccessConfig;
  keys: KeyStore;
  quota: Quota;
  flood: FloodGuard;
  /** One line for the start-up log: where keys and quotas live. */
  startupMessage: string;
  /** Warnings for the operator, one line each: keys in the keys file that Redis lacks. */
  notices: string[];
  /** `$METEOPUNTO_DATA/keys.json`: the store in embedded mode, what `keys import` reads with Redis. */
  keysFile: string;
  close(): Promise<void>;
}

export interface AccessServicesOptions {
  /** REDIS_URL, METEOPUNTO_DATA and the quota limits; default the process environment. */
  env?: NodeJS.ProcessEnv;
  /** Overrides the limits read from `env`. */
  config?: AccessConfig;
  /** Receives Redis outage and recovery messages, once per transition. */
  log?: RedisHealthLog;
  /** Keep key records in this process, invalidated by Redis pub/sub (./key-changes.ts): for the server, not one-shot CLI commands. */
  cacheKeys?: boolean;
}

export async function createAccessServices(opts: AccessServicesOptions = {}): Promise<AccessServices> {
  const env = opts.env ?? processEnv();
  const config = opts.config ?? loadAccessConfig(env);
  const url = setting(env, 'REDIS_URL')?.trim();
  const keysFile = keysFilePath(dataDir(env));
  if (url) {
    const redis = await connectAccessRedis(url, { log: opts.log });
    const cache = opts.cacheKeys ? await KeyRecordCache.subscribe(redis) : undefined;
    const keys = new RedisKeyStore(redis, url, { staleIfErrorS: config.keys.staleIfErrorS }, cache);
    const notice = await fileNotice(keysFile, keys);
    return {
      mode: 'redis',
      config,
      keys,
      quota: new Quota(config.quota, redis),
      flood: new FloodGuard(config.flood.refusedPerMinute, redis),
      startupMessage: `access: keys and quotas in Redis at ${keys.location}, shared by every API process`,
      notices: notice ? [notice] : [],
      keysFile,
      close: async () => {
        await keys.close();
        await quit(redis);
      },
    };
  }
  const keys = new FileKeyStore(keysFile);
  await keys.list(); // a damaged keys file stops start-up with its path and reason
  return {
    mode: 'embedded',
    config,
    keys,
    quota: new Quota(config.quota),
    flood: new FloodGuard(config.flood.refusedPerMinute),
    startupMessage:
      `access: embedded mode, keys in ${keys.location} (hashed), quotas in this process's memory: ` +
      'run a single API process, or set REDIS_URL to share quotas between replicas',
    notices: [],
    keysFile,
    close: async () => {},
  };
}

/** The notice about keys left in the keys file, if any; a file that cannot be read is said so. */
async function fileNotice(file: string, redis: KeyStore): Promise<string | undefined> {
  if (!existsSync(file)) return undefined;
  let records;
  try {
    records = await new FileKeyStore(file).list();
  } catch (err) {
    return `access: ${file} cannot be read (${(err as Error).message}); with REDIS_URL set it is not used`;
  }
  return unimportedNotice(records, file, redis);
}

async function quit(redis: Redis): Promise<void> {
  try {
    await redis.quit();
  } catch {
    redis.disconnect();
  }
}
