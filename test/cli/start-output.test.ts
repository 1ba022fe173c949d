/**
 * What `meteopunto start` shows a person at a terminal: the real process
 * under a pseudo-terminal (util-linux `script`), over a published store.
 * Readable log lines, not JSON; one line per request, keys cut to their
 * prefix; the demo key printed in full, last, after the server's lines, and
 * no key file. (Without a terminal: test/cli/ingest-cli.test.ts.) And the
 * sample build's account: a bar and one line, not a line per stage and an
 * ingest report per product.
 */
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sampleProgress } from '../../cli/sample-progress.js';
import { buildSampleDataset } from '../../ingest/sample/build.js';
import { freePort } from '../support/redis-server.js';
import { tempDataDir, writeMainNwp } from '../api/tile-fixture.js';

const ROOT = resolve(import.meta.dirname, '../..');
// eslint-disable-next-line no-control-regex
const ANSI = /\x1b\[[0-9;?]*[A-Za-z]/g;
const hasScript = existsSync('/usr/bin/script');

async function until(what: string, ok: () => boolean | Promise<boolean>, tries = 160): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (await ok()) return;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe.skipIf(!hasScript)('meteopunto start at a terminal', () => {
  it('logs readable lines, one per request, and prints the demo key last, in full, writing no key file', async () => {
    const data = tempDataDir();
    await writeMainNwp(data.dir);
    const port = await freePort();
    const command = `${process.execPath} --import tsx cli/main.ts start --port ${port}`;
    // Its own process group, so that stopping it stops the server under `script` too.
    const child = spawn('script', ['-qfec', command, '/dev/null'], {
      cwd: ROOT, detached: true, env: { ...process.env, METEOPUNTO_DATA: data.dir, REDIS_URL: '', LOG_LEVEL: 'info', METEOPUNTO_LOG_FORMAT: '' }, stdio: ['pipe', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const text = () => out.replace(ANSI, '').replace(/\r/g, '');
    try {
      await until('the demo key', () => /demo API key/.test(text()));
      const key = /demo API key \(business plan, shown once, stored hashed\): (mp_\w{40})\n/.exec(text())?.[1];
      expect(key, text()).toBeDefined();
      const base = `http://127.0.0.1:${port}`;
      // With the key in the URL (the log shows its prefix only) and in the header (never logged).
      await fetch(`${base}/api/v1/weather.php?lat=43.1&lon=11.2&api_key=${key}`);
      await fetch(`${base}/api/v1/weather.php?lat=43.2&lon=11.3`, { headers: { 'x-api-key': key! } });
      await fetch(`${base}/`);
      await until('three request lines', () => (text().match(/ (GET) \//g) ?? []).length >= 3);
      const lines = text().split('\n').filter((l) => l.trim() !== '');
      // Readable lines: no JSON object per line, no Fastify "incoming request"/"request completed" pair.
      expect(lines.filter((l) => l.trim().startsWith('{'))).toEqual([]);
      expect(text()).not.toMatch(/incoming request|request completed/);
      // One line per request: method, URL (key cut to its prefix), status, milliseconds.
      const requests = lines.filter((l) => /INFO.*: (GET|HEAD) \//.test(l));
      expect(requests).toHaveLength(3);
      expect(requests[0]).toMatch(new RegExp(`GET /api/v1/weather\\.php\\?lat=43\\.1&lon=11\\.2&api_key=${key!.slice(0, 11)}… \\d{3} \\d+\\.\\d ms$`));
      expect(requests[1]).toMatch(/GET \/api\/v1\/weather\.php\?lat=43\.2&lon=11\.3 \d{3} \d+\.\d ms$/);
      expect(requests[2]).toMatch(/GET \/ 200 \d+\.\d ms$/);
      // The key is printed once, after every start-up line of the server and before the first request.
      const keyAt = lines.findIndex((l) => l.includes(key!));
      expect(lines.filter((l) => l.includes(key!.slice(11)))).toHaveLength(2); // the key line and its curl
      expect(lines.findIndex((l) => /Server listening|tile cache budget/.test(l))).toBeLessThan(keyAt);
      expect(lines.findIndex((l) => l.includes('GET /'))).toBeGreaterThan(keyAt);
      expect(existsSync(join(data.dir, 'demo-key.txt'))).toBe(false);
    } finally {
      try {
        process.kill(-child.pid!, 'SIGTERM');
      } catch {
        // already gone
      }
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
      data.cleanup();
    }
  });
});

describe('the sample build as start shows it', () => {
  const grid = { kind: 'regular_ll', nx: 40, ny: 30, x0: 10, y0: 43, dx: 0.1, dy: 0.1 } as const;

  async function build(tty: boolean): Promise<string> {
    const data = tempDataDir();
    const out = Object.assign(new PassThrough(), { isTTY: tty, columns: 100 });
    let text = '';
    out.on('data', (b: Buffer) => (text += b.toString()));
    try {
      const progress = await sampleProgress(out as unknown as NodeJS.WriteStream);
      const result = await buildSampleDataset({ root: data.dir, hoursAhead: 3, nwpGrid: grid, demGrid: grid, products: ['nwp', 'dem'], onProgress: progress.onProgress });
      progress.finish({ result, elapsedMs: 1234 });
      return text;
    } finally {
      data.cleanup();
    }
  }

  it('without a terminal: one line when it is built, naming the products, not a line per stage nor the ingest reports', async () => {
    const text = await build(false);
    expect(text.split('\n').filter(Boolean)).toEqual(['SAMPLE data built in 1 s (synthetic, not a forecast): nwp, dem; details: meteopunto tiles ls']);
  });

  it('at a terminal: one bar redrawn in place (not a newline until it ends), then that line', async () => {
    const text = await build(true);
    expect(text).toMatch(/sample data \[.*\] 0\/2 nwp: generating/);
    expect(text).toMatch(/sample data \[.*\] 1\/2 dem: ingesting/);
    expect(text.split('\n')).toHaveLength(2);
    expect(text.endsWith('SAMPLE data built in 1 s (synthetic, not a forecast): nwp, dem; details: meteopunto tiles ls\n')).toBe(true);
  });
});
