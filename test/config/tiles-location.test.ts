/** METEOPUNTO_TILES: a directory or a bucket, and the bucket's AWS_ENDPOINT_URL, read in config/ and checked at start-up. */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
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
    expect(aws).toMatchObject({ kind: 's3', bucket: 'mp-tiles', prefix: 'prod/v1', region: 'eu-south-1', forcePathStyle: false, timeoutMs: 5000, warmGets: 8, stagingDir: join('/srv/mp', 'tiles-staging') });
    expect(aws).not.toHaveProperty('endpoint');
    const minio = tilesLocation({ METEOPUNTO_TILES: 's3://tiles', AWS_ENDPOINT_URL: 'http://minio:9000', METEOPUNTO_TILES_TIMEOUT_MS: '800', METEOPUNTO_TILES_WARM_GETS: '0' }, '/srv/mp');
    expect(minio).toMatchObject({ bucket: 'tiles', prefix: '', endpoint: 'http://minio:9000', region: 'us-east-1', forcePathStyle: true, timeoutMs: 800, warmGets: 0 });
    expect(() => checkEnvironment({ METEOPUNTO_TILES_WARM_GETS: '100' })).toThrow(ConfigError);
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

describe('AWS_ENDPOINT_URL and URL-like METEOPUNTO_TILES', () => {
  it('a value meant as a URL that is not s3://bucket is refused, not taken for a directory of that name', () => {
    for (const raw of ['s3:/mp-tiles', 'gs://mp-tiles/x', 'https://minio:9000/mp-tiles']) {
      expect(() => checkEnvironment({ METEOPUNTO_TILES: raw }), raw).toThrow('the only URL form is s3://bucket/prefix');
      expect(() => tilesLocation({ METEOPUNTO_TILES: raw }, '/x'), raw).toThrow(ConfigError);
    }
    expect(tilesLocation({ METEOPUNTO_TILES: './tiles:2026' }, '/x')).toEqual({ kind: 'local', dir: resolve('./tiles:2026') });
  });

  it('an endpoint that is not an http(s) URL of a host, or carries credentials, query or fragment, is refused, saying why', () => {
    const cases: Array<[string, string]> = [
      ['minio:9000', "'minio:' is not http: or https:"],
      ['not a url', 'not a URL'],
      ['ftp://minio:9000', "'ftp:' is not http: or https:"],
      ['http://', 'not a URL'],
      ['https://admin:s3cr3t-pa55@minio:9000', 'give them as AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY'],
      ['https://minio:9000/?region=x', 'a query or fragment'],
    ];
    for (const [raw, why] of cases) {
      expect(() => checkEnvironment({ AWS_ENDPOINT_URL: raw }), raw).toThrow(why);
      expect(() => tilesLocation({ METEOPUNTO_TILES: 's3://tiles', AWS_ENDPOINT_URL: raw }, '/x'), raw).toThrow(why);
    }
    for (const ok of ['http://127.0.0.1:9000', 'https://s3.eu-south-1.amazonaws.com', 'https://minio.example/s3']) expect(() => checkEnvironment({ AWS_ENDPOINT_URL: ok }), ok).not.toThrow();
  });

  it('serve, worker and tiles stop at once with one message (exit 2, the password not echoed), before any request', () => {
    const data = mkdtempSync(join(tmpdir(), 'mp-endpoint-'));
    try {
      const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
      for (const [args, env] of [
        [['serve', '--port', '0'], { AWS_ENDPOINT_URL: 'minio:9000' }],
        [['worker'], { AWS_ENDPOINT_URL: 'https://admin:s3cr3t-pa55@minio:9000', REDIS_URL: 'redis://127.0.0.1:1' }],
        [['tiles', 'ls'], { AWS_ENDPOINT_URL: 'ftp://minio' }],
        [['tiles', 'render', 'nwp', 'temperature_2m'], { METEOPUNTO_TILES: 's3:/mp-tiles' }],
      ] as const) {
        const t0 = Date.now();
        const r = spawnSync(process.execPath, [cli, ...args], {
          env: { PATH: process.env.PATH ?? '', METEOPUNTO_DATA: data, METEOPUNTO_TILES: 's3://mp-tiles/p', ...env }, encoding: 'utf8', timeout: 30_000,
        });
        expect(r.status, `${args.join(' ')}: ${r.stderr}`).toBe(2);
        expect(r.stdout).toBe('');
        expect(r.stderr.trim().split('\n'), r.stderr).toHaveLength(1);
        expect(r.stderr).toMatch(/^meteopunto: invalid configuration: (AWS_ENDPOINT_URL|METEOPUNTO_TILES)='/);
        expect(r.stderr).not.toContain('s3cr3t-pa55');
        expect(Date.now() - t0).toBeLessThan(10_000); // no connection attempt
      }
    } finally {
      rmSync(data, { recursive: true, force: true });
    }
  });
});
