/**
 * `meteopunto tiles render` through the built CLI on real tiles: the sample
 * forecast's temperature (the manual's docs/images/render-temperature.png
 * with `npm run docs:images`), and a store with a hole of missing cells.
 * The PNGs are decoded by GDAL's PNG driver through /usr/bin/python3, and
 * the legend by pngjs (./legend-ink.ts): its text lies inside the image,
 * its ticks are round numbers, one label per tick mark.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleDataset } from '../../../ingest/sample/build.js';
import { imagesDir } from '../../support/docs-images.js';
import { legendInk } from './legend-ink.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { REGULAR, analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const REPO = resolve(import.meta.dirname, '../../..');

function cli(root: string, args: string[], cwd = REPO) {
  const r = spawnSync(process.execPath, [join(REPO, 'dist/cli/main.js'), 'tiles', ...args], {
    cwd, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root }, timeout: 120_000,
  });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

interface Decoded { width: number; height: number; colours: number; transparent: number; opaque: number; westBad: number; westTransparent: number; westTotal: number; eastOpaque: number; eastTotal: number }

/** Decode with GDAL; the west/east counts split the map at `splitLon` over the box [w, s, e, n] (map height `mapH`). */
function decode(file: string, box: number[] = [0, 0, 1, 1], splitLon = 0, mapH = 0): Decoded {
  const py = `
import json, sys
from osgeo import gdal
import numpy as np
ds = gdal.Open(sys.argv[1])
a = np.stack([ds.GetRasterBand(i + 1).ReadAsArray() for i in range(ds.RasterCount)], axis=-1).astype(np.int64)
h, w, _ = a.shape
w0, s0, e0, n0 = [float(x) for x in sys.argv[2:6]]
split = float(sys.argv[6]); maph = int(sys.argv[7])
m = a[:maph]
lon = w0 + (np.arange(w) + 0.5) / w * (e0 - w0)
west = m[:, lon < split - 0.1]; east = m[:, lon > split + 0.1]
outline = (west[..., 0] == 20) & (west[..., 1] == 20) & (west[..., 2] == 20) & (west[..., 3] == 255)
opaque = a[..., 3] == 255
rgb = a[..., 0] * 65536 + a[..., 1] * 256 + a[..., 2]
print(json.dumps({"width": w, "height": h, "bands": ds.RasterCount, "colours": int(len(np.unique(rgb[opaque]))),
  "transparent": int((a[..., 3] == 0).sum()), "opaque": int(opaque.sum()),
  "westBad": int(((west[..., 3] != 0) & ~outline).sum()), "westTransparent": int((west[..., 3] == 0).sum()), "westTotal": int(west[..., 3].size),
  "eastOpaque": int((east[..., 3] == 255).sum()), "eastTotal": int(east[..., 3].size)}))
`;
  const r = spawnSync('/usr/bin/python3', ['-c', py, file, ...box.map(String), String(splitLon), String(mapH)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as Decoded;
}

/** The map's height for a box [w, s, e, n] drawn `width` pixels wide, x shortened by cos(mid-latitude). */
function mapHeight(box: number[], width: number): number {
  const [w, s, e, n] = box as [number, number, number, number];
  return Math.round((width * (n - s)) / ((e - w) * Math.cos((((s + n) / 2) * Math.PI) / 180)));
}

/** The printed ticks are multiples of one step of 1, 2 or 5 × 10^n; the PNG's legend shows one mark and one label per tick, all inside the image. */
function checkLegend(png: string, printed: string, mapH: number): void {
  const ticks = /ticks ((?:-?[\d.]+ ?)+)/.exec(printed)![1]!.trim().split(' ').map(Number);
  expect(ticks.length).toBeGreaterThanOrEqual(4);
  const step = ticks[1]! - ticks[0]!;
  const exp = Math.floor(Math.log10(step));
  const mantissa = step / 10 ** exp;
  expect([1, 2, 5].some((m) => Math.abs(mantissa - m) < 1e-9), `step ${step}`).toBe(true);
  for (const t of ticks) expect(Math.abs(t / step - Math.round(t / step)), `tick ${t}`).toBeLessThan(1e-9);
  const ink = legendInk(readFileSync(png), mapH);
  expect(ink.box.left).toBeGreaterThanOrEqual(2);
  expect(ink.box.right).toBeLessThanOrEqual(ink.width - 3);
  expect(ink.box.bottom).toBeLessThanOrEqual(ink.height - 2);
  expect(ink.tickMarks).toBe(ticks.length);
  expect(ink.labels.length).toBe(ticks.length);
  for (const [i, l] of ink.labels.entries()) {
    expect(l.right - l.left).toBeGreaterThan(0);
    if (i > 0) expect(l.left - ink.labels[i - 1]!.right).toBeGreaterThanOrEqual(6);
  }
}

describe('meteopunto tiles render', () => {
  const root = tempRoot('render');
  const times = hourlyTimes(2);
  beforeAll(async () => {
    await buildSampleDataset({
      root, now: new Date('2026-07-15T13:20:00Z'), hoursAhead: 2, products: ['nwp'],
      nwpGrid: { kind: 'regular_ll', nx: 243, ny: 237, x0: 6.5, y0: 35.5, dx: 0.05, dy: 0.05 },
    });
    // A hole: every cell west of 10° E missing.
    // A pollutant from 4.4 to 54.45 µg/m³ (sequential scale).
    await writeProductVersion(root, input('pm', REGULAR, times, {
      pm10: { units: 'µg/m³', precision: 0.01, values: analytic(REGULAR, times, (lon, lat) => 4.4 + (50.05 * (lon - 7 + lat - 36)) / 11.8) },
    }));
    await writeProductVersion(root, input('holes', REGULAR, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, times, (x, y) => (x < 10 ? NaN : 30 - (y - 36) * 5)) },
    }));
  }, 240_000);

  it("renders the sample forecast's temperature: a decodable PNG of the requested width, many colours, a legend", () => {
    const out = join(imagesDir(), 'render-temperature.png');
    const r = cli(root, ['render', 'nwp', '--var', 'temperature_2m', '--time', '2026-07-15T12:00Z', '--out', out, '--width', '640']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`wrote ${out}`);
    expect(r.out).toContain('diverging scale');
    const d = decode(out);
    expect(d.width).toBe(640);
    expect(d.height).toBeGreaterThan(640);
    expect(d.colours).toBeGreaterThan(50);
    checkLegend(out, r.out, mapHeight([6.475, 35.475, 18.625, 47.325], 640));
  });

  it('a sequential scale: round bounds and ticks, values printed without float noise, the legend inside the image', () => {
    const out = join(root, 'pm.png');
    const r = cli(root, ['render', 'pm', '--var', 'pm10', '--time', times[0]!.toISOString(), '--out', out, '--width', '400']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    // float32 holds 4.4 as 4.400000095367432 and 54.45 as 54.45000076293945.
    expect(r.out).toContain('values 4.4..54.45 µg/m³');
    expect(r.out).toContain('sequential scale 0..60, ticks 0 10 20 30 40 50 60');
    expect(r.out).not.toMatch(/\d\.\d{7,}/);
    checkLegend(out, r.out, mapHeight([6.95, 35.95, 13.95, 40.95], 400));
  });

  it('without --out the PNG goes to $METEOPUNTO_DATA/renders, not the current directory; *.png is ignored by git except the manual\'s', () => {
    const cwd = mkdtempSync(join(tmpdir(), 'mp-render-cwd-'));
    const r = cli(root, ['render', 'pm', '--var', 'pm10', '--width', '200'], cwd);
    expect(r.code).toBe(0);
    const m = /^wrote (\S+\.png) /.exec(r.out);
    expect(m?.[1]).toMatch(new RegExp(`^${join(root, 'renders')}/pm-pm10-\\d{4}-\\d{2}-\\d{2}T\\d{6}Z\\.png$`));
    expect(existsSync(m![1]!)).toBe(true);
    expect(readdirSync(cwd)).toEqual([]);
    const ignored = (path: string) => spawnSync('git', ['check-ignore', '-q', '--no-index', path], { cwd: REPO }).status === 0;
    expect(ignored('nwp-temperature_2m-20260715T1200Z.png')).toBe(true);
    expect(ignored('docs/images/render-temperature.png')).toBe(false);
  });

  it('cells without data are transparent, cells with data opaque', () => {
    const out = join(root, 'holes.png');
    const r = cli(root, ['render', 'holes', '--var', 'temperature_2m', '--time', times[0]!.toISOString(), '--out', out, '--width', '400']);
    expect(r.code).toBe(0);
    // REGULAR: 70 × 50 cells of 0.1° from (7, 36): the box is cell edges.
    const box = [6.95, 35.95, 13.95, 40.95];
    const k = Math.cos((38.45 * Math.PI) / 180);
    const mapH = Math.round((400 * 5) / (7 * k));
    const d = decode(out, box, 9.95, mapH);
    expect(d.height).toBe(mapH + 46);
    expect(d.westBad).toBe(0); // nothing but the coastline drawn where data is missing
    expect(d.westTransparent / d.westTotal).toBeGreaterThan(0.95);
    expect(d.eastOpaque).toBe(d.eastTotal);
  });

  it('bad input: unknown variable or width is a usage error, a time outside the store exit 1', () => {
    expect(cli(root, ['render', 'nwp', '--var', 'nope']).code).toBe(2);
    expect(cli(root, ['render', 'nwp', '--var', 'temperature_2m', '--width', '9']).code).toBe(2);
    const r = cli(root, ['render', 'nwp', '--var', 'temperature_2m', '--time', '2020-01-01T00:00Z', '--out', join(root, 'x.png')]);
    expect(r.code).toBe(1);
    expect(r.err).toContain('outside');
  });
});
