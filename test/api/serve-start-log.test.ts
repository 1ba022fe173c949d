/** What `meteopunto serve` logs at start about its tile store: one reason, the right one. */
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const data = mkdtempSync(join(tmpdir(), 'mp-start-log-'));
afterAll(() => rmSync(data, { recursive: true, force: true }));

/** A loopback port nothing listens on (bound, then released). */
async function closedPort(): Promise<number> {
  const s = createServer();
  await new Promise<void>((ok) => s.listen(0, '127.0.0.1', ok));
  const port = (s.address() as { port: number }).port;
  await new Promise<void>((ok) => s.close(() => ok()));
  return port;
}

/** Run serve (stdout a pipe: JSON log lines) until it logs its cache budget (it is listening by then), and return the log messages. */
async function startLog(env: Record<string, string>): Promise<string[]> {
  const child = spawn(process.execPath, [cli, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { PATH: process.env.PATH ?? '', METEOPUNTO_DATA: data, ...env }, stdio: ['ignore', 'pipe', 'pipe'],
  });
  const msgs: string[] = [];
  let out = '';
  try {
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => fail(new Error(`serve did not log its cache budget within 60 s:\n${out}`)), 60_000);
      child.stdout.on('data', (b: Buffer) => {
        out += b.toString();
        const lines = out.split('\n');
        out = lines.pop()!;
        for (const l of lines) {
          const msg = (JSON.parse(l) as { msg: string }).msg;
          msgs.push(msg);
          if (msg === 'tile cache budget') { clearTimeout(timer); ok(); }
        }
      });
      child.on('exit', (code) => { clearTimeout(timer); fail(new Error(`serve exited ${code}:\n${out}`)); });
    });
  } finally {
    child.kill('SIGKILL');
  }
  return msgs;
}

describe('serve at start', () => {
  it('an unreachable bucket is named once as the reason, without a second "nothing published" warning', async () => {
    const msgs = await startLog({
      METEOPUNTO_TILES: 's3://mp-tiles/p', AWS_ENDPOINT_URL: `http://127.0.0.1:${await closedPort()}`,
      AWS_ACCESS_KEY_ID: 'test', AWS_SECRET_ACCESS_KEY: 'test', METEOPUNTO_TILES_TIMEOUT_MS: '300',
    });
    expect(msgs.filter((m) => m.includes('unreachable at start'))).toHaveLength(1);
    expect(msgs.filter((m) => m.startsWith('no forecast data published yet'))).toEqual([]);
  }, 90_000);

  it('an empty, reachable directory says nothing is published yet', async () => {
    const msgs = await startLog({});
    expect(msgs.filter((m) => m.startsWith('no forecast data published yet'))).toHaveLength(1);
    expect(msgs.filter((m) => m.includes('unreachable at start'))).toEqual([]);
  }, 90_000);
});
