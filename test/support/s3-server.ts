/**
 * The suite's S3-compatible server: s3rver (npm) in this process, on
 * 127.0.0.1 on a free port, storing under a temp directory; clients reach it
 * through the real AWS SDK over HTTP (path-style), as they would MinIO.
 * s3rver refuses an unknown access key id (it does not verify SigV4
 * signatures) and ignores If-Match/If-None-Match on PUT (the storage's
 * Redis lock is what a race test exercises here).
 *
 *   const s3 = await startS3Server();
 *   const storage = s3.storage('some/prefix');          // an S3Storage on it
 *   spawn(..., { env: { ...process.env, ...s3.env('some/prefix') } });
 *   await s3.close();
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { S3Storage, type S3StorageOptions } from '../../tiles/storage/s3.js';

const require = createRequire(import.meta.url);

/*
 * s3rver's ListObjectsV2 continuation tokens are encrypted with single DES,
 * which Node 20's OpenSSL 3 refuses ('des' is in its legacy provider): every
 * listing longer than one page (1,000 keys, one nwp version of the ICON-2I
 * grid) answered 500. Triple DES (EDE) with the key three times is DES
 * exactly, and is in the default provider, so s3rver's 'des' is given that.
 */
const crypto = require('node:crypto') as typeof import('node:crypto') & Record<string, unknown>;
if (!crypto.__mpDesShim) {
  const tripled = (key: Buffer) => Buffer.concat([key, key, key]);
  const cipher = crypto.createCipheriv.bind(crypto);
  const decipher = crypto.createDecipheriv.bind(crypto);
  crypto.createCipheriv = ((alg: string, key: Buffer, iv: Buffer, opts?: unknown) =>
    alg === 'des' ? cipher('des-ede3-cbc', tripled(key), iv) : cipher(alg, key, iv, opts as never)) as typeof crypto.createCipheriv;
  crypto.createDecipheriv = ((alg: string, key: Buffer, iv: Buffer, opts?: unknown) =>
    alg === 'des' ? decipher('des-ede3-cbc', tripled(key), iv) : decipher(alg, key, iv, opts as never)) as typeof crypto.createDecipheriv;
  crypto.__mpDesShim = true;
}
// s3rver's one account takes further key pairs (its default pair's secret is too short for the log-redaction rule).
const account = require('s3rver/lib/models/account.js') as { DUMMY_ACCOUNT: { createKeyPair(id: string, secret: string): void } };
// s3rver ships no types: the two calls used.
const S3rver = require('s3rver') as new (options: Record<string, unknown>) => { run(): Promise<{ port: number }>; close(): Promise<void> };

export interface S3TestServer {
  endpoint: string;
  bucket: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  /** The environment a child process needs to use `s3://<bucket>/<prefix>` as METEOPUNTO_TILES. */
  env(prefix: string): Record<string, string>;
  /** An S3Storage on `<bucket>/<prefix>` (staging under a temp dir unless given). */
  storage(prefix: string, extra?: Partial<S3StorageOptions>): S3Storage;
  close(): Promise<void>;
}

export async function startS3Server(bucket = 'meteopunto-test'): Promise<S3TestServer> {
  const dir = mkdtempSync(join(tmpdir(), 'mp-s3rver-'));
  const credentials = { accessKeyId: `MPTEST${randomBytes(4).toString('hex').toUpperCase()}`, secretAccessKey: randomBytes(24).toString('base64url') };
  account.DUMMY_ACCOUNT.createKeyPair(credentials.accessKeyId, credentials.secretAccessKey);
  const server = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [{ name: bucket }], vhostBuckets: false });
  const { port } = await server.run();
  const endpoint = `http://127.0.0.1:${port}`;
  const storages: S3Storage[] = [];
  return {
    endpoint,
    bucket,
    credentials,
    env: (prefix) => ({
      METEOPUNTO_TILES: `s3://${bucket}/${prefix}`,
      AWS_ENDPOINT_URL: endpoint,
      AWS_REGION: 'us-east-1',
      AWS_ACCESS_KEY_ID: credentials.accessKeyId,
      AWS_SECRET_ACCESS_KEY: credentials.secretAccessKey,
      AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
    }),
    storage: (prefix, extra = {}) => {
      const s = new S3Storage({
        bucket, prefix, endpoint, region: 'us-east-1', forcePathStyle: true, credentials, timeoutMs: 5000, pollMs: 200,
        stagingDir: mkdtempSync(join(tmpdir(), 'mp-s3-staging-')), ...extra,
      });
      storages.push(s);
      return s;
    },
    close: async () => {
      for (const s of storages) s.close();
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
