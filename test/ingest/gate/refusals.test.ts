/**
 * The ingest gate end to end: well-formed but wrong files (written by
 * netCDF4-python on a real file's grid) are refused with a clear reason
 * naming the file and the check, the live version stays (its manifest
 * byte for byte, its values as netCDF4-python reads the file it came from),
 * the refusal is counted by /metrics, the CLI exits 1 with one line, and an
 * operator's --allow lets one check through, recorded in the manifest.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../../api/app.js';
import { GateError } from '../../../ingest/gate/gate.js';
import { runIngest } from '../../../ingest/pipeline.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { describeShared } from '../../support/shared-data.js';
import { netcdfBilinear } from '../pipeline-reference.js';
import { START_S, gateFile } from './support.js';

const ROOT = resolve(import.meta.dirname, '../../..');
/** Florence and the Apennines east of Rome: inland, with four land neighbours (ERA5-Land has no values over the sea). */
const POINTS = [[43.77, 11.25], [42.1, 13.1]] as const;

describeShared('the ingest gate refuses wrong files and keeps the live version', () => {
  const dir = mkdtempSync(join(tmpdir(), 'mp-gate-'));
  const root = join(dir, 'data');
  const manifestPath = join(root, 'tiles', 'nwp', 'current.json');
  let valid: string;
  let live: string;

  beforeAll(async () => {
    valid = gateFile(dir, 'valid');
    await runIngest({ root, product: 'nwp', files: [valid] });
    live = readFileSync(manifestPath, 'utf8');
  }, 120_000);
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** The live version is the valid file's: same manifest, values as netCDF4-python reads them. */
  async function liveUnchanged(): Promise<void> {
    expect(readFileSync(manifestPath, 'utf8')).toBe(live);
    const store = new TileStore(root);
    for (const [lat, lon] of POINTS) {
      const ref = netcdfBilinear(valid, 't2m', 0, lat, lon).value!;
      const got = (await store.sample('nwp', lat, lon, START_S * 1000)).values.temperature_2m!;
      expect(Math.abs(got - ref), `${lat}, ${lon}`).toBeLessThan(0.011);
    }
  }

  async function refusal(kind: Parameters<typeof gateFile>[1]): Promise<GateError> {
    const file = gateFile(dir, kind);
    const err = await runIngest({ root, product: 'nwp', files: [file] }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GateError);
    expect((err as GateError).message).toContain(`t2m-${kind}.nc: refused by the ingest gate`);
    return err as GateError;
  }

  it('time-axis: a file with no time axis is refused, not published at 1970-01-01', async () => {
    const err = await refusal('notime');
    expect(err.checks).toEqual(['time-axis']);
    expect(err.message).toMatch(/t2m-notime\.nc t2m: no time axis/);
    await liveUnchanged();
  });

  it('time-axis: a forecast whose times lie in 1970 is refused', async () => {
    const err = await refusal('epoch');
    expect(err.checks).toEqual(['time-axis']);
    expect(err.message).toMatch(/first valid time 1970-01-01T00:00:00\.000Z is before 2000/);
    await liveUnchanged();
  });

  it('finite-fraction and physical-range: a temperature of only NaN, +Inf and −Inf is refused', async () => {
    const err = await refusal('nonfinite');
    expect(err.checks).toContain('finite-fraction');
    expect(err.checks).toContain('physical-range');
    expect(err.message).toMatch(/temperature_2m: 0\.0% of its values on all cells are finite/);
    expect(err.message).toMatch(/values outside -90 … 60 °C \(e\.g\. (-)?Infinity\)/);
    await liveUnchanged();
  });

  it('physical-range: Kelvin labelled degC is refused', async () => {
    const err = await refusal('kelvin');
    expect(err.checks).toEqual(['physical-range']);
    expect(err.message).toMatch(/temperature_2m: \d+ of \d+ values outside -90 … 60 °C/);
    await liveUnchanged();
  });

  it('monotone-steps: a time axis that goes back is refused', async () => {
    const err = await refusal('backwards');
    expect(err.checks).toEqual(['monotone-steps']);
    expect(err.message).toMatch(/t2m-backwards\.nc t2m \(analyses\): step 3 goes back from 2023-11-01T02:00:00\.000Z to 2023-11-01T01:00:00\.000Z/);
    await liveUnchanged();
  });

  it('collapse: a temperature gone flat against the live version is refused', async () => {
    const err = await refusal('constant');
    expect(err.checks).toEqual(['collapse']);
    expect(err.message).toMatch(/temperature_2m: spread 0\.00 °C against [\d.]+ °C in the live version/);
    await liveUnchanged();
  });

  it('/metrics counts the refusals by product and check', async () => {
    const token = 'gate-metrics-token-0123456789';
    const app = await buildApp({ dataDir: root, env: { METEOPUNTO_ADMIN_TOKEN: token, METEOPUNTO_DATA: root } });
    try {
      const text = (await app.inject({ url: '/metrics', headers: { authorization: `Bearer ${token}` } })).body;
      const count = (check: string) => Number(text.split('\n').find((l) => l.startsWith(`meteopunto_gate_refusals_total{product="nwp",check="${check}"}`))?.split(' ').pop());
      // Refused so far in this file: notime and epoch (time-axis), nonfinite (finite-fraction, physical-range,
      // collapse), kelvin (physical-range), backwards (monotone-steps), constant (collapse).
      expect(count('time-axis')).toBe(2);
      expect(count('physical-range')).toBe(2);
      expect(count('finite-fraction')).toBe(1);
      expect(count('monotone-steps')).toBe(1);
      expect(count('collapse')).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('the CLI exits 1 with one line naming the file and the check; --allow lets that check through, recorded in the manifest', async () => {
    const file = gateFile(dir, 'kelvin');
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, ['dist/cli/main.js', 'ingest', 'nwp', file, '--quiet', ...args], { cwd: ROOT, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root, REDIS_URL: '' } });
    const refused = cli();
    expect(refused.status).toBe(1);
    expect(refused.stderr.trim().split('\n')).toHaveLength(1);
    expect(refused.stderr).toMatch(/^meteopunto ingest: t2m-kelvin\.nc: refused by the ingest gate: physical-range: .* --allow physical-range\) — nothing was published/);
    await liveUnchanged();

    expect(cli('--allow', 'no-such-check')).toMatchObject({ status: 2, stderr: expect.stringMatching(/--allow no-such-check: no such gate check \(checks: time-axis, /) });

    const allowed = cli('--allow', 'physical-range');
    expect(allowed.status, allowed.stderr).toBe(0);
    expect(allowed.stdout).toMatch(/allowed +gate check physical-range: temperature_2m: \d+ of \d+ values outside/);
    const manifest = JSON.parse(readFileSync(manifestPath, 'utf8')) as { source: { files: string[]; gate_overrides?: unknown } };
    expect(manifest.source.files).toEqual(['t2m-kelvin.nc']);
    expect(manifest.source.gate_overrides).toEqual([{ check: 'physical-range', findings: [expect.stringMatching(/^temperature_2m: \d+ of \d+ values outside -90 … 60 °C/)] }]);
  }, 60_000);
});
