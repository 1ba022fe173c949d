/**
 * The embedded key file under concurrent CLI processes: every key printed is
 * kept (its SHA-256, computed here, is in keys.json), and a revocation racing
 * with creations is never undone. Before the lock, ten parallel creates kept
 * about half of the keys.
 */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', '..', '..', 'dist', 'cli', 'main.js');

function keys(dir: string, ...args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  return new Promise((resolve) => {
    const p = spawn(process.execPath, [CLI, 'keys', ...args], { env: { PATH: process.env.PATH ?? '', METEOPUNTO_DATA: dir } });
    let out = '';
    let err = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.stderr.on('data', (d: Buffer) => (err += d.toString()));
    p.on('close', (code) => resolve({ code, out, err }));
  });
}

const printedKey = (out: string) => /^key:\s+(mp_\S+)$/m.exec(out)?.[1];
const stored = (dir: string) => (JSON.parse(readFileSync(join(dir, 'keys.json'), 'utf8')) as { keys: Array<{ prefix: string; hash: string; revoked?: boolean | string }> }).keys;
const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');

describe('keys.json under concurrent processes', () => {
  const dirs: string[] = [];
  const fresh = () => {
    const d = mkdtempSync(join(tmpdir(), 'mp-keyrace-'));
    dirs.push(d);
    return d;
  };
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('ten parallel creates: ten keys printed, ten kept', async () => {
    const dir = fresh();
    const runs = await Promise.all(Array.from({ length: 10 }, () => keys(dir, 'create', '--plan', 'free')));
    expect(runs.map((r) => r.code)).toEqual(Array(10).fill(0));
    const printed = runs.map((r) => printedKey(r.out)!);
    expect(new Set(printed).size).toBe(10);
    const hashes = new Set(stored(dir).map((k) => k.hash));
    expect(printed.filter((k) => !hashes.has(sha256(k)))).toEqual([]);
  });

  it('a revocation racing with creates stays revoked', async () => {
    const dir = fresh();
    const first = printedKey((await keys(dir, 'create', '--plan', 'developer')).out)!;
    const prefix = first.slice(3, 11);
    const before = Date.now();
    const runs = await Promise.all([keys(dir, 'revoke', prefix), ...Array.from({ length: 6 }, () => keys(dir, 'create', '--plan', 'free'))]);
    expect(runs.map((r) => r.code)).toEqual(Array(7).fill(0));
    const all = stored(dir);
    expect(all).toHaveLength(7);
    // Revoked at the time of the revoke command (ISO 8601, whole ms).
    const revoked = Date.parse(String(all.find((k) => k.prefix === prefix)!.revoked));
    expect(revoked).toBeGreaterThanOrEqual(before);
    expect(revoked).toBeLessThanOrEqual(Date.now());
  });
});
