/**
 * `meteopunto start` with METEOPUNTO_TILES=s3://… on a fresh data directory
 * (s3rver on loopback): it builds the sample into the bucket through the real
 * ingest path, leaves no tiles in the data directory, and serves from the
 * bucket: weather.php at the grid's own altitude answers the bucket's 2 m
 * temperature.
 *
 * It takes about 5 minutes on the 2-core development machine (the full
 * sample's objects uploaded one by one to s3rver, which writes each as files
 * with its metadata), so it runs when MP_SLOW_BUCKET_TESTS=1 (docs/development.md).
 */
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../support/s3-server.js';
import { freePort } from '../support/redis-server.js';
import { tempDataDir } from '../api/tile-fixture.js';
import { TileStore } from '../../tiles/read/reader.js';
import { readManifest } from '../../tiles/manifest-file.js';

const ROOT = resolve(import.meta.dirname, '../..');
let s3: S3TestServer;
const data = tempDataDir();
beforeAll(async () => {
  s3 = await startS3Server();
});
afterAll(async () => {
  await s3?.close();
  data.cleanup();
});

describe.skipIf(process.env.MP_SLOW_BUCKET_TESTS !== '1')('meteopunto start with the tiles in a bucket (MP_SLOW_BUCKET_TESTS=1)', () => {
  it('builds the sample into the bucket and serves it', async () => {
    const prefix = `start-${randomBytes(4).toString('hex')}`;
    const port = await freePort();
    const child = spawn(process.execPath, ['dist/cli/main.js', 'start', '--port', String(port)], {
      cwd: ROOT, env: { ...process.env, METEOPUNTO_DATA: data.dir, REDIS_URL: '', LOG_LEVEL: 'warn', ...s3.env(prefix) }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    try {
      const file = join(data.dir, 'demo-key.txt');
      for (let i = 0; i < 1200 && !/demo API key/.test(out); i++) await new Promise((r) => setTimeout(r, 250));
      expect(out).toMatch(new RegExp(`no tiles in s3://${s3.bucket}/${prefix}: building the SAMPLE dataset`));
      expect(existsSync(file), out).toBe(true);
      const storage = s3.storage(prefix);
      const m = (await readManifest(storage, 'nwp'))!;
      expect(m.source.sample).toBe(true);
      // Nothing published in the data directory: versions were only staged there.
      expect(existsSync(join(data.dir, 'tiles'))).toBe(false);
      const key = readFileSync(file, 'utf8').trim();
      const base = `http://127.0.0.1:${port}`;
      const res = await fetch(`${base}/api/v1/weather.php?lat=41.9&lon=12.5`, { headers: { 'X-API-Key': key } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { valid_time: string; temperature_source: string };
      expect(body.temperature_source).toMatch(/sample/);
      const v = (await new TileStore(storage).sample('nwp', 41.9, 12.5, Date.parse(body.valid_time))).values;
      const atGrid = (await (await fetch(`${base}/api/v1/weather.php?lat=41.9&lon=12.5&alt=${v.elevation}`, { headers: { 'X-API-Key': key } })).json()) as { temperature: number };
      expect(atGrid.temperature).toBeCloseTo(v.temperature_2m!, 1);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  }, 400_000);
});
