/**
 * Issue 16 item 5: every command and subcommand of the README's command table
 * answers `--help` with its usage on stdout and exit 0 (built CLI, dist/).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

const CLI = resolve('dist/cli/main.js');
const COMMANDS = [
  'start', 'serve', 'ingest', 'ingest nwp', 'demo', 'tiles', 'tiles point', 'tiles info',
  'keys', 'keys create', 'keys list', 'keys show', 'keys revoke', 'keys set-plan',
  'worker', 'jobs', 'jobs enqueue', 'jobs status', 'jobs retry', 'jobs schedules',
];

describe('every subcommand answers --help', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'mp-help-'));
  it.each(COMMANDS)('%s --help', (command) => {
    const env = { ...process.env, METEOPUNTO_DATA: dataDir };
    delete env.REDIS_URL;
    const r = spawnSync(process.execPath, [CLI, ...command.split(' '), '--help'], { env, encoding: 'utf8', timeout: 20_000 });
    expect(r.status, r.stderr).toBe(0);
    expect(r.stdout.toLowerCase()).toContain('usage');
  });
});
