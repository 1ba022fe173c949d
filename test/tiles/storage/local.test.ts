/** The storage contract on a local directory, and what only the directory promises (paths, temp files). */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalStorage } from '../../../tiles/storage/local.js';
import { tempRoot } from '../temp-root.js';
import { storageContract } from './contract.js';

storageContract('local directory', async () => new LocalStorage(join(tempRoot('storage'), 'tiles')));

describe('local storage: today\'s paths', () => {
  it('a key is the file at that path below the directory; put leaves no temp file beside it', async () => {
    const dir = join(tempRoot('storage'), 'tiles');
    const s = new LocalStorage(dir);
    await s.put('nwp/current.json', '{"v":2}\n');
    expect(readFileSync(join(dir, 'nwp', 'current.json'), 'utf8')).toBe('{"v":2}\n');
    expect(s.localPath('nwp/current.json')).toBe(join(dir, 'nwp', 'current.json'));
    expect(readdirSync(join(dir, 'nwp'))).toEqual(['current.json']);
    expect(await s.putIf('nwp/current.json', 'x', null)).toBe(false);
    expect(readdirSync(join(dir, 'nwp'))).toEqual(['current.json']);
  });

  it('refuses keys that climb out of the directory', async () => {
    const s = new LocalStorage(join(tempRoot('storage'), 'tiles'));
    await expect(s.get('../etc/passwd')).rejects.toThrow(/invalid tile storage key/);
    await expect(s.put('/abs', 'x')).rejects.toThrow(/invalid tile storage key/);
  });
});
