/**
 * `meteopunto ingest`, `meteopunto demo` and `meteopunto start` as a user
 * runs them: real processes (node + tsx on cli/main.ts), real files, exit
 * codes and output; `meteopunto tiles point --json` on what ingest published,
 * checked against python GDAL.
 */
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildSampleDataset } from '../../ingest/sample/build.js';
import { dataFile, describeShared } from '../support/shared-data.js';
import { freePort } from '../support/redis-server.js';
import { gdalBilinear } from '../ingest/pipeline-reference.js';
import { TileStore } from '../../tiles/read/reader.js';

/** WMO-No. 306 code table 3700: upper bound of Hs (m, inclusive) and the Italian name. */
const WMO_3700: [number, string][] = [
  [0, 'calmo'], [0.1, 'quasi calmo'], [0.5, 'poco mosso'], [1.25, 'mosso'], [2.5, 'molto mosso'],
  [4, 'agitato'], [6, 'molto agitato'], [9, 'grosso'], [14, 'molto grosso'], [Infinity, 'tempestoso'],
];

const ROOT = resolve(import.meta.dirname, '../..');

function cli(args: string[], env: Record<string, string>): { code: number; stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', ...args], {
    cwd: ROOT, encoding: 'utf8', env: { ...process.env, REDIS_URL: '', ...env }, timeout: 120_000,
  });
  return { code: r.status ?? -1, stdout: r.stdout, stderr: r.stderr };
}

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'mp-cli-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('meteopunto ingest: usage', () => {
  it('exit 2 with the usage for a missing product, missing files, an unknown product or option', () => {
    const env = { METEOPUNTO_DATA: join(dir, 'usage') };
    expect(cli(['ingest'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/missing <product>/) });
    expect(cli(['ingest', 'nwp'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/no input files given/) });
    expect(cli(['ingest', 'radar', 'x.grib'], env)).toMatchObject({ code: 2, stderr: expect.stringMatching(/unknown product 'radar' \(known: nwp, dem, cams\b/) });
    expect(cli(['ingest', 'nwp', 'x.grib', '--colour'], env).code).toBe(2);
    expect(cli(['ingest', '--help'], env)).toMatchObject({ code: 0, stdout: expect.stringMatching(/usage: meteopunto ingest <product> <file>/) });
  }, 180_000); // five CLI starts through tsx: ~10 s each when the suite runs beside other work
  it('exit 1 naming the file for an unreadable file; nothing published', async () => {
    const env = { METEOPUNTO_DATA: join(dir, 'missing') };
    const r = cli(['ingest', 'nwp', join(dir, 'no-such.grib')], env);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no-such\.grib: no such file/);
    expect(r.stderr).toMatch(/nothing was published/);
  });
});

describeShared('meteopunto ingest + tiles point on real files', () => {
  it('prints what it published, and tiles point gives the GDAL value (K → °C)', () => {
    const env = { METEOPUNTO_DATA: join(dir, 'ifs') };
    const file = dataFile('ifs-hres-t2m-italy/alternate-scanning.grib');
    const r = cli(['ingest', 'nwp', file, '--model', 'ifs-hres', '--quiet'], env);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^published nwp version \d{8}T\d{6}Z-[0-9a-f]+\.zarr/m);
    expect(r.stdout).toMatch(/variables\s+temperature_2m/);
    expect(r.stdout).toMatch(/times\s+1 \(2021-08-01T15:00:00\.000Z … 2021-08-01T15:00:00\.000Z\)/);
    expect(r.stdout).toMatch(/grid\s+regular lat\/lon \d+×\d+, 0\.1°×0\.1°/);

    const p = cli(['tiles', 'point', 'nwp', '--lat', '44.4949', '--lon', '11.3426', '--time', '2021-08-01T15:00Z', '--json'], env);
    expect(p.code).toBe(0);
    const out = JSON.parse(p.stdout) as { time: string; values: Record<string, number | null> };
    expect(out.time).toBe('2021-08-01T15:00:00.000Z');
    const ref = gdalBilinear(file, 1, 44.4949, 11.3426).value! - 273.15;
    expect(Math.abs(out.values.temperature_2m! - ref)).toBeLessThan(0.011);
  });

  it('reports dropped and skipped fields; --json gives the full report', () => {
    const env = { METEOPUNTO_DATA: join(dir, 'mixed') };
    const r = cli(['ingest', 'nwp', dataFile('adriatic-waves/test.grib1'), dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib'), '--json', '--quiet'], env);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.stdout) as { variables: string[]; dropped: { variable: string; reason: string }[]; skipped: { name: string }[] };
    expect(report.variables).toEqual(['temperature_2m']);
    expect(report.dropped.map((d) => d.variable)).toEqual(['pressure_msl']);
    expect(report.dropped[0]!.reason).toMatch(/on another grid/);
    expect(report.skipped.map((s) => s.name).sort()).toEqual(['swh@surface:0', 'z@isobaricInhPa:1000']);
  });

  it('shows progress on stderr, one line per stage when stderr is not a terminal', () => {
    const r = cli(['ingest', 'dem', dataFile('icon2i-orography/I2NITA2KM_orog_20241009.grib2')], { METEOPUNTO_DATA: join(dir, 'progress') });
    expect(r.code).toBe(0);
    expect(r.stderr).toMatch(/\[read\] reading I2NITA2KM_orog_20241009\.grib2 \(1\/1\)\n\[derive\].*\n\[write\].*\n\[publish\] published dem/);
    expect(r.stdout).toMatch(/times\s+static/);
  });

  it('exit 1 with the reason when the product cannot use the file', () => {
    const r = cli(['ingest', 'nwp', dataFile('cams-eac4-milan/cams_global_reanalysis_concentrations_2020.nc'), '--quiet'], { METEOPUNTO_DATA: join(dir, 'cams') });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/no variable product nwp knows; found co \[ug m\*\*-3\]/);
  });

  it('demo refuses to replace real tiles without --force', () => {
    const env = { METEOPUNTO_DATA: join(dir, 'ifs') }; // holds the real IFS nwp from the first test
    const r = cli(['demo'], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/already holds real \(non-sample\) tiles for nwp/);
  });
});

describe('meteopunto start with tiles already present', () => {
  it('does not rebuild, says it serves SAMPLE data, and, stdout not being a terminal, writes the demo key to a file only its owner reads, never to stdout', async () => {
    const data = join(dir, 'start');
    const grid = { kind: 'regular_ll', nx: 131, ny: 121, x0: 6, y0: 35.5, dx: 0.1, dy: 0.1 } as const;
    await buildSampleDataset({ root: data, hoursAhead: 6, nwpGrid: grid, demGrid: grid });
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'start', '--port', String(port)], {
      cwd: ROOT, env: { ...process.env, METEOPUNTO_DATA: data, REDIS_URL: '', LOG_LEVEL: 'warn' }, stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
    child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
    try {
      const base = `http://127.0.0.1:${port}`;
      let up = false;
      for (let i = 0; i < 120 && !up; i++) {
        await new Promise((r) => setTimeout(r, 250));
        up = await fetch(`${base}/healthz`).then(() => true, () => false);
      }
      expect(up).toBe(true);
      for (let i = 0; i < 40 && !/demo API key/.test(stdout); i++) await new Promise((r) => setTimeout(r, 250));
      expect(stdout).not.toMatch(/building the SAMPLE dataset/);
      expect(stdout).toMatch(/SERVING SAMPLE DATA for cams, dem, [^:]*nwp/);
      expect(stdout).toMatch(/SERVING SAMPLE DATA for [^:]*\bmarine\b/);
      const file = /demo API key \(business plan\): written to (\S+) \(readable by this user only\)/.exec(stdout)?.[1] ?? '';
      expect(file).toBe(join(data, 'demo-key.txt'));
      // The curl to try names the port served, not the default 8080.
      expect(stdout).toContain(`try: curl '${base}/api/v1/weather.php?lat=41.9&lon=12.5' -H "X-API-Key: $(cat ${file})"`);
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const key = readFileSync(file, 'utf8').trim();
      expect(key).toMatch(/^mp_\w{40}$/);
      // Not a character of the secret part on stdout (the log, under a supervisor), nor on stderr.
      expect(stdout + stderr).not.toContain(key.slice(11));
      // The key comes last: after the server's own start-up lines (the sample warning is the last of
      // them at this level). Lines the running server writes later, such as a request it answers
      // while the test polls /healthz, may follow it.
      expect(stdout.lastIndexOf('SERVING SAMPLE DATA')).toBeGreaterThan(-1);
      expect(stdout.lastIndexOf('SERVING SAMPLE DATA')).toBeLessThan(stdout.indexOf('demo API key'));
      const res = await fetch(`${base}/api/v1/weather.php?lat=41.9&lon=12.5`, { headers: { 'X-API-Key': key } });
      expect(res.status).toBe(200);
      const body = (await res.json()) as { temperature: number; temperature_source: string; valid_time: string };
      expect(body.temperature_source).toMatch(/sample/);
      // At the model orography there is no altitude correction: the grid's own 2 m temperature, to 0.1 °C.
      const v = (await new TileStore(data).sample('nwp', 41.9, 12.5, Date.parse(body.valid_time))).values;
      const atGrid = (await (await fetch(`${base}/api/v1/weather.php?lat=41.9&lon=12.5&alt=${v.elevation}`, { headers: { 'X-API-Key': key } })).json()) as { temperature: number };
      expect(atGrid.temperature).toBeCloseTo(v.temperature_2m!, 1);
      // The demo key is Business: coastal at sea off Naples, from the marine sample, its sea state by WMO table 3700.
      const sea = (await (await fetch(`${base}/api/v1/weather.php?lat=40.7&lon=14.1`, { headers: { 'X-API-Key': key } })).json()) as { coastal: { wave_height: number; sea_state: { label: string }; source: string } };
      expect(sea.coastal.source).toMatch(/sample data/);
      // The state comes from the unrounded height (docs/coastal.md): a height shown as 1.25 m may be
      // 1.2451 (mosso) or 1.2501 (molto mosso), so the label is the one of either end of its rounding.
      const label = (hs: number): string => WMO_3700.find(([max]) => hs <= max)![1];
      const hs = sea.coastal.wave_height;
      expect([label(hs - 0.005), label(hs + 0.005)]).toContain(sea.coastal.sea_state.label);
    } finally {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });
});
