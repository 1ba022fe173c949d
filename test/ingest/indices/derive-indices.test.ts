import { describe, expect, it } from 'vitest';
import type { GridDef } from '../../../geo/grid.js';
import { meanRadiantTemperature, pressureAtElevation, solarGeometry, solarParameters, utci, wbgt } from '../../../science/index.js';
import { deriveIndices, INDEX_VARIABLES } from '../../../ingest/indices/derive-indices.js';
import { cellLatLon } from '../../../geo/grid.js';
import { elevationAt, expectedAt, GRID, inputsAt, periodHours, TIMES, variables } from './fixtures.js';

const CELLS = GRID.nx * GRID.ny;
const ALL = Object.keys(INDEX_VARIABLES);

/** Largest |ours − library| per index; fails on a NaN mismatch. */
function compare(out: Awaited<ReturnType<typeof deriveIndices>>, grid: GridDef = GRID, times: Date[] = TIMES) {
  const worst: Record<string, number> = {};
  const n = grid.nx * grid.ny;
  for (let k = 0; k < times.length; k++) {
    for (let c = 0; c < n; c++) {
      const exp = expectedAt(k, c, grid, times);
      for (const [name, v] of Object.entries(out)) {
        const got = v.values[k]![c]!;
        const want = exp[name]!;
        if (Number.isNaN(want) || Number.isNaN(got)) {
          expect({ name, k, c, got: Number.isNaN(got) }).toEqual({ name, k, c, got: Number.isNaN(want) });
          continue;
        }
        worst[name] = Math.max(worst[name] ?? 0, Math.abs(got - want));
      }
    }
  }
  return worst;
}

describe('deriveIndices on a small grid', () => {
  it('gives every index, each cell equal to the library called for that cell within half the packing precision', async () => {
    const out = await deriveIndices({ grid: GRID, times: TIMES, variables: variables() }, { workers: 0 });
    expect(Object.keys(out).sort()).toEqual([...ALL].sort());
    const worst = compare(out);
    for (const name of ALL) {
      const spec = INDEX_VARIABLES[name as keyof typeof INDEX_VARIABLES];
      expect(worst[name], name).toBeLessThanOrEqual(spec.precision / 2);
      expect(out[name]!.units).toBe(spec.units);
      expect(out[name]!.values).toHaveLength(TIMES.length);
    }
    // The fixture covers day and night, and a gale where UTCI is undefined.
    const utci = out.utci!.values.flatMap((a) => [...a]);
    expect(utci.some(Number.isNaN)).toBe(true);
    expect(out.uv_index_clear_sky!.values[0]!.every((v) => v === 0)).toBe(true);
    expect(Math.max(...out.uv_index!.values[5]!)).toBeGreaterThan(5);
    const shade = out.wbgt_shade!.values[5]!;
    expect(out.wbgt_sun!.values[5]!.some((v, i) => v > shade[i]! + 2)).toBe(true);
  });

  it('gives the same arrays on worker threads as in the calling thread', async () => {
    const input = { grid: GRID, times: TIMES, variables: variables() };
    const inline = await deriveIndices(input, { workers: 0 });
    const progress: number[] = [];
    const notes: string[] = [];
    const threaded = await deriveIndices(input, { workers: 2, onProgress: (f) => progress.push(f), onNote: (m) => notes.push(m) });
    expect(notes).toEqual([]);
    for (const name of ALL) expect(threaded[name]!.values, name).toEqual(inline[name]!.values);
    expect(progress.at(-1)).toBe(1);
    expect(progress).toEqual([...progress].sort((a, b) => a - b));
  });

  it('works on a rotated grid with each cell at its geographic position', async () => {
    const rotated: GridDef = { kind: 'rotated_ll', nx: 4, ny: 3, x0: -2, y0: -1, dx: 1, dy: 1, southPoleLat: -47, southPoleLon: 10, angle: 0 };
    const times = TIMES.slice(3);
    const out = await deriveIndices({ grid: rotated, times, variables: variables(undefined, true, rotated, times) }, { workers: 0 });
    const worst = compare(out, rotated, times);
    for (const name of ALL) expect(worst[name], name).toBeLessThanOrEqual(INDEX_VARIABLES[name as keyof typeof INDEX_VARIABLES].precision / 2);
    // Sanity: rotated (0, 0) of the COSMO pole is near 43°N 10°E, not 0°N 0°E.
    const centre = cellLatLon(rotated, 2, 1);
    expect(centre.lat).toBeCloseTo(43, 0);
  });
});

describe('deriveIndices with inputs missing', () => {
  const run = (keep: Parameters<typeof variables>[0], withElevation = true) =>
    deriveIndices({ grid: GRID, times: TIMES, variables: variables(keep, withElevation) }, { workers: 0 });

  it('yields nothing from temperature alone', async () => {
    expect(await run(['t'])).toEqual({});
    expect(await run(['t'], false)).toEqual({});
  });

  it('computes each index only from what it needs', async () => {
    expect(Object.keys(await run(['t', 'u', 'v', 'cloud'], false))).toEqual(['frost_risk']);
    expect(Object.keys(await run(['ozone'], false))).toEqual(['uv_index_clear_sky']);
    expect(Object.keys(await run(['ozone', 'cloud'], false)).sort()).toEqual(['uv_index', 'uv_index_clear_sky']);
    // No longwave: no Tmrt, hence no UTCI; no pressure at all: no WBGT; no elevation: no ET0.
    const noLw = Object.keys(await run(['t', 'rh', 'td', 'u', 'v', 'sw', 'direct', 'cloud'], false));
    expect(noLw.sort()).toEqual(['frost_risk']);
  });

  it('estimates the direct beam with Liljegren eq. 13 when the product has none', async () => {
    const out = await run(['t', 'rh', 'u', 'v', 'sw', 'lw']);
    expect(Object.keys(out).sort()).toEqual(['et0', 'mean_radiant_temperature', 'utci']);
    for (let k = 0; k < TIMES.length; k++) {
      for (let c = 0; c < CELLS; c += 3) {
        const x = inputsAt(k, c);
        const { lat, lon } = cellLatLon(GRID, c % GRID.nx, Math.floor(c / GRID.nx));
        const geo = solarGeometry(new Date(TIMES[k]!.getTime() - (periodHours(k) * 3_600_000) / 2), lat, lon);
        const cz = Math.cos((geo.zenith * Math.PI) / 180);
        const fdir = solarParameters(x.sw, cz, geo.distanceAu).fdir;
        const want = meanRadiantTemperature({ temperature: x.t, shortwaveRadiation: x.sw, directRadiation: fdir * x.sw, longwaveRadiation: x.lw, cosZenith: cz });
        expect(Math.abs(out.mean_radiant_temperature!.values[k]![c]! - want)).toBeLessThan(0.005);
      }
    }
  });

  it('reduces mean-sea-level pressure to the orography for WBGT when there is no surface pressure', async () => {
    const out = await run(['t', 'rh', 'u', 'v', 'msl', 'sw']);
    expect(Object.keys(out).sort()).toEqual(['et0', 'wbgt_shade', 'wbgt_sun']);
    const k = 5;
    for (let c = 0; c < CELLS; c += 4) {
      const x = inputsAt(k, c);
      const z = elevationAt(c);
      const { lat, lon } = cellLatLon(GRID, c % GRID.nx, Math.floor(c / GRID.nx));
      const p = pressureAtElevation(x.msl, 0, z, x.t + 0.0065 * z);
      const w = wbgt({ time: new Date(TIMES[k]!.getTime() - 1_800_000), lat, lon, temperature: x.t, relativeHumidity: x.rh, pressure: p, windSpeed: Math.hypot(x.u, x.v), windHeight: 10, shortwaveRadiation: x.sw });
      expect(Math.abs(out.wbgt_sun!.values[k]![c]! - w.sun)).toBeLessThan(0.005);
      expect(Math.abs(out.wbgt_shade!.values[k]![c]! - w.shade)).toBeLessThan(0.005);
    }
  });

  it('keeps NaN where an input is missing in a cell', async () => {
    const vars = variables();
    vars.temperature_2m!.values[2]![4] = NaN;
    const out = await deriveIndices({ grid: GRID, times: TIMES, variables: vars }, { workers: 0 });
    for (const name of ALL.filter((n) => !n.startsWith('uv_'))) expect(out[name]!.values[2]![4], name).toBeNaN();
    expect(out.uv_index!.values[2]![4]).not.toBeNaN();
  });

  it('takes a relative humidity a little above 100 % as saturation for UTCI', async () => {
    const vars = variables();
    const k = 4;
    const c = 10;
    vars.relative_humidity_2m!.values[k]![c] = 100.4;
    const out = await deriveIndices({ grid: GRID, times: TIMES, variables: vars }, { workers: 0 });
    const x = inputsAt(k, c);
    const mrt = out.mean_radiant_temperature!.values[k]![c]!;
    const want = utci({ temperature: x.t, meanRadiantTemperature: mrt, windSpeed10m: Math.hypot(x.u, x.v), relativeHumidity: 100 });
    expect(Number.isFinite(want)).toBe(true);
    expect(Math.abs(out.utci!.values[k]![c]! - want)).toBeLessThan(0.005);
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(deriveIndices({ grid: GRID, times: TIMES, variables: variables() }, { signal: ac.signal })).rejects.toThrow('stop');
  });
});
