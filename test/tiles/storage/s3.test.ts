/** The storage contract on an S3-compatible bucket (s3rver on loopback, the real AWS SDK), and what only the bucket promises. */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { storageContract } from './contract.js';

let s3: S3TestServer;
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => s3?.close());

storageContract('S3 bucket (s3rver)', async () => s3.storage(`contract-${randomBytes(4).toString('hex')}`));

describe('S3 storage', () => {
  it('keys live under the configured prefix, nothing outside it is seen', async () => {
    const a = s3.storage('tenant-a/tiles');
    const b = s3.storage('tenant-a');
    await a.put('nwp/current.json', '{}');
    expect((await b.list('')).map((o) => o.key)).toEqual(['tiles/nwp/current.json']);
    expect((await a.list('')).map((o) => o.key)).toEqual(['nwp/current.json']);
    expect(a.location).toBe(`s3://${s3.bucket}/tenant-a/tiles`);
  });

  it('a listing longer than one page (1,000 keys) is read whole, page after page: a version of a real grid has thousands of chunks', async () => {
    const s = s3.storage(`pages-${randomBytes(4).toString('hex')}`);
    const keys = ['nwp/v.zarr/.zmetadata', ...Array.from({ length: 1005 }, (_, i) => `nwp/v.zarr/t/${String(i).padStart(4, '0')}`)];
    for (let i = 0; i < keys.length; i += 50) await Promise.all(keys.slice(i, i + 50).map((k) => s.put(k, 'x')));
    await s.put('nwp/current.json', '{}');
    expect((await s.list('nwp/v.zarr/')).map((o) => o.key)).toEqual(keys);
    expect((await s.children('nwp/')).dirs).toEqual(['v.zarr']);
  });

  it('an unknown access key is refused by the server, as an error, not as "absent"', async () => {
    const bad = s3.storage('x', { credentials: { accessKeyId: 'MPUNKNOWNKEY', secretAccessKey: s3.credentials.secretAccessKey } });
    await expect(bad.get('nwp/current.json')).rejects.toThrow(/Access Key Id/i);
  });
});
