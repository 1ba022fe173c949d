/**
 * Product `cams` end to end through the CLI (dist/): the real CAMS files are
 * ingested with `meteopunto ingest cams`, then `meteopunto tiles point cams`
 * must give, for every canonical variable, netCDF4-python's bilinear value
 * (fixtures/cams_bilinear.py: bilinear in the file's own coordinates, linear
 * in time over the variable's own steps) within 1 % (or the stored precision,
 * half a packing step, for values near zero).
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { CAMS_VARIABLES } from '../../../ingest/products/cams/variables.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const REPO = resolve(import.meta.dirname, '../../..');
const POLLEN = dataFile('cams-europe-pollen-jaen/2024AnalisisPolem.nc');
const CONTAM = dataFile('cams-europe-pollen-jaen/2024AnalisisContam.nc');
const EAC4 = dataFile('cams-eac4-milan/cams_global_reanalysis_concentrations_2020.nc');

function cli(root: string, args: string[], env: Record<string, string> = {}) {
  const r = spawnSync(process.execPath, [join(REPO, 'dist/cli/main.js'), ...args], {
    encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root, ...env }, timeout: 120_000, maxBuffer: 1 << 28,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

function python(file: string, queries: { var: string; lat: number; lon: number; time: string }[]): number[] {
  const out = execFileSync('/usr/bin/python3', [join(import.meta.dirname, 'fixtures', 'cams_bilinear.py'), JSON.stringify({ file, queries })], { encoding: 'utf8' });
  return JSON.parse(out) as number[];
}

function point(root: string, lat: number, lon: number, time: string): Record<string, number | null> {
  const r = cli(root, ['tiles', 'point', 'cams', '--lat', String(lat), `--lon=${lon}`, '--time', time, '--json']);
  expect(r.err).toBe('');
  expect(r.code).toBe(0);
  return (JSON.parse(r.out) as { values: Record<string, number | null> }).values;
}

function expectClose(got: number | null | undefined, want: number, variable: keyof typeof CAMS_VARIABLES, what: string) {
  expect(got, what).toBeTypeOf('number');
  const tol = Math.max(0.01 * Math.abs(want), CAMS_VARIABLES[variable].precision / 2 + 1e-9);
  expect(Math.abs(got! - want), `${what}: ${got} vs netCDF4-python ${want}`).toBeLessThanOrEqual(tol);
}

type Case = { lat: number; lon: number; time: string };

describeShared('product cams: CAMS Europe ENSEMBLE, Jaén 2024 (ingested with METEOPUNTO_DOMAIN over Spain)', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-cams-jaen-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  beforeAll(() => {
    const r = cli(root, ['ingest', 'cams', POLLEN, CONTAM, '--quiet', '--json'], { METEOPUNTO_DOMAIN: '36,44,-10,4.5' });
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
  });

  it('outside the default domain (Italy) the same files are refused, naming the domain crop', () => {
    const other = mkdtempSync(join(tmpdir(), 'mp-cams-out-'));
    try {
      const r = cli(other, ['ingest', 'cams', POLLEN, '--quiet'], { METEOPUNTO_DOMAIN: '' });
      expect(r.code).toBe(1);
      expect(r.err).toMatch(/domain/i);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it('a malformed METEOPUNTO_DOMAIN is a clear error, nothing published', () => {
    const r = cli(root, ['ingest', 'cams', POLLEN, '--quiet'], { METEOPUNTO_DOMAIN: '36,44,-10' });
    expect(r.code).toBe(2); // checked at start, before any command runs (config/environment.ts)
    expect(r.err).toMatch(/METEOPUNTO_DOMAIN='36,44,-10': 3 values, need 4/);
  });

  const sources: [keyof typeof CAMS_VARIABLES, string, string][] = [
    ['grass_pollen', 'gpg_conc', POLLEN],
    ['olive_pollen', 'opg_conc', POLLEN],
    ['pm2_5', 'pm2p5_conc', CONTAM],
    ['pm10', 'pm10_conc', CONTAM],
    ['ozone', 'o3_conc', CONTAM],
    ['sulphur_dioxide', 'so2_conc', CONTAM],
  ];
  const cases: Case[] = [
    // At a pollen step, between two analysis steps (12 and 15 UTC), inside the 21 h night gap, at an analysis step.
    { lat: 38.12, lon: -2.8, time: '2024-05-10T00:00:00Z' },
    { lat: 38.12, lon: -2.8, time: '2024-05-10T13:30:00Z' },
    { lat: 38.21, lon: -2.92, time: '2024-04-20T20:00:00Z' },
    { lat: 38.07, lon: -2.68, time: '2024-06-02T12:00:00Z' },
  ];

  it.each(cases)('every variable at ($lat, $lon) $time matches netCDF4-python bilinear within 1 %', (c) => {
    const got = point(root, c.lat, c.lon, c.time);
    expect(Object.keys(got).sort()).toEqual(sources.map((s) => s[0]).sort());
    for (const [variable, name, file] of sources) {
      const [want] = python(file, [{ var: name, ...c }]);
      expectClose(got[variable], want!, variable, `${variable} at ${c.lat},${c.lon} ${c.time}`);
    }
  });
});

describeShared('product cams: CAMS global EAC4, Milan 2020 (default domain)', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-cams-milan-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  beforeAll(() => {
    const r = cli(root, ['ingest', 'cams', EAC4, '--quiet', '--json']);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out) as { variables: string[]; skipped: { name: string }[] };
    expect(report.variables.sort()).toEqual(['nitrogen_dioxide', 'ozone', 'pm10', 'pm2_5', 'sulphur_dioxide']);
  });

  const sources: [keyof typeof CAMS_VARIABLES, string][] = [
    ['pm2_5', 'pm2p5'], ['pm10', 'pm10'], ['nitrogen_dioxide', 'no2'], ['ozone', 'go3'], ['sulphur_dioxide', 'so2'],
  ];
  const cases: Case[] = [
    { lat: 45.46, lon: 9.19, time: '2020-01-15T10:30:00Z' },
    { lat: 45.9, lon: 10.8, time: '2020-07-01T13:00:00Z' },
    { lat: 45.07, lon: 11.2, time: '2020-11-20T06:00:00Z' },
  ];

  it.each(cases)('every pollutant at ($lat, $lon) $time matches netCDF4-python bilinear within 1 %', (c) => {
    const got = point(root, c.lat, c.lon, c.time);
    for (const [variable, name] of sources) {
      const [want] = python(EAC4, [{ var: name, ...c }]);
      expectClose(got[variable], want!, variable, `${variable} at ${c.lat},${c.lon} ${c.time}`);
    }
  });
});
