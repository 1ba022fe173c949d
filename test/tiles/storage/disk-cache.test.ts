/**
 * METEOPUNTO_CACHE_DIR: a bucket's version objects kept on local disk,
 * bounded by size, least recently used out first; a fresh reader (a
 * restarted replica) answers from it while the bucket is unreachable.
 */
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { DiskCache } from '../../../tiles/storage/disk-cache.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { constantInput, T0 } from '../fields.js';

let s3: S3TestServer;
const dirs: string[] = [];
const temp = () => {
  const d = mkdtempSync(join(tmpdir(), 'mp-disk-cache-'));
  dirs.push(d);
  return d;
};
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

describe('disk cache of a bucket', () => {
  it('keeps at most its budget, dropping the least recently used; recency survives a restart', async () => {
    const dir = temp();
    const c = new DiskCache(dir, 250);
    await c.put('nwp/v.zarr/a/0.0', new Uint8Array(100).fill(1));
    await c.put('nwp/v.zarr/b/0.0', new Uint8Array(100).fill(2));
    expect((await c.get('nwp/v.zarr/a/0.0'))![0]).toBe(1); // a is now the most recent
    await c.put('nwp/v.zarr/c/0.0', new Uint8Array(100).fill(3)); // 300 > 250: b goes
    expect(await c.get('nwp/v.zarr/b/0.0')).toBeNull();
    expect(c.bytes).toBe(200);
    expect(readdirSync(dir).reduce((n, f) => n + statSync(join(dir, f)).size, 0)).toBe(200);
    const again = new DiskCache(dir, 250);
    expect(again.bytes).toBe(200);
    expect((await again.get('nwp/v.zarr/c/0.0'))![0]).toBe(3);
    await c.put('nwp/v.zarr/big/0.0', new Uint8Array(300)); // larger than the whole budget: not kept
    expect(await c.get('nwp/v.zarr/big/0.0')).toBeNull();
  });

  it('a fresh reader with the same cache dir answers from it while the bucket refuses everything', async () => {
    const prefix = `dc-${randomBytes(4).toString('hex')}`;
    await writeProductVersion(s3.storage(prefix), constantInput('nwp', 9));
    const cacheDir = temp();
    const first = new TileStore(s3.storage(prefix, { diskCache: new DiskCache(cacheDir, 64 * 2 ** 20) }));
    expect((await first.sample('nwp', 40, 10, T0)).values.temperature_2m).toBeCloseTo(9, 2);
    expect(readdirSync(cacheDir).length).toBeGreaterThan(0);
    // The manifest is read from the bucket (it changes in place); the version's objects from the disk cache.
    const second = s3.storage(prefix, { diskCache: new DiskCache(cacheDir, 64 * 2 ** 20) });
    const store = new TileStore(second);
    await store.ready(['nwp']);
    const cut = s3.storage(prefix, { credentials: { accessKeyId: 'MPUNKNOWNKEY', secretAccessKey: 'x'.repeat(20) } });
    await expect(cut.get(`nwp/${store.manifest('nwp')!.version}/.zmetadata`)).rejects.toThrow(/Access Key Id/);
    // Swap the second reader's client for one the bucket refuses: only the disk cache can answer.
    (second as unknown as { client: unknown }).client = (cut as unknown as { sdk(): unknown }).sdk();
    expect((await store.sample('nwp', 40, 10, T0)).values.temperature_2m).toBeCloseTo(9, 2);
    await expect(second.get('nwp/current.json')).rejects.toThrow(/Access Key Id/);
  });
});
