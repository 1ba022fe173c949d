/**
 * Every command and subcommand answers `--help` with its usage and exit 0,
 * touching nothing (no Redis, no data directory needed). The list is the
 * CLI table of docs/operations.md.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
const COMMANDS = [
  'start', 'serve', 'ingest', 'demo', 'worker',
  'tiles', 'tiles point', 'tiles info',
  'keys', 'keys create', 'keys list', 'keys show', 'keys revoke', 'keys set-plan',
  'jobs', 'jobs enqueue', 'jobs status', 'jobs retry', 'jobs schedules',
  'backfill', 'backfill reanalysis', 'backfill status',
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
});
