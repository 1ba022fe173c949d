import { readdirSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { GridDef } from '../../../geo/grid.js';
import { meanRadiantTemperature, solarGeometry, solarParameters } from '../../../science/index.js';
import { deriveIndices, INDEX_VARIABLES } from '../../../ingest/indices/derive-indices.js';
import { cellLatLon } from '../../../geo/grid.js';
import { expectedAt, GRID, inputsAt, periodHours, TIMES, variables } from './fixtures.js';

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
  it('stores the mean radiant temperature only: what the API reads (api/fields/developer/comfort.ts)', () => {
    // UTCI, WBGT, UV, frost and ET0 are computed at the point from the stored inputs.
    expect(ALL).toEqual(['mean_radiant_temperature']);
  });

  it('gives every stored index, each cell equal to the library called for that cell within half the packing precision', async () => {
    const out = await deriveIndices({ grid: GRID, times: TIMES, variables: variables() }, { workers: 0 });
    expect(Object.keys(out).sort()).toEqual([...ALL].sort());
    const worst = compare(out);
    for (const name of ALL) {
      const spec = INDEX_VARIABLES[name as keyof typeof INDEX_VARIABLES];
      expect(worst[name], name).toBeLessThanOrEqual(spec.precision / 2);
      expect(out[name]!.units).toBe(spec.units);
      expect(out[name]!.values).toHaveLength(TIMES.length);
    }
    // The fixture covers night (Tmrt near the air temperature) and a summer noon (Tmrt well above it).
    const mrt = out.mean_radiant_temperature!.values;
    const t = variables().temperature_2m!.values;
    expect(mrt[5]!.some((v, i) => v > t[5]![i]! + 15)).toBe(true);
    expect(mrt[0]!.every((v, i) => Math.abs(v - t[0]![i]!) < 25)).toBe(true);
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

  it('keeps its threads for the next call (a streamed year calls once per file), the same arrays again', async () => {
    // The process's threads as the kernel lists them (a worker thread is one while it lives): the second call starts none.
    const tasks = () => new Set(readdirSync('/proc/self/task'));
    const input = { grid: GRID, times: TIMES, variables: variables() };
    const inline = await deriveIndices(input, { workers: 0 });
    const first = await deriveIndices(input, { workers: 2 });
    const kept = tasks();
    const second = await deriveIndices(input, { workers: 2 });
    expect([...tasks()].filter((t) => !kept.has(t))).toEqual([]);
    for (const name of ALL) {
      expect(first[name]!.values, name).toEqual(inline[name]!.values);
      expect(second[name]!.values, name).toEqual(inline[name]!.values);
    }
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

  it('yields nothing without temperature, shortwave and longwave radiation together', async () => {
    expect(await run(['t'])).toEqual({});
    expect(await run(['t', 'rh', 'td', 'u', 'v', 'sp', 'msl', 'sw', 'direct', 'cloud', 'ozone'])).toEqual({});
    expect(await run(['sw', 'lw', 'direct'])).toEqual({});
    expect(Object.keys(await run(['t', 'sw', 'lw'], false))).toEqual(['mean_radiant_temperature']);
  });

  it('estimates the direct beam with Liljegren eq. 13 when the product has none', async () => {
    const out = await run(['t', 'rh', 'u', 'v', 'sw', 'lw']);
    expect(Object.keys(out).sort()).toEqual(['mean_radiant_temperature']);
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

  it('keeps NaN where an input is missing in a cell', async () => {
    const vars = variables();
    vars.temperature_2m!.values[2]![4] = NaN;
    vars.longwave_radiation!.values[3]![6] = NaN;
    const out = await deriveIndices({ grid: GRID, times: TIMES, variables: vars }, { workers: 0 });
    for (const name of ALL) {
      expect(out[name]!.values[2]![4], name).toBeNaN();
      expect(out[name]!.values[3]![6], name).toBeNaN();
      expect(out[name]!.values[2]![5], name).not.toBeNaN();
    }
  });

  it('stops when aborted', async () => {
    const ac = new AbortController();
    ac.abort(new Error('stop'));
    await expect(deriveIndices({ grid: GRID, times: TIMES, variables: variables() }, { signal: ac.signal })).rejects.toThrow('stop');
  });
});
