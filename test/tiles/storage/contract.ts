/**
 * The tile storage contract (tiles/storage/types.ts), one suite run against
 * every implementation: each test file hands it a factory of empty storages.
 * Expected values are written out by hand (the bytes put, the keys listed),
 * never read back from the implementation under test.
 */
import { mkdirSync, mkdtempSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TileStorage } from '../../../tiles/storage/types.js';

const text = (b: Uint8Array | null) => (b === null ? null : Buffer.from(b).toString('utf8'));

export function storageContract(name: string, fresh: () => Promise<TileStorage>): void {
  describe(`tile storage contract: ${name}`, () => {
    it('get of an absent key is null; put then get returns the bytes; put replaces', async () => {
      const s = await fresh();
      expect(await s.get('nwp/current.json')).toBeNull();
      expect(await s.head('nwp/current.json')).toBeNull();
      await s.put('nwp/current.json', '{"a":1}');
      expect(text(await s.get('nwp/current.json'))).toBe('{"a":1}');
      await s.put('nwp/current.json', new Uint8Array([0x7b, 0x7d]));
      expect(text(await s.get('nwp/current.json'))).toBe('{}');
      expect((await s.head('nwp/current.json'))!.size).toBe(2);
    });

    it('getRange returns the asked bytes, fewer at the end, null when absent', async () => {
      const s = await fresh();
      await s.put('p/v.zarr/x/0.0', '0123456789');
      expect(text(await s.getRange('p/v.zarr/x/0.0', 2, 3))).toBe('234');
      expect(text(await s.getRange('p/v.zarr/x/0.0', 8, 10))).toBe('89');
      expect(await s.getRange('p/v.zarr/x/1.0', 0, 4)).toBeNull();
    });

    it('head: the tag changes when the object is replaced; the sync view agrees', async () => {
      const s = await fresh();
      expect(s.sync.stamp('nwp/current.json')).toBe('');
      await s.put('nwp/current.json', 'one');
      const a = (await s.head('nwp/current.json'))!;
      await s.put('nwp/current.json', 'two!');
      const b = (await s.head('nwp/current.json'))!;
      expect(b.tag).not.toBe(a.tag);
      expect(b.size).toBe(4);
      expect(Math.abs(b.modifiedMs - Date.now())).toBeLessThan(120_000);
      await expect.poll(() => s.sync.stamp('nwp/current.json'), { timeout: 5000 }).toBe(b.tag);
      await expect.poll(() => s.sync.text('nwp/current.json'), { timeout: 5000 }).toBe('two!');
    });

    it('putIf: absent-only writes once; If-Match writes only over the expected tag', async () => {
      const s = await fresh();
      expect(await s.putIf('nwp/current.json', 'first', null)).toBe(true);
      expect(await s.putIf('nwp/current.json', 'second', null)).toBe(false);
      expect(text(await s.get('nwp/current.json'))).toBe('first');
      const tag = (await s.head('nwp/current.json'))!.tag;
      expect(await s.putIf('nwp/current.json', 'third', 'not-the-tag')).toBe(false);
      expect(text(await s.get('nwp/current.json'))).toBe('first');
      expect(await s.putIf('nwp/current.json', 'third', tag)).toBe(true);
      expect(text(await s.get('nwp/current.json'))).toBe('third');
      // The old tag is spent: a writer that read it before the replacement loses.
      expect(await s.putIf('nwp/current.json', 'fourth', tag)).toBe(false);
    });

    it('list is recursive, by key prefix, sorted; children gives one level', async () => {
      const s = await fresh();
      // Every level listed by children() has an object directly in it, as the store's layout always has
      // (current.json, .zmetadata): s3rver misses a prefix whose objects all lie two levels deeper.
      for (const k of ['nwp/current.json', 'nwp/a.zarr/t/0.0.0', 'nwp/a.zarr/t/0.0.1', 'nwp/a.zarr/.zmetadata', 'nwp/b.zarr/.zmetadata', 'nwp/b.zarr/t/0.0.0', 'nwpx/current.json', 'reanalysis/index.json', 'reanalysis/1950/current.json']) {
        await s.put(k, k);
      }
      expect((await s.list('nwp/a.zarr/')).map((o) => o.key)).toEqual(['nwp/a.zarr/.zmetadata', 'nwp/a.zarr/t/0.0.0', 'nwp/a.zarr/t/0.0.1']);
      expect((await s.list('nwp/')).map((o) => o.key)).toEqual(['nwp/a.zarr/.zmetadata', 'nwp/a.zarr/t/0.0.0', 'nwp/a.zarr/t/0.0.1', 'nwp/b.zarr/.zmetadata', 'nwp/b.zarr/t/0.0.0', 'nwp/current.json']);
      expect((await s.list('nwp/a.zarr/t/0.0.1')).map((o) => [o.key, o.size])).toEqual([['nwp/a.zarr/t/0.0.1', 18]]);
      expect(await s.list('none/')).toEqual([]);
      const c = await s.children('nwp/');
      expect(c.dirs).toEqual(['a.zarr', 'b.zarr']);
      expect(c.files.map((f) => f.key)).toEqual(['nwp/current.json']);
      expect((await s.children('')).dirs).toEqual(['nwp', 'nwpx', 'reanalysis']);
      expect((await s.children('reanalysis/')).dirs).toEqual(['1950']);
      expect(await s.children('none/')).toEqual({ files: [], dirs: [] });
    });

    it('delete and deletePrefix remove exactly what they name', async () => {
      const s = await fresh();
      for (const k of ['nwp/current.json', 'nwp/a.zarr/t/0.0.0', 'nwp/a.zarr/.zmetadata', 'nwp/ab.zarr/t/0.0.0']) await s.put(k, 'x');
      await s.delete('nwp/current.json');
      await s.delete('nwp/current.json'); // absent: nothing to do
      expect(await s.get('nwp/current.json')).toBeNull();
      expect(await s.deletePrefix('nwp/a.zarr/')).toBe(2);
      expect((await s.list('nwp/')).map((o) => o.key)).toEqual(['nwp/ab.zarr/t/0.0.0']);
      await expect(s.deletePrefix('nwp/ab')).rejects.toThrow(/ending in '\/'/);
    });

    it('commitDir makes a local directory\'s files the objects under a prefix, and the directory goes', async () => {
      const s = await fresh();
      const staging = s.stagingDir('nwp');
      mkdirSync(staging, { recursive: true });
      const dir = mkdtempSync(join(existsSync(staging) ? staging : tmpdir(), '.tmp-'));
      mkdirSync(join(dir, 't'));
      writeFileSync(join(dir, '.zmetadata'), '{}');
      writeFileSync(join(dir, 't', '0.0.0'), Buffer.from([1, 2, 3]));
      await s.commitDir(dir, 'nwp/v1.zarr/');
      expect(existsSync(dir)).toBe(false);
      expect((await s.list('nwp/v1.zarr/')).map((o) => [o.key, o.size])).toEqual([['nwp/v1.zarr/.zmetadata', 2], ['nwp/v1.zarr/t/0.0.0', 3]]);
      expect([...(await s.get('nwp/v1.zarr/t/0.0.0'))!]).toEqual([1, 2, 3]);
    });
  });
}
