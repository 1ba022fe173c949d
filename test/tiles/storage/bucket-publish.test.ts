/**
 * Publishing into a bucket (s3rver on loopback, the real AWS SDK): a real
 * GRIB file ingested by `meteopunto ingest` into a bucket reads back exactly
 * as the same ingest into a directory; two writers racing for one store, one
 * wins; a writer SIGKILLed in either phase of a publish (uploading, or with
 * the switch to write) leaves the live version whole, and gc removes what it
 * left after the grace period.
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { dataFile, describeShared } from '../../support/shared-data.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { PublishConflict } from '../../../tiles/write/publish.js';
import { readManifest } from '../../../tiles/manifest-file.js';
import { planBucketGc, collectBucketGarbage, bucketVersions } from '../../../tiles/ops/bucket-gc.js';
import { redisLock } from '../../../tiles/storage/redis-lock.js';
import { constantInput, T0 } from '../fields.js';

const ROOT = resolve(import.meta.dirname, '../../..');
let s3: S3TestServer;
const dirs: string[] = [];
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

function tempDir(): string {
  const d = mkdtempSync(join(tmpdir(), 'mp-bucket-'));
  dirs.push(d);
  return d;
}

/** The CLI in a child process; asynchronous, since the S3 server answers from this process's event loop. */
function cli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
    cwd: ROOT, env: { ...process.env, REDIS_URL: '', METEOPUNTO_TILES: '', ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((ok) => child.on('close', (code) => ok({ code: code ?? -1, stdout, stderr })));
}

const fresh = () => `t-${randomBytes(4).toString('hex')}`;

describeShared('a real ingest into a bucket', () => {
  it('reads back exactly as the same ingest into a directory (every variable, 40 points, 3 times)', async () => {
    const file = dataFile('ifs-hres-t2m-italy/alternate-scanning.grib');
    const local = tempDir();
    const prefix = fresh();
    expect((await cli(['ingest', 'nwp', file, '--quiet'], { METEOPUNTO_DATA: local })).code).toBe(0);
    const r = await cli(['ingest', 'nwp', file, '--quiet'], { METEOPUNTO_DATA: tempDir(), ...s3.env(prefix) });
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);

    const bucket = s3.storage(prefix);
    // The objects are the store's files: the live version's keys, as in the directory.
    const m = (await readManifest(bucket, 'nwp'))!;
    expect((await bucket.list(`nwp/${m.version}/`)).map((o) => o.key.split('/').slice(2).join('/'))).toContain('.zmetadata');
    const a = new TileStore(local);
    const b = new TileStore(bucket);
    await b.ready(['nwp']);
    const mLocal = a.manifest('nwp')!;
    expect(b.manifest('nwp')!.times).toEqual(mLocal.times);
    expect(Object.keys(b.manifest('nwp')!.variables)).toEqual(Object.keys(mLocal.variables));
    const t = mLocal.times.map((s) => Date.parse(s));
    const times = [t[0]!, (t[0]! + t[t.length - 1]!) / 2, t[t.length - 1]!];
    let compared = 0;
    for (let k = 0; k < 40; k++) {
      const lat = 37 + 9 * ((k * 0.618034) % 1);
      const lon = 7.5 + 10 * ((k * 0.414214) % 1);
      for (const time of times) {
        const va = await a.sample('nwp', lat, lon, time);
        const vb = await b.sample('nwp', lat, lon, time);
        expect(vb).toEqual(va);
        compared += Object.values(va.values).filter((v) => v !== null).length;
      }
    }
    expect(compared).toBeGreaterThan(100);
  });
});

describe('publishing into a bucket', () => {
  it('two writers racing for one store from the same manifest: exactly one wins, the loser\'s upload is removed', async () => {
    const prefix = fresh();
    const lock = redisLock(inject('redisUrl'), `mp-test-${prefix}`);
    const first = s3.storage(prefix, { lock });
    await writeProductVersion(first, constantInput('nwp', 1));
    // Two processes' worth of writers: each its own client, poller and staging directory.
    const w1 = s3.storage(prefix, { lock });
    const w2 = s3.storage(prefix, { lock });
    const results = await Promise.allSettled([writeProductVersion(w1, constantInput('nwp', 2)), writeProductVersion(w2, constantInput('nwp', 3))]);
    const won = results.filter((r) => r.status === 'fulfilled');
    const lost = results.filter((r) => r.status === 'rejected');
    expect(won).toHaveLength(1);
    expect(lost).toHaveLength(1);
    expect((lost[0] as PromiseRejectedResult).reason).toBeInstanceOf(PublishConflict);
    const winner = (won[0] as PromiseFulfilledResult<{ version: string }>).value.version;
    expect((await readManifest(first, 'nwp'))!.version).toBe(winner);
    // The first version (replaced, within its grace period) and the winner are there; the loser's prefix is not.
    expect((await bucketVersions(first, 'nwp', winner)).map((v) => v.name)).toHaveLength(2);
    const store = new TileStore(first);
    const k = results.findIndex((r) => r.status === 'fulfilled') === 0 ? 2 : 3;
    expect((await store.sample('nwp', 40, 10, T0)).values.temperature_2m).toBeCloseTo(k, 2);
  });

  /** Starts the writer child on the bucket under `prefix` and SIGKILLs it once `until` holds for what it printed. */
  async function killWriter(prefix: string, until: (out: string) => boolean, env: Record<string, string> = {}): Promise<string> {
    const child = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'children', 'bucket-writer.ts')], {
      cwd: ROOT, env: { ...process.env, REDIS_URL: '', METEOPUNTO_DATA: tempDir(), ...s3.env(prefix), ...env }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => (err += d.toString()));
    const exited = new Promise((r) => child.once('exit', r));
    await new Promise<void>((ok, fail) => {
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (until(out)) {
          child.kill('SIGKILL');
          ok();
        }
      });
      child.on('exit', () => fail(new Error(`writer exited before it was killed: ${out.slice(-300)} ${err}`)));
    });
    await exited;
    return out;
  }
  const puts = (out: string) => out.split('\n').filter((l) => l.startsWith('put ')).length;

  it('a writer SIGKILLed while uploading leaves the live version whole; gc removes its partial prefix after the grace period', async () => {
    const prefix = fresh();
    const storage = s3.storage(prefix);
    const live = await writeProductVersion(storage, constantInput('nwp', 7));
    await killWriter(prefix, (out) => puts(out) >= 6);

    const versions = await bucketVersions(storage, 'nwp', live.version);
    const partial = versions.filter((v) => !v.live);
    expect(partial).toHaveLength(1);
    expect(partial[0]!.objects).toBeGreaterThanOrEqual(6);
    expect((await readManifest(storage, 'nwp'))!.version).toBe(live.version);
    const store = new TileStore(storage);
    expect((await store.sample('nwp', 40, 10, T0)).values.temperature_2m).toBeCloseTo(7, 2);

    // Within the grace period the partial upload is left alone (its writer might be alive); after it, it goes.
    expect(await planBucketGc(storage, 'nwp')).toEqual([]);
    const later = partial[0]!.newestMs + 10 * 60_000 + 1000;
    expect((await planBucketGc(storage, 'nwp', later)).map((a) => a.name)).toEqual([partial[0]!.name]);
    expect(await collectBucketGarbage(storage, 'nwp', { now: later })).toEqual([partial[0]!.name]);
    expect((await bucketVersions(storage, 'nwp', live.version)).map((v) => v.name)).toEqual([live.version]);
    expect((await new TileStore(storage).sample('nwp', 40, 10, T0)).values.temperature_2m).toBeCloseTo(7, 2);
  });
  it('a writer SIGKILLed with every object uploaded and the switch next leaves the live version whole; gc removes the orphaned version after the grace period', async () => {
    const prefix = fresh();
    const storage = s3.storage(prefix);
    const live = await writeProductVersion(storage, constantInput('nwp', 7));
    const out = await killWriter(prefix, (o) => /^switch nwp\/current\.json$/m.test(o), { WRITER_HOLD_SWITCH: '1' });
    expect(out).not.toMatch(/^done$/m);

    // The killed writer's version is all there (every object it uploaded, its .zmetadata among them), but no manifest names it.
    const orphan = (await bucketVersions(storage, 'nwp', live.version)).filter((v) => !v.live);
    expect(orphan).toHaveLength(1);
    expect(orphan[0]!.objects).toBe(puts(out));
    expect(out).toContain(`put nwp/${orphan[0]!.name}/.zmetadata`);
    expect((await readManifest(storage, 'nwp'))!.version).toBe(live.version);
    const store = new TileStore(storage);
    expect((await store.sample('nwp', 40, 10, T0)).values.temperature_2m).toBeCloseTo(7, 2);

    // It is the newest name, so it counts as a writer possibly still at work until the grace period has passed.
    expect(await planBucketGc(storage, 'nwp')).toEqual([]);
    const later = orphan[0]!.newestMs + 10 * 60_000 + 1000;
    expect(await collectBucketGarbage(storage, 'nwp', { now: later })).toEqual([orphan[0]!.name]);
    expect((await bucketVersions(storage, 'nwp', live.version)).map((v) => v.name)).toEqual([live.version]);
    expect((await new TileStore(storage).sample('nwp', 40, 10, T0)).values.temperature_2m).toBeCloseTo(7, 2);
  });
});
