/**
 * cams is ordered by run (a later forecast supersedes an earlier one), but
 * the CAMS global reanalysis (EAC4) is no run: through the CLI (dist/), the
 * real EAC4 file of ../shared/data (SOURCES.md: CAMS global names, 3-hourly
 * 2020, each time its own analysis) published after a version ordered by run
 * (the real CAMS Europe analyses of Jaén, `…_conc` names, newest time
 * 2024-12-31 15Z) is recognised without `--model`: published, recorded as
 * model CAMS EAC4 with no run and no run order; and the Jaén file published
 * after it goes live again. Before this, EAC4 was refused as a run (2020)
 * older than the live one (2024).
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { dataFile, describeShared } from '../../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../../..');
const CONTAM = dataFile('cams-europe-pollen-jaen/2024AnalisisContam.nc');
const EAC4 = dataFile('cams-eac4-milan/cams_global_reanalysis_concentrations_2020.nc');
/** Jaén (38 N, 3.7 W) and Milan (45–46.5 N, 9–11.25 E) in one domain: lat min, lat max, lon min, lon max. */
const DOMAIN = '36,47,-10,12';

describeShared('cams: EAC4 recognised as a reanalysis, not a run', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-cams-eac4-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const ingest = (file: string) =>
    spawnSync(process.execPath, [join(REPO, 'dist/cli/main.js'), 'ingest', 'cams', file, '--quiet'], {
      encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root, METEOPUNTO_DOMAIN: DOMAIN, REDIS_URL: '' }, timeout: 120_000,
    });
  const live = () => JSON.parse(readFileSync(join(root, 'tiles', 'cams', 'current.json'), 'utf8')) as { version: string; coverage: { from: string; to: string }; source: Record<string, unknown> };

  it('publishes EAC4 after a version ordered by run without --model, and a run after it', () => {
    const first = ingest(CONTAM);
    expect(first.status, first.stderr).toBe(0);
    expect(live().source).toEqual({ files: ['2024AnalisisContam.nc'], run: '2024-12-31T15:00:00.000Z', run_order: 'forecast' });

    const eac4 = ingest(EAC4);
    expect(eac4.status, eac4.stderr).toBe(0);
    const m = live();
    expect(m.coverage).toEqual({ from: '2020-01-01T00:00:00.000Z', to: '2020-12-31T21:00:00.000Z' });
    expect(m.source).toEqual({ files: ['cams_global_reanalysis_concentrations_2020.nc'], model: 'CAMS EAC4' });
    expect(eac4.stdout).toMatch(/note +CAMS global reanalysis \(EAC4\): .*2928 analyses/);

    const again = ingest(CONTAM);
    expect(again.status, again.stderr).toBe(0);
    expect(live().source).toMatchObject({ run: '2024-12-31T15:00:00.000Z', run_order: 'forecast' });
    expect(live().version).not.toBe(m.version);
  }, 240_000);
});
