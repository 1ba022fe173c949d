/**
 * Atomic publish: readers in this process and in a child process never see
 * an error or a mixed version while versions are published and cleaned up;
 * a writer killed mid-write leaves the previous version live; clean-up only
 * removes provably dead temp dirs and versions past their grace period.
 */
import { createHash } from 'node:crypto';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, mkdirSync, writeFileSync, utimesSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { collectGarbage, DEFAULT_GRACE_MS } from '../../../tiles/ops/gc.js';
import { readManifestSync } from '../../../tiles/manifest-file.js';
import { productDir } from '../../../config/paths.js';
import { constantInput, T0, HOUR } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const REPO = resolve(import.meta.dirname, '../../..');
const CHILDREN = join(import.meta.dirname, 'children');

function tsChild(script: string, args: string[]): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', join(CHILDREN, script), ...args], { cwd: REPO, stdio: ['ignore', 'pipe', 'pipe'] });
}

function collect(child: ChildProcess): { lines: string[]; err: string[]; exited: Promise<number | null> } {
  const lines: string[] = [];
  const err: string[] = [];
  let buf = '';
  child.stdout!.on('data', (d: Buffer) => {
    buf += d.toString();
    const parts = buf.split('\n');
    buf = parts.pop()!;
    lines.push(...parts.filter(Boolean));
  });
  child.stderr!.on('data', (d: Buffer) => err.push(d.toString()));
  const exited = new Promise<number | null>((res) => child.on('exit', (code) => res(code)));
  return { lines, err, exited };
}

async function until(cond: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const start = Date.now();
  while (!cond()) {
    if (Date.now() - start > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const pair = (k: number) => `${k}|${-k}`;
const versions = (dir: string) => readdirSync(dir).filter((n) => n.endsWith('.zarr'));
const temps = (dir: string) => readdirSync(dir).filter((n) => n.startsWith('.tmp-'));

describe('atomic publish', () => {
  it('readers in-process and in a child process only ever see whole versions', async () => {
    const root = tempRoot('atomic');
    await writeProductVersion(root, constantInput('nwp', 0));
    const stopFile = join(root, 'stop');
    const child = tsChild('reader-loop.ts', [root, 'nwp', stopFile, String(T0 + 0.5 * HOUR)]);
    const out = collect(child);
    await until(() => out.lines.length > 0, 'the child reader to start');

    const reader = new TileStore(root, { manifestCheckMs: 0 });
    const seen = new Set<string>();
    const errors: unknown[] = [];
    let stop = false;
    let samples = 0;
    const points: [number, number][] = [[36.05, 7.05], [39.5, 12.3], [38.0, 10.2], [40.8, 7.3]];
    const loop = (async () => {
      while (!stop) {
        const [lat, lon] = points[samples++ % points.length]!;
        try {
          const s = await reader.sample('nwp', lat, lon, T0 + 0.5 * HOUR);
          seen.add(`${s.values.temperature_2m}|${s.values.elevation}`);
        } catch (err) {
          errors.push(err);
        }
        // A warm sample() settles in microtasks only: yield so timers and I/O (the writer) can run.
        await new Promise((r) => setImmediate(r));
      }
    })();

    const LAST = 8;
    for (let k = 1; k <= LAST; k++) {
      // graceMs 0: old versions are deleted at the next publish, while readers may still be on them.
      await writeProductVersion(root, constantInput('nwp', k), { graceMs: 0 });
    }
    await until(() => seen.has(pair(LAST)), 'the in-process reader to see the last version');
    await until(() => out.lines.some((l) => l.includes(`"${pair(LAST)}"`)), 'the child reader to see the last version');
    stop = true;
    await loop;
    writeFileSync(stopFile, '');
    expect(await out.exited).toBe(0);

    const valid = new Set(Array.from({ length: LAST + 1 }, (_, k) => pair(k)));
    expect(errors).toEqual([]);
    expect([...seen].filter((p) => !valid.has(p))).toEqual([]);
    expect(seen.size).toBeGreaterThan(2); // the loop really ran across switches
    const summary = JSON.parse(out.lines[out.lines.length - 1]!) as { done: boolean; samples: number; seen: string[]; errors: string[]; errorCount: number };
    expect(summary.errors).toEqual([]);
    expect(summary.errorCount).toBe(0);
    expect(summary.seen.filter((p) => !valid.has(p))).toEqual([]);
    expect(summary.samples).toBeGreaterThan(10);
    // Old versions were cleaned up: only the live one and at most one retiring one remain.
    expect(versions(productDir(root, 'nwp')).length).toBeLessThanOrEqual(2);
  });

  it('a writer killed mid-write leaves the previous version live; the next publish removes its temp dir', async () => {
    const root = tempRoot('killed');
    const first = await writeProductVersion(root, constantInput('nwp', 1));
    const dir = productDir(root, 'nwp');
    const child = tsChild('slow-writer.ts', [root, 'nwp', '2']);
    const out = collect(child);
    // Wait until the child is writing chunks into its temp dir, then kill it.
    let exited = false;
    void out.exited.then(() => (exited = true));
    await until(() => {
      if (exited) throw new Error(`the writer child exited before it was killed: ${out.lines.join(' ')} ${out.err.join('')}`);
      return temps(dir).some((t) => existsSync(join(dir, t, 'temperature_2m')) && readdirSync(join(dir, t, 'temperature_2m')).length > 5);
    }, 'the child to write chunks');
    child.kill('SIGKILL');
    await out.exited;
    expect(out.lines).not.toContain('done');

    expect(readManifestSync(dir)!.version).toBe(first.version);
    expect(versions(dir)).toEqual([first.version]);
    expect(temps(dir)).toHaveLength(1);
    const fresh = new TileStore(root);
    expect((await fresh.sample('nwp', 38, 10, T0)).values).toEqual({ temperature_2m: 1, elevation: -1 });

    await writeProductVersion(root, constantInput('nwp', 3));
    expect(temps(dir)).toEqual([]);
    expect((await new TileStore(root).sample('nwp', 38, 10, T0)).values).toEqual({ temperature_2m: 3, elevation: -3 });
  });
});

describe('clean-up', () => {
  function fakeTemp(dir: string, name: string, owner: { host: string; pid: number } | null, ageMs = 0): string {
    const p = join(dir, name);
    mkdirSync(join(p, 'temperature_2m'), { recursive: true });
    if (owner) writeFileSync(join(p, '.owner.json'), JSON.stringify({ ...owner, started: new Date().toISOString() }));
    const t = new Date(Date.now() - ageMs);
    if (owner) utimesSync(join(p, '.owner.json'), t, t);
    utimesSync(p, t, t);
    return p;
  }

  it('removes only provably dead temp dirs', async () => {
    const root = tempRoot('gc');
    await writeProductVersion(root, constantInput('nwp', 1));
    const dir = productDir(root, 'nwp');
    const sleeper = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)']);
    const dead = spawn(process.execPath, ['-e', '']);
    await new Promise((r) => dead.on('exit', r));
    // The host tag written independently of tiles/layout.ts: the first 8 hex digits of the host name's SHA-256.
    const tag = createHash('sha256').update(hostname()).digest('hex').slice(0, 8);
    const otherTag = createHash('sha256').update('elsewhere').digest('hex').slice(0, 8);
    try {
      fakeTemp(dir, '.tmp-alive', { host: hostname(), pid: sleeper.pid! });
      fakeTemp(dir, '.tmp-dead', { host: hostname(), pid: dead.pid! });
      fakeTemp(dir, '.tmp-otherhost', { host: 'elsewhere', pid: 1 });
      fakeTemp(dir, '.tmp-otherhost-silent', { host: 'elsewhere', pid: 1 }, 20 * 60_000);
      fakeTemp(dir, '.tmp-no-owner-young', null);
      fakeTemp(dir, '.tmp-no-owner-old', null, 20 * 60_000);
      // Killed before its owner record was written, or after it removed it to commit: the name tells.
      fakeTemp(dir, `.tmp-${dead.pid}-${tag}-0a1b`, null);
      fakeTemp(dir, `.tmp-${sleeper.pid}-${tag}-0a1b`, null);
      fakeTemp(dir, `.tmp-${dead.pid}-${otherTag}-0a1b`, null);
      // Two concurrent publishes in this process: neither removes the other's temp dir.
      await Promise.all([writeProductVersion(root, constantInput('nwp', 2)), writeProductVersion(root, constantInput('nwp', 3))]);
      expect(temps(dir).sort()).toEqual(
        ['.tmp-alive', '.tmp-no-owner-young', '.tmp-otherhost', `.tmp-${sleeper.pid}-${tag}-0a1b`, `.tmp-${dead.pid}-${otherTag}-0a1b`].sort(),
      );
      const live = readManifestSync(dir)!;
      expect((await new TileStore(root).sample('nwp', 38, 10, T0)).values.temperature_2m).toBe(live.source.note === 'constant 2' ? 2 : 3);
    } finally {
      sleeper.kill('SIGKILL');
    }
  });

  it('keeps replaced versions for the grace period, never the live one, and ignores orphans', async () => {
    const root = tempRoot('grace');
    const dir = productDir(root, 'nwp');
    const v1 = await writeProductVersion(root, constantInput('nwp', 1));
    // An orphan: a complete-looking version no manifest names (crash between rename and manifest write).
    const orphan = '20200101T000000Z-abcdef.zarr';
    mkdirSync(join(dir, orphan, 'temperature_2m'), { recursive: true });
    const v2 = await writeProductVersion(root, constantInput('nwp', 2));
    expect(versions(dir).sort()).toEqual([orphan, v1.version, v2.version].sort());
    expect(existsSync(join(dir, `${v1.version}.retired`))).toBe(true);
    expect((await new TileStore(root).sample('nwp', 38, 10, T0)).values.temperature_2m).toBe(2);

    const r = await collectGarbage(dir, { now: Date.now() + DEFAULT_GRACE_MS + 1000 });
    expect(r.removedVersions.sort()).toEqual([orphan, v1.version].sort());
    expect(versions(dir)).toEqual([v2.version]);
    expect(readdirSync(dir).filter((n) => n.endsWith('.retired'))).toEqual([]);
  });

  it('rejects invalid input before touching the live version', async () => {
    const root = tempRoot('invalid');
    const v1 = await writeProductVersion(root, constantInput('nwp', 1));
    const bad = constantInput('nwp', 2);
    bad.variables.temperature_2m!.values.pop();
    await expect(writeProductVersion(root, bad)).rejects.toThrow(/temperature_2m.*time steps/);
    await expect(writeProductVersion(root, { ...constantInput('nwp', 2), product: '../x' })).rejects.toThrow(/product name/);
    const dir = productDir(root, 'nwp');
    expect(readManifestSync(dir)!.version).toBe(v1.version);
    expect(temps(dir)).toEqual([]);
  });
});

describe('retired versions are bounded by count and size, not only by time', () => {
  it('eight publishes within the grace period leave the live version and the three newest retired ones', async () => {
    const root = tempRoot('bound');
    const published: string[] = [];
    for (let k = 1; k <= 8; k++) published.push((await writeProductVersion(root, constantInput('nwp', k))).version);
    const dir = productDir(root, 'nwp');
    // Right after the publishes the retired versions are younger than the 10 s floor: kept (all 8 unless the machine took > 10 s).
    expect(versions(dir).length).toBeGreaterThanOrEqual(4);
    // A minute later (far inside the 10 min grace) the count bound applies.
    const report = await collectGarbage(dir, { now: Date.now() + 60_000 });
    expect(report.removedVersions.every((v) => published.slice(0, 4).includes(v))).toBe(true);
    expect(versions(dir).sort()).toEqual(published.slice(4).sort());
    expect(readManifestSync(dir)!.version).toBe(published[7]);
    // The size bound: at most one live version's size in retired versions leaves one.
    await collectGarbage(dir, { now: Date.now() + 60_000, maxRetiredSizeFactor: 1 });
    expect(versions(dir).sort()).toEqual(published.slice(6).sort());
    expect((await new TileStore(root).sample('nwp', 38, 10, T0)).values).toEqual({ temperature_2m: 8, elevation: -8 });
  });
});
