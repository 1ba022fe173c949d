/**
 * `meteopunto ingest --allow-older-run` through the built CLI (dist/cli/main.js as a child process) on the real
 * IFS HRES GRIB of ../shared/data (SOURCES.md: run 2021-08-01 12Z +3 h), published as run 12Z, then as run
 * 06Z: refused without the flag (exit 1, naming the flag, the 12Z version still live); with it, published, a
 * warning naming both runs on stderr, and the manifest's source recording the override and the run it went
 * back over. A product whose versions are not ordered by run refuses the flag as bad usage.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { dataFile, describeShared } from '../support/shared-data.js';

const ROOT = resolve(import.meta.dirname, '../..');
const RUN12 = '2021-08-01T12:00:00.000Z';
const RUN06 = '2021-08-01T06:00:00.000Z';

describeShared('ingest --allow-older-run', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-older-run-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const file = () => dataFile('ifs-hres-t2m-italy/alternate-scanning.grib');
  const ingest = (...args: string[]) =>
    spawnSync(process.execPath, ['dist/cli/main.js', 'ingest', ...args, '--quiet'], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root, REDIS_URL: '' } });
  const live = () => JSON.parse(readFileSync(join(root, 'tiles', 'nwp', 'current.json'), 'utf8')) as { version: string; source: Record<string, unknown> };

  it('refuses an older run without it, publishes it loudly with it, and records both runs', () => {
    const first = ingest('nwp', file(), '--model', 'IFS', '--run', RUN12);
    expect(first.status, first.stderr).toBe(0);
    const newer = live();
    expect(newer.source).toMatchObject({ model: 'IFS', run: RUN12, run_order: 'forecast' });
    expect(newer.source.allow_older_run).toBeUndefined();

    const refused = ingest('nwp', file(), '--model', 'IFS', '--run', RUN06);
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toContain(`run ${RUN06} of IFS is older than the live run ${RUN12}`);
    expect(refused.stderr).toContain('--allow-older-run');
    expect(live()).toEqual(newer);

    const forced = ingest('nwp', file(), '--model', 'IFS', '--run', RUN06, '--allow-older-run');
    expect(forced.status, forced.stderr).toBe(0);
    const older = live();
    expect(older.version).not.toBe(newer.version);
    expect(older.source).toMatchObject({
      model: 'IFS', run: RUN06, run_order: 'forecast', allow_older_run: true,
      replaced_newer_run: { run: RUN12, version: newer.version },
    });
    const warning = forced.stderr.split('\n').find((l) => l.includes('WARNING'));
    expect(warning).toContain(RUN06);
    expect(warning).toContain(RUN12);
    expect(warning).toContain(newer.version);
    expect(forced.stdout).toMatch(/WARNING .*--allow-older-run/);
  }, 180_000);

  it('is bad usage for a product whose versions are not ordered by run', () => {
    const r = ingest('dem', file(), '--allow-older-run');
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/--allow-older-run: dem's versions are not ordered by run/);
  });
});
