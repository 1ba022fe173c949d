/**
 * Every command and subcommand answers `--help` with its usage and exit 0,
 * touching nothing (no Redis, no data directory needed). The list is the
 * CLI table of docs/operations.md. A subcommand's help is its own (its
 * usage line, what it does, its options), not the group's; `tiles point`
 * and `tiles render` name the variables of the published products.
 * `meteopunto --version` prints package.json's version.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const COMMANDS = [
  'start', 'serve', 'ingest', 'demo', 'worker',
  'tiles', 'tiles point', 'tiles info', 'tiles ls', 'tiles verify', 'tiles gc', 'tiles render',
  'keys', 'keys create', 'keys list', 'keys show', 'keys revoke', 'keys set-plan',
  'jobs', 'jobs enqueue', 'jobs status', 'jobs retry', 'jobs schedules',
  'backfill', 'backfill reanalysis', 'backfill status',
  'sources', 'sources check',
];

describe('--help', () => {
  const data = mkdtempSync(join(tmpdir(), 'mp-help-'));
  afterAll(() => rmSync(data, { recursive: true, force: true }));

  it.each(COMMANDS)('meteopunto %s --help: usage on stdout, exit 0, nothing written', (command) => {
    const env = { PATH: process.env.PATH ?? '', METEOPUNTO_DATA: data };
    for (const flag of ['--help', '-h']) {
      const r = spawnSync(process.execPath, [CLI, ...command.split(' '), flag], { env, encoding: 'utf8', timeout: 20_000 });
      expect(r.status, r.stderr).toBe(0);
      expect(r.stdout).toMatch(/usage/i);
      expect(r.stderr).toBe('');
    }
    expect(readdirSync(data)).toEqual([]);
  });

  const run = (args: string[], dir = data) => spawnSync(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH ?? '', METEOPUNTO_DATA: dir }, encoding: 'utf8', timeout: 20_000 });
  const SUBCOMMANDS = COMMANDS.filter((c) => c.includes(' '));

  it.each(SUBCOMMANDS)("meteopunto %s --help is the subcommand's own: its usage line, what it does, its options", (command) => {
    const own = run([...command.split(' '), '--help']).stdout;
    const group = run([command.split(' ')[0]!, '--help']).stdout;
    expect(own).not.toBe(group);
    expect(own.split('\n')[0]).toMatch(new RegExp(`^usage: meteopunto ${command}\\b`));
    // A sentence saying what it does: a line that starts with a capital and ends with a full stop.
    expect(own).toMatch(/^[A-Z][^\n]*\.$/m);
    const options = [...own.split('\n')[0]!.matchAll(/--[a-z-]+/g)].map((m) => m[0]);
    for (const o of options) expect(own.split('\n').slice(1).join('\n'), `${command}: ${o} explained`).toContain(o);
  });

  it('tiles point --help and tiles render --help list the variables of the published products', async () => {
    const root = mkdtempSync(join(tmpdir(), 'mp-help-vars-'));
    try {
      const { writeProductVersion } = await import('../../tiles/write/writer.js');
      const { REGULAR, analytic, hourlyTimes, input } = await import('../tiles/fields.js');
      const times = hourlyTimes(2);
      await writeProductVersion(root, input('nwp', REGULAR, times, {
        temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, times, () => 10) },
        wind_speed_10m: { units: 'm/s', precision: 0.01, values: analytic(REGULAR, times, () => 3) },
      }));
      for (const sub of ['point', 'render']) {
        const out = run(['tiles', sub, '--help'], root).stdout;
        expect(out).toMatch(/nwp\s+temperature_2m, wind_speed_10m/);
      }
      expect(run(['tiles', 'render', '--help']).stdout).toContain('no product is published');
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("meteopunto --version prints package.json's version", () => {
    const { version } = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as { version: string };
    for (const flag of ['--version', '-V']) {
      const r = run([flag]);
      expect(r.status).toBe(0);
      expect(r.stdout.trim()).toBe(`meteopunto ${version}`);
    }
  });
});
