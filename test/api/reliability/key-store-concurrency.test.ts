/**
 * Issue 16 item 2: parallel `meteopunto keys` processes on the embedded key
 * file (no Redis). Every key printed must be in keys.json afterwards (checked
 * by SHA-256 of the printed key, computed here), and no revocation may be
 * undone by a create running at the same time. Spawns the built CLI (dist/).
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

const run = promisify(execFile);
const CLI = resolve('dist/cli/main.js');
const PARALLEL = 10;

interface StoredKey {
  prefix: string;
  hash: string;
  revoked?: string;
}

async function keys(dataDir: string, args: string[]): Promise<string> {
  const env = { ...process.env, METEOPUNTO_DATA: dataDir };
  delete env.REDIS_URL;
  const { stdout } = await run(process.execPath, [CLI, 'keys', ...args], { env });
  return stdout;
}

const printedKey = (out: string) => /^key:\s+(mp_\S+)$/m.exec(out)![1]!;
const stored = (dataDir: string) => (JSON.parse(readFileSync(join(dataDir, 'keys.json'), 'utf8')) as { keys: StoredKey[] }).keys;
const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

describe('embedded key file under concurrent CLI processes', () => {
  it(`keeps all ${PARALLEL} keys created in parallel`, async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mp-keys-par-'));
    const outs = await Promise.all(Array.from({ length: PARALLEL }, () => keys(dataDir, ['create', '--plan', 'free'])));
    const hashes = new Set(stored(dataDir).map((k) => k.hash));
    const printed = outs.map(printedKey);
    expect(new Set(printed).size).toBe(PARALLEL);
    for (const k of printed) expect(hashes.has(sha256(k))).toBe(true);
  }, 60_000);

  it('never undoes a revocation made while other keys are created', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'mp-keys-rev-'));
    const first: string[] = [];
    for (let i = 0; i < 4; i++) first.push(/^prefix:\s+(\S+)$/m.exec(await keys(dataDir, ['create', '--plan', 'free']))![1]!);
    await Promise.all([
      ...first.map((p) => keys(dataDir, ['revoke', p])),
      ...Array.from({ length: 6 }, () => keys(dataDir, ['create', '--plan', 'developer'])),
    ]);
    const byPrefix = new Map(stored(dataDir).map((k) => [k.prefix, k]));
    expect(byPrefix.size).toBe(10);
    for (const p of first) expect(byPrefix.get(p)?.revoked, p).toBeTruthy();
  }, 60_000);
});
