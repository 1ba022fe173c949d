import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkEnvironment, ConfigError, integerSetting, setting } from '../../config/environment.js';
import { dataDir } from '../../config/paths.js';
import { queuePrefix } from '../../config/queues.js';
import { loadAccessConfig } from '../../api/access/config.js';
import { parseServeArgs } from '../../api/cli.js';

describe('environment', () => {
  it('a deprecated MP_ name still sets the METEOPUNTO_ setting, with one notice', () => {
    const env = { MP_QUEUE_PREFIX: 'old', MP_QUOTA_FREE_DAY: '7' };
    expect(queuePrefix(env)).toBe('old');
    expect(loadAccessConfig(env).quota.free.day).toBe(7);
    expect(checkEnvironment(env).notices).toEqual([
      'MP_QUEUE_PREFIX is deprecated, use METEOPUNTO_QUEUE_PREFIX (the old name will stop working in the next release)',
      'MP_QUOTA_FREE_DAY is deprecated, use METEOPUNTO_QUOTA_FREE_DAY (the old name will stop working in the next release)',
    ]);
  });

  it('when both names are set the new one wins, and the notice says so', () => {
    const env = { MP_QUEUE_PREFIX: 'old', METEOPUNTO_QUEUE_PREFIX: 'new' };
    expect(queuePrefix(env)).toBe('new');
    expect(checkEnvironment(env).notices).toEqual(['MP_QUEUE_PREFIX is deprecated and ignored: METEOPUNTO_QUEUE_PREFIX is also set and wins']);
  });

  it('defaults apply when unset or empty', () => {
    expect(queuePrefix({})).toBe('meteopunto');
    expect(queuePrefix({ METEOPUNTO_QUEUE_PREFIX: '' })).toBe('meteopunto');
    expect(dataDir({ METEOPUNTO_DATA: '  ' })).toMatch(/\/data$/);
    expect(loadAccessConfig({}).quota.free).toEqual({ day: 50, minute: 2 });
    expect(parseServeArgs([], {})).toMatchObject({ port: 8080, host: '127.0.0.1' });
    expect(checkEnvironment({}).notices).toEqual([]);
  });

  it('malformed values are refused together, each named with the form expected', () => {
    const env = { PORT: '99999', MP_WORKER_CONCURRENCY: '0', LOG_LEVEL: 'loud', REDIS_URL: 'localhost:6379', METEOPUNTO_DOMAIN: '48,35,5,20' };
    let err: unknown;
    try {
      checkEnvironment(env);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConfigError);
    const msg = (err as Error).message;
    expect(msg).toContain("PORT='99999': expected an integer in 0..65535");
    expect(msg).toContain("MP_WORKER_CONCURRENCY='0': expected an integer ≥ 1");
    expect(msg).toContain("LOG_LEVEL='loud': expected one of fatal");
    expect(msg).toContain("REDIS_URL='localhost:6379': expected a redis:// or rediss:// URL");
    expect(msg).toContain("METEOPUNTO_DOMAIN='48,35,5,20': south must be less than north");
  });

  it('integer settings read by a module are range-checked there too', () => {
    expect(integerSetting({ METEOPUNTO_INDEX_WORKERS: '3' }, 'METEOPUNTO_INDEX_WORKERS', 1)).toBe(3);
    expect(() => integerSetting({ METEOPUNTO_INDEX_WORKERS: '-1' }, 'METEOPUNTO_INDEX_WORKERS', 1)).toThrow(/METEOPUNTO_INDEX_WORKERS='-1': expected an integer ≥ 0/);
  });

  it('asking for an undeclared name is a programming error', () => {
    expect(() => setting({}, 'METEOPUNTO_NOPE')).toThrow(/not a declared environment variable/);
  });
});

describe('meteopunto checks the environment before any command', () => {
  const cli = join(import.meta.dirname, '..', '..', 'dist', 'cli', 'main.js');
  const run = (env: Record<string, string>) => spawnSync(process.execPath, [cli, 'tiles', '--help'], { env: { PATH: process.env.PATH ?? '', ...env }, encoding: 'utf8' });

  it('a malformed value: exit 2, one message, the command not run', () => {
    const r = run({ METEOPUNTO_TILE_CACHE_MB: 'lots' });
    expect(r.status).toBe(2);
    expect(r.stderr).toBe("meteopunto: invalid configuration: METEOPUNTO_TILE_CACHE_MB='lots': expected an integer ≥ 16 (see docs/configuration.md)\n");
    expect(r.stdout).toBe('');
  });

  it('a deprecated name: one warning line, the command runs', () => {
    const r = run({ MP_ADMIN_TOKEN: 'x'.repeat(20) });
    expect(r.status).toBe(0);
    expect(r.stderr).toBe('meteopunto: warning: MP_ADMIN_TOKEN is deprecated, use METEOPUNTO_ADMIN_TOKEN (the old name will stop working in the next release)\n');
    expect(r.stdout).toMatch(/^usage:/);
  });
});
