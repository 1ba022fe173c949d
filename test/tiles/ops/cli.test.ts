/**
 * `meteopunto tiles point|info` through the real entry point (cli/main.ts),
 * in a child process with METEOPUNTO_DATA pointing at a fresh store.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { describe, expect, it, beforeAll } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { REGULAR, ROTATED, T0, HOUR, analytic, hourlyTimes, input, ownCoords } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const REPO = resolve(import.meta.dirname, '../../..');
const temp = (x: number, y: number, h: number) => 12 + 0.4 * y - 0.1 * x + 0.5 * h;

function cli(root: string, args: string[]) {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'cli/main.ts', 'tiles', ...args], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root }, timeout: 60_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('meteopunto tiles', () => {
  const root = tempRoot('cli');
  const times = hourlyTimes(4);
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', REGULAR, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, times, temp) },
      elevation: { units: 'm', precision: 0.1, static: true, values: analytic(REGULAR, [], (_x, y) => 100 * y) },
    }));
    await writeProductVersion(root, input('cosmo', ROTATED, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(ROTATED, times, temp) },
    }));
  });

  it('point --json prints the contract shape with interpolated values', () => {
    const r = cli(root, ['point', 'nwp', '--lat', '38.23', '--lon', '9.87', '--time', '2026-03-10T01:30:00Z', '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    const j = JSON.parse(r.out) as { time: string; values: Record<string, number | null> };
    expect(Object.keys(j)).toEqual(['time', 'values']);
    expect(j.time).toBe('2026-03-10T01:30:00.000Z');
    expect(Object.keys(j.values)).toEqual(['temperature_2m', 'elevation']);
    expect(j.values.temperature_2m).toBeCloseTo(temp(9.87, 38.23, 1.5), 2);
    expect(j.values.elevation).toBeCloseTo(3823, 1);
  });

  it('point on a rotated grid interpolates in rotated coordinates', () => {
    const r = cli(root, ['point', 'cosmo', '--lat', '43.1', '--lon', '10.2', '--time', new Date(T0 + 2 * HOUR).toISOString(), '--json']);
    expect(r.code).toBe(0);
    const { x, y } = ownCoords(ROTATED, 43.1, 10.2);
    expect(JSON.parse(r.out).values.temperature_2m).toBeCloseTo(temp(x, y, 2), 2);
  });

  it('fails with the covered range when the time is outside it (default: now)', () => {
    const r = cli(root, ['point', 'nwp', '--lat', '38', '--lon', '9', '--json']);
    expect(r.code).toBe(1);
    expect(r.out).toBe('');
    expect(r.err).toContain('2026-03-10T00:00:00.000Z to 2026-03-10T03:00:00.000Z');
  });

  it('rejects bad usage and unknown products with clear messages', () => {
    const bad = cli(root, ['point', 'nwp', '--lat', 'north', '--lon', '9']);
    expect(bad.code).toBe(2);
    expect(bad.err).toContain("--lat must be a number");
    const noTime = cli(root, ['point', 'nwp', '--lat', '38', '--lon', '9', '--time', 'yesterday']);
    expect(noTime.code).toBe(2);
    expect(noTime.err).toContain('--time must be ISO 8601');
    const missing = cli(root, ['point', 'cams', '--lat', '38', '--lon', '9']);
    expect(missing.code).toBe(1);
    expect(missing.err).toContain("no such product 'cams' in");
    expect(missing.err).toContain('the products there are cosmo, nwp');
    const outside = cli(root, ['point', 'nwp', '--lat', '46', '--lon', '9', '--time', '2026-03-10T01:00Z']);
    expect(outside.code).toBe(1);
    expect(outside.err).toContain('outside the nwp grid');
  });

  it('info summarises the manifest', () => {
    const r = cli(root, ['info', 'nwp']);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/version\s+\d{8}T\d{6}Z-[0-9a-f]+\.zarr/);
    expect(r.out).toContain('regular lat/lon 70 × 50');
    expect(r.out).toContain('4 from 2026-03-10T00:00:00.000Z to 2026-03-10T03:00:00.000Z, step 1 h');
    expect(r.out).toMatch(/temperature_2m\s+°C\s+int16 × 0.01/);
    expect(r.out).toMatch(/elevation\s+m\s+int16 .*\(static\)/);
    const j = cli(root, ['info', 'cosmo', '--json']);
    expect(JSON.parse(j.out).grid).toMatchObject({ kind: 'rotated_ll', southPoleLat: -47 });
  });
});
