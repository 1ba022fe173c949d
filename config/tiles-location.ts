/**
 * Where the tile store lives: `METEOPUNTO_TILES`, a directory or an
 * S3-compatible bucket (`s3://bucket/prefix`); unset, `$METEOPUNTO_DATA/tiles`.
 * For a bucket, the endpoint and region come from the AWS SDK's own
 * variables (`AWS_ENDPOINT_URL`, `AWS_REGION`), credentials from its standard
 * chain (`AWS_ACCESS_KEY_ID`/`AWS_SECRET_ACCESS_KEY`, `AWS_PROFILE`, ...),
 * which the SDK reads itself; path-style addressing is used whenever an
 * endpoint is set (MinIO, Ceph and most self-hosted stores need it), or
 * when `AWS_S3_FORCE_PATH_STYLE=true`.
 */
import { resolve } from 'node:path';
import { processEnv } from './process-env.js';
import { ConfigError, integerSetting, setting, type Environment } from './environment.js';
import { dataDir, tilesDir } from './paths.js';
import { endpointProblem, isBucketUrl, parseBucketUrl, tilesProblem } from './tiles-url.js';

export type TilesLocation =
  | { kind: 'local'; dir: string }
  | {
      kind: 's3';
      bucket: string;
      /** Key prefix inside the bucket, without leading or trailing '/' ('' for the bucket's root). */
      prefix: string;
      endpoint?: string;
      region: string;
      forcePathStyle: boolean;
      /** Where writers build a version before uploading it, and the optional chunk cache. */
      stagingDir: string;
      /** A bucket request that has not completed after this long fails (the API answers 503). */
      timeoutMs: number;
      /** GETs a warm keeps in flight (tiles/storage/types.ts, `warmGets`). */
      warmGets: number;
      /** The local disk cache of version objects, when one is set. */
      cache?: { dir: string; maxBytes: number };
    };

export function tilesLocation(env: Environment = processEnv(), root: string = dataDir(env)): TilesLocation {
  const raw = setting(env, 'METEOPUNTO_TILES');
  if (raw === undefined) return { kind: 'local', dir: tilesDir(root) };
  const problem = tilesProblem(raw);
  if (problem) throw new ConfigError(`METEOPUNTO_TILES='${raw}': ${problem}`);
  if (!isBucketUrl(raw)) return { kind: 'local', dir: resolve(raw) };
  const { bucket, prefix } = parseBucketUrl(raw) as { bucket: string; prefix: string };
  const endpoint = setting(env, 'AWS_ENDPOINT_URL');
  const bad = endpoint === undefined ? null : endpointProblem(endpoint);
  if (bad) throw new ConfigError(`AWS_ENDPOINT_URL='${endpoint}': ${bad}`);
  const cacheDir = setting(env, 'METEOPUNTO_CACHE_DIR');
  const pathStyle = setting(env, 'AWS_S3_FORCE_PATH_STYLE');
  if (pathStyle !== undefined && !['true', 'false'].includes(pathStyle)) throw new ConfigError(`AWS_S3_FORCE_PATH_STYLE='${pathStyle}': true or false`);
  return {
    kind: 's3',
    bucket,
    prefix,
    ...(endpoint ? { endpoint } : {}),
    region: setting(env, 'AWS_REGION') ?? 'us-east-1',
    forcePathStyle: pathStyle === undefined ? endpoint !== undefined : pathStyle === 'true',
    stagingDir: resolve(root, 'tiles-staging'),
    timeoutMs: integerSetting(env, 'METEOPUNTO_TILES_TIMEOUT_MS', 5000),
    warmGets: integerSetting(env, 'METEOPUNTO_TILES_WARM_GETS', 8),
    ...(cacheDir ? { cache: { dir: resolve(cacheDir), maxBytes: integerSetting(env, 'METEOPUNTO_CACHE_MB', 1024) * 2 ** 20 } } : {}),
  };
}

/** `s3://bucket/prefix` or the directory, for messages. */
export function describeTiles(loc: TilesLocation): string {
  return loc.kind === 'local' ? loc.dir : `s3://${loc.bucket}${loc.prefix ? `/${loc.prefix}` : ''}`;
}
