/**
 * `meteopunto tiles ls|info|point|verify|gc|render` on a bucket
 * (METEOPUNTO_TILES=s3://…, s3rver on loopback), each as a real child
 * process, answering as on a directory: the values are the constants
 * written, verify finds a corrupted object, gc leaves the live version.
 */
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import type { S3Storage } from '../../../tiles/storage/s3.js';
import { constantInput, T0 } from '../fields.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let s3: S3TestServer;
let storage: S3Storage;
let env: Record<string, string>;
let version: string;
const tmp = mkdtempSync(join(tmpdir(), 'mp-cli-bucket-'));

beforeAll(async () => {
  s3 = await startS3Server();
  const prefix = `cli-${randomBytes(4).toString('hex')}`;
  storage = s3.storage(prefix);
  await writeProductVersion(storage, constantInput('nwp', 5));
  version = (await writeProductVersion(storage, constantInput('nwp', 6))).version;
  env = { METEOPUNTO_DATA: join(tmp, 'data'), ...s3.env(prefix) };
});
afterAll(async () => {
  await s3?.close();
  rmSync(tmp, { recursive: true, force: true });
});

/** The CLI from dist/ in a child process; asynchronous, since the S3 server answers from this process. */
function tiles(args: string[]): Promise<{ code: number; out: string; err: string }> {
  const child = spawn(process.execPath, ['dist/cli/main.js', 'tiles', ...args], { cwd: ROOT, env: { ...process.env, REDIS_URL: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  let err = '';
  child.stdout.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((ok) => child.on('close', (code) => ok({ code: code ?? -1, out, err })));
}

describe('tiles CLI on a bucket', () => {
  it('ls lists the store with its live and replaced versions; info prints the live manifest', async () => {
    const ls = await tiles(['ls', '--json']);
    expect(ls.code).toBe(0);
    const [p] = JSON.parse(ls.out) as { product: string; stores: { live: string; versions: { name: string; live: boolean; bytes: number }[] }[] }[];
    expect(p!.product).toBe('nwp');
    expect(p!.stores[0]!.live).toBe(version);
    // Both versions were published within one second, where version names do not sort by time: compare as a set.
    const versions = p!.stores[0]!.versions;
    expect(versions.filter((v) => v.live).map((v) => v.name)).toEqual([version]);
    expect(versions.filter((v) => !v.live)).toHaveLength(1);
    expect(p!.stores[0]!.versions.every((v) => v.bytes > 0)).toBe(true);
    const info = await tiles(['info', 'nwp', '--json']);
    expect(info.code).toBe(0);
    expect(JSON.parse(info.out).version).toBe(version);
  });

  it('point answers the value written (6 everywhere), as on a directory', async () => {
    const r = await tiles(['point', 'nwp', '--lat', '40', '--lon', '10', '--time', new Date(T0).toISOString(), '--var', 'temperature_2m', '--json']);
    expect(r.err).toBe('');
    expect(JSON.parse(r.out)).toEqual({ time: new Date(T0).toISOString(), values: { temperature_2m: 6 } });
    const missing = await tiles(['point', 'cams', '--lat', '40', '--lon', '10']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no such product 'cams'");
    expect(missing.err).toContain('the products there are nwp');
  });

  it('render of a product the bucket does not hold, or of an empty bucket prefix: the message a directory gives, naming the bucket', async () => {
    const where = env.METEOPUNTO_TILES!;
    const missing = await tiles(['render', 'cams', '--var', 'pm2p5']);
    expect(missing.code).toBe(1);
    expect(missing.err.trim()).toBe(`meteopunto tiles: no such product 'cams' in ${where}: the products there are nwp`);
    const saved = env;
    env = { ...env, ...s3.env(`empty-${randomBytes(4).toString('hex')}`) };
    try {
      const empty = await tiles(['render', 'nwp', '--var', 'temperature_2m']);
      expect(empty.code).toBe(1);
      expect(empty.err.trim()).toBe(`meteopunto tiles: no such product 'nwp' in ${env.METEOPUNTO_TILES}: it holds no product yet (\`meteopunto demo\` builds the sample)`);
    } finally {
      env = saved;
    }
  });

  it('render writes a PNG of the live version', async () => {
    const out = join(tmp, 'nwp.png');
    const r = await tiles(['render', 'nwp', '--var', 'temperature_2m', '--time', new Date(T0).toISOString(), '--out', out]);
    expect(r.code).toBe(0);
    expect(r.out).toContain('values 6..6 °C');
    expect(existsSync(out)).toBe(true);
  });

  it('gc --dry-run keeps the live version and the one replaced within the grace period', async () => {
    const r = await tiles(['gc', '--dry-run']);
    expect(r.code).toBe(0);
    expect(r.out.trim()).toBe('nothing to remove');
  });

  it('verify passes on the live version, then fails naming an object changed after publish', async () => {
    const ok = await tiles(['verify', 'nwp']);
    expect(ok.out).toMatch(new RegExp(`^ok nwp ${version}: \\d+ files, \\d+ chunks, checksums match`));
    expect(ok.code).toBe(0);
    const key = `nwp/${version}/temperature_2m/0.0.0`;
    const good = (await storage.get(key))!;
    const bad = Uint8Array.from(good);
    bad[bad.length - 1] ^= 0xff;
    await storage.put(key, bad);
    const failed = await tiles(['verify', 'nwp']);
    expect(failed.code).toBe(1);
    expect(failed.out).toContain('temperature_2m/0.0.0: checksum mismatch');
    await storage.put(key, good);
  });
});
