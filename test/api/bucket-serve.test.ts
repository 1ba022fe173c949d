/**
 * `meteopunto serve` with its tiles in a bucket (METEOPUNTO_TILES=s3://…,
 * s3rver on loopback), as a real process: /healthz lists the products
 * published into the bucket, with their versions, from a data directory
 * that holds no tiles; and the bucket's secret key, sent in a request the
 * server logs, never reaches a log line in any encoding.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3Server, type S3TestServer } from '../support/s3-server.js';
import { freePort } from '../support/redis-server.js';
import { leaksOf } from '../support/secret-leaks.js';
import { readManifest } from '../../tiles/manifest-file.js';
import { tempDataDir, writeDem, writeMainNwp, installTestKey } from './tile-fixture.js';

const ROOT = resolve(import.meta.dirname, '../..');
let s3: S3TestServer;
let server: ChildProcess;
let base: string;
let log = '';
const data = tempDataDir();
const prefix = `serve-${randomBytes(4).toString('hex')}`;

beforeAll(async () => {
  s3 = await startS3Server();
  const storage = s3.storage(prefix);
  await writeMainNwp(storage);
  await writeDem(storage);
  await installTestKey(data.dir);
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ['dist/cli/main.js', 'serve', '--port', String(port), '--host', '127.0.0.1'], {
    cwd: ROOT, env: { ...process.env, REDIS_URL: '', METEOPUNTO_DATA: data.dir, METEOPUNTO_LOG_FORMAT: 'json', LOG_LEVEL: 'info', ...s3.env(prefix) }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  server.stdout!.on('data', (d: Buffer) => (log += d.toString()));
  server.stderr!.on('data', (d: Buffer) => (log += d.toString()));
  const until = Date.now() + 60_000;
  for (;;) {
    // The fixture's forecast is in the past, so /healthz says 503 (now not covered) once the bucket is read.
    const r = await fetch(`${base}/healthz`).catch(() => null);
    const body = r ? ((await r.json().catch(() => null)) as { products?: Record<string, { available: boolean }> } | null) : null;
    if (body?.products?.nwp?.available) break;
    if (Date.now() > until) throw new Error(`serve on the bucket never became ready:\n${log}`);
    await new Promise((ok) => setTimeout(ok, 200));
  }
}, 90_000);
afterAll(async () => {
  if (server && server.exitCode === null) {
    server.kill('SIGTERM');
    await new Promise((ok) => server.once('exit', ok));
  }
  await s3?.close();
  data.cleanup();
});

describe('serve with the tiles in a bucket', () => {
  it('healthz lists the products published into the bucket, at their live versions', async () => {
    const h = (await (await fetch(`${base}/healthz`)).json()) as { products: Record<string, { version: string | null }> };
    const storage = s3.storage(prefix);
    expect(Object.keys(h.products).sort()).toEqual(['dem', 'nwp']);
    expect(h.products.nwp!.version).toBe((await readManifest(storage, 'nwp'))!.version);
    expect(h.products.dem!.version).toBe((await readManifest(storage, 'dem'))!.version);
  });

  it('the bucket secret, sent in a logged request, is in no log line', async () => {
    const secret = s3.credentials.secretAccessKey;
    // As written and with every character percent-encoded, as a client may send it.
    const all = [...Buffer.from(secret)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join('');
    const r = await fetch(`${base}/healthz?note=${secret}&again=${all}`);
    expect([200, 503]).toContain(r.status);
    await new Promise((ok) => setTimeout(ok, 300)); // the request line is written after the answer
    expect(log).toContain('/healthz');
    expect(leaksOf(log, secret)).toEqual([]);
  });
});
