/** METEOPUNTO_TILES: a directory or a bucket, read in config/ and checked at start-up. */
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEnvironment, ConfigError } from '../../config/environment.js';
import { tilesLocation } from '../../config/tiles-location.js';

describe('METEOPUNTO_TILES', () => {
  it('unset: <data>/tiles; a path: that directory', () => {
    expect(tilesLocation({}, '/srv/mp')).toEqual({ kind: 'local', dir: join('/srv/mp', 'tiles') });
    expect(tilesLocation({ METEOPUNTO_TILES: 'shared/tiles' }, '/srv/mp')).toEqual({ kind: 'local', dir: resolve('shared/tiles') });
  });

  it('s3://bucket/prefix: the bucket, the prefix without slashes, path-style exactly when an endpoint is set', () => {
    const aws = tilesLocation({ METEOPUNTO_TILES: 's3://mp-tiles/prod/v1/', AWS_REGION: 'eu-south-1' }, '/srv/mp');
    expect(aws).toMatchObject({ kind: 's3', bucket: 'mp-tiles', prefix: 'prod/v1', region: 'eu-south-1', forcePathStyle: false, timeoutMs: 5000, stagingDir: join('/srv/mp', 'tiles-staging') });
    expect(aws).not.toHaveProperty('endpoint');
    const minio = tilesLocation({ METEOPUNTO_TILES: 's3://tiles', AWS_ENDPOINT_URL: 'http://minio:9000', METEOPUNTO_TILES_TIMEOUT_MS: '800' }, '/srv/mp');
    expect(minio).toMatchObject({ bucket: 'tiles', prefix: '', endpoint: 'http://minio:9000', region: 'us-east-1', forcePathStyle: true, timeoutMs: 800 });
    expect(tilesLocation({ METEOPUNTO_TILES: 's3://tiles', AWS_ENDPOINT_URL: 'http://minio:9000', AWS_S3_FORCE_PATH_STYLE: 'false' }, '/x')).toMatchObject({ forcePathStyle: false });
  });

  it('a malformed bucket URL stops the command at start-up, saying why', () => {
    for (const [raw, why] of [['s3://', 'not a valid bucket name'], ['s3://My_Bucket/x', "'My_Bucket' is not a valid bucket name"], ['s3://tiles/a//b', 'path segments'], ['s3://tiles/../up', 'path segments']] as const) {
      expect(() => checkEnvironment({ METEOPUNTO_TILES: raw }), raw).toThrow(ConfigError);
      expect(() => checkEnvironment({ METEOPUNTO_TILES: raw }), raw).toThrow(why);
      expect(() => tilesLocation({ METEOPUNTO_TILES: raw }, '/x'), raw).toThrow(why);
    }
    expect(() => checkEnvironment({ METEOPUNTO_TILES: 's3://mp-tiles/prod' })).not.toThrow();
    expect(() => checkEnvironment({ AWS_S3_FORCE_PATH_STYLE: 'yes' })).toThrow("AWS_S3_FORCE_PATH_STYLE='yes': expected one of true, false");
  });
});
