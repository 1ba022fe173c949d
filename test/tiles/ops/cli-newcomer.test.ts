/**
 * The tiles CLI as a newcomer meets it, through the built entry
 * point: negative numbers are values (`--lon -2.85`, not "ambiguous"), in
 * the tiles group and in the others (the words are read once, in
 * cli/main.ts); an unknown product is "no such product" naming those there;
 * `tiles ls` and `tiles info` print grid steps rounded, both when they
 * differ.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const CLI = resolve(import.meta.dirname, '../../../dist/cli/main.js');

/** West of Greenwich and south of nothing: 0.1° cells from 37 N, 5 W. */
const WEST: RegularLatLonGrid = { kind: 'regular_ll', nx: 40, ny: 30, x0: -5, y0: 37, dx: 0.1, dy: 0.1 };
/** The sample NWP's spacing: 0.03° × 0.025°. */
const UNEVEN: RegularLatLonGrid = { kind: 'regular_ll', nx: 20, ny: 20, x0: 10, y0: 40, dx: 0.03, dy: 0.025 };
/** 1/24°, whose float32 step prints as 0.04166666559. */
const TWENTY_FOURTH: RegularLatLonGrid = { kind: 'regular_ll', nx: 20, ny: 20, x0: 10, y0: 40, dx: Math.fround(1 / 24), dy: Math.fround(1 / 24) };

describe('tiles CLI: negative numbers, unknown products, grid steps', () => {
  const root = tempRoot('newcomer');
  const times = hourlyTimes(2);
  const cli = (args: string[]) => {
    const r = spawnSync(process.execPath, [CLI, ...args], { encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root }, timeout: 60_000 });
    return { code: r.status, out: r.stdout, err: r.stderr };
  };
  beforeAll(async () => {
    // A plane in lon/lat: bilinear interpolation returns it exactly.
    await writeProductVersion(root, input('west', WEST, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(WEST, times, (lon, lat) => 10 + 2 * lon + lat) },
    }));
    await writeProductVersion(root, input('uneven', UNEVEN, times, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(UNEVEN, times, () => 1) } }));
    await writeProductVersion(root, input('marine', TWENTY_FOURTH, times, { temperature_2m: { units: '°C', precision: 0.01, values: analytic(TWENTY_FOURTH, times, () => 1) } }));
  });

  it('tiles point --lat 38.12 --lon -2.85: the value at 2.85° W', () => {
    const r = cli(['tiles', 'point', 'west', '--lat', '38.12', '--lon', '-2.85', '--time', times[0]!.toISOString(), '--json']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).values.temperature_2m).toBeCloseTo(10 + 2 * -2.85 + 38.12, 2);
    // A value that is not a number is still refused as such, and a negative number out of range by range.
    expect(cli(['tiles', 'point', 'west', '--lat', '-95', '--lon', '-2.85']).err).toContain("--lat must be a number in -90..90, got '-95'");
  });

  it('other commands read negative values too: render --width -5 and backfill --from -1950 are refused for their value, not as ambiguous', () => {
    const w = cli(['tiles', 'render', 'west', '--var', 'temperature_2m', '--width', '-5']);
    expect(w.code).toBe(2);
    expect(w.err).toContain("--width must be an integer in 64..4096, got '-5'");
    const b = cli(['backfill', 'reanalysis', '--from', '-1950', '--to', '1951']);
    expect(b.code).toBe(2);
    expect(b.err).toContain("--from must be a year (YYYY), got '-1950'");
    for (const r of [w, b]) expect(r.err).not.toContain('ambiguous');
  });

  it('tiles info|point|render bogus: no such product, naming the products there', () => {
    for (const args of [['info', 'bogus'], ['point', 'bogus', '--lat', '38', '--lon', '-3'], ['render', 'bogus', '--var', 'x']]) {
      const r = cli(['tiles', ...args]);
      expect(r.code).toBe(1);
      expect(r.err).toContain(`no such product 'bogus' in ${root}: the products there are marine, uneven, west`);
    }
  });

  it('tiles ls and info print grid steps to three significant digits, both when they differ', () => {
    const ls = cli(['tiles', 'ls']);
    expect(ls.code).toBe(0);
    expect(ls.out).toMatch(/^marine .*grid 20 × 20, 0\.0417°$/m);
    expect(ls.out).toMatch(/^uneven .*grid 20 × 20, 0\.03° × 0\.025°$/m);
    expect(ls.out).not.toContain('0.0416666');
    expect(cli(['tiles', 'info', 'marine']).out).toContain('regular lat/lon 20 × 20, 0.0417° (');
    expect(cli(['tiles', 'info', 'uneven']).out).toContain('regular lat/lon 20 × 20, 0.03° × 0.025° (');
  });
});
