/**
 * The systemd units of deploy/systemd/ and the environment file they read
 * (docs/deploy.md): systemd's own checker accepts them without a warning;
 * every variable they set is one Meteopunto declares; and each unit's
 * ExecStart, run as the unit runs it (its Environment=, paths moved to this
 * checkout and a temp data directory), starts the process it names, which
 * then stops on the unit's KillSignal with exit 0 within its TimeoutStopSec.
 */
import { spawn, spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, inject, it } from 'vitest';
import { variableSpec } from '../../config/env-variables.js';
import { freePort } from '../support/redis-server.js';

const REPO = resolve(import.meta.dirname, '../..');
const UNITS = join(REPO, 'deploy', 'systemd');
const INSTALLED = '/opt/meteopunto';
const STATE = '/var/lib/meteopunto';
const hasAnalyze = existsSync('/usr/bin/systemd-analyze');

type Unit = Record<string, Record<string, string[]>>;

/** A unit file's sections and their settings (systemd.syntax(7): `#`/`;` comments, `\` continuations, repeated keys kept in order). */
function parseUnit(text: string): Unit {
  const unit: Unit = {};
  let section = '';
  for (const raw of text.replace(/\\\n/g, ' ').split('\n')) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#') || line.startsWith(';')) continue;
    const header = /^\[(.+)\]$/.exec(line);
    if (header) {
      section = header[1]!;
      unit[section] ??= {};
      continue;
    }
    const eq = line.indexOf('=');
    if (eq < 0 || !section) throw new Error(`not a setting: ${line}`);
    (unit[section]![line.slice(0, eq).trim()] ??= []).push(line.slice(eq + 1).trim());
  }
  return unit;
}

const unitFiles = readdirSync(UNITS).filter((f) => f.endsWith('.service'));
const units = Object.fromEntries(unitFiles.map((f) => [f, parseUnit(readFileSync(join(UNITS, f), 'utf8'))]));
const instance = (file: string, name: string) => file.replace('@.service', `@${name}.service`);

/** systemd's `Environment=` assignments (unquoted words here). */
function environment(service: Record<string, string[]>): Record<string, string> {
  const words = (service.Environment ?? []).flatMap((l) => l.split(/\s+/));
  expect(words.every((w) => /^[A-Z_][A-Z0-9_]*=[^"'\\]*$/.test(w)), 'plain NAME=value words').toBe(true);
  return Object.fromEntries(words.map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]));
}

/** Seconds of a systemd time span such as `30`, `90s` or `2min`. */
function seconds(span: string): number {
  const m = /^(\d+)\s*(s|sec|min|m)?$/.exec(span);
  if (!m) throw new Error(`time span '${span}' not understood here`);
  return Number(m[1]) * (m[2] === 'min' || m[2] === 'm' ? 60 : 1);
}

describe('deploy/systemd', () => {
  const dirs: string[] = [];
  afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

  it('holds the API and worker units', () => {
    expect(unitFiles.sort()).toEqual(['meteopunto-api@.service', 'meteopunto-worker@.service']);
  });

  it.skipIf(!hasAnalyze)(`systemd-analyze verify accepts each unit, instantiated, without a warning${hasAnalyze ? '' : ' (skipped: no /usr/bin/systemd-analyze, Debian package systemd)'}`, () => {
    const dir = mkdtempSync(join(tmpdir(), 'mp-units-'));
    dirs.push(dir);
    const files = unitFiles.map((f) => {
      const to = join(dir, instance(f, '8081'));
      copyFileSync(join(UNITS, f), to);
      return to;
    });
    const r = spawnSync('/usr/bin/systemd-analyze', ['verify', ...files], { encoding: 'utf8', timeout: 60_000 });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });

  it('every variable set by the units and deploy/meteopunto.env.example is one Meteopunto reads', () => {
    const example = readFileSync(join(REPO, 'deploy', 'meteopunto.env.example'), 'utf8')
      .split('\n')
      .filter((l) => l.trim() !== '' && !l.startsWith('#'))
      .map((l) => l.slice(0, l.indexOf('=')));
    const set = [...example, ...Object.values(units).flatMap((u) => Object.keys(environment(u.Service!)))];
    expect(set.length).toBeGreaterThan(4);
    expect(set.filter((name) => !variableSpec(name))).toEqual([]);
    for (const u of Object.values(units)) expect(u.Service!.EnvironmentFile).toEqual(['/etc/meteopunto/meteopunto.env']);
  });

  it.each([
    ['meteopunto-api@.service', 'API', /Server listening at/],
    ['meteopunto-worker@.service', 'worker', /worker ready/],
  ])('%s: ExecStart runs the %s, which stops on KillSignal with exit 0 within TimeoutStopSec', async (file, _what, ready) => {
    const service = units[file]!.Service!;
    const data = mkdtempSync(join(tmpdir(), 'mp-unit-data-'));
    dirs.push(data);
    const port = String(await freePort());
    const name = file.startsWith('meteopunto-api') ? port : '1';
    const [exec, ...args] = service.ExecStart![0]!
      .replaceAll('%i', name)
      .replaceAll('%H', hostname())
      .replaceAll(INSTALLED, REPO)
      .split(/\s+/);
    expect(exec).toBe('/usr/bin/node');
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      // What /etc/meteopunto/meteopunto.env would give: the suite's Redis, a queue prefix of this test's own.
      REDIS_URL: inject('redisUrl'),
      METEOPUNTO_QUEUE_PREFIX: `mp-unit-${randomBytes(4).toString('hex')}`,
      ...Object.fromEntries(Object.entries(environment(service)).map(([k, v]) => [k, v.replaceAll(STATE, data)])),
    };
    expect(env.METEOPUNTO_DATA).toBe(data);
    const child = spawn(process.execPath, args, { cwd: service.WorkingDirectory![0]!.replace(INSTALLED, REPO), env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (b: Buffer) => (out += b.toString()));
    child.stderr.on('data', (b: Buffer) => (out += b.toString()));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    try {
      for (let i = 0; i < 120 && !ready.test(out) && child.exitCode === null; i++) await new Promise((r) => setTimeout(r, 250));
      expect(out, out).toMatch(ready);
      if (file.startsWith('meteopunto-api')) {
        expect(out).toContain(`http://127.0.0.1:${port}`); // the port is the instance name, HOST from the unit
        expect((await fetch(`http://127.0.0.1:${port}/healthz`)).status).toBe(503); // up; no tiles yet
      }
      const t0 = performance.now();
      child.kill(service.KillSignal![0] as NodeJS.Signals);
      const code = await exited;
      expect(code, out).toBe(0);
      expect((performance.now() - t0) / 1000).toBeLessThan(seconds(service.TimeoutStopSec![0]!));
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    }
  });
});
