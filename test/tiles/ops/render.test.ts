/**
 * `meteopunto tiles render` through the built CLI on real tiles: the sample
 * forecast's temperature (written to docs/images/render-temperature.png),
 * and a store with a hole of missing cells. The PNGs are decoded by GDAL's
 * PNG driver through /usr/bin/python3, not by the encoder's own library.
 */
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildSampleDataset } from '../../../ingest/sample/build.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { REGULAR, analytic, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';

const REPO = resolve(import.meta.dirname, '../../..');

function cli(root: string, args: string[]) {
  const r = spawnSync(process.execPath, ['dist/cli/main.js', 'tiles', ...args], {
    cwd: REPO, encoding: 'utf8', env: { ...process.env, METEOPUNTO_DATA: root }, timeout: 120_000,
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

describe('meteopunto tiles render', () => {
  const root = tempRoot('render');
  const times = hourlyTimes(2);
  beforeAll(async () => {
    await buildSampleDataset({
      root, now: new Date('2026-07-15T13:20:00Z'), hoursAhead: 2, products: ['nwp'],
      nwpGrid: { kind: 'regular_ll', nx: 261, ny: 241, x0: 6, y0: 35.5, dx: 0.05, dy: 0.05 },
    });
    // A hole: every cell west of 10° E missing.
    await writeProductVersion(root, input('holes', REGULAR, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, times, (x, y) => (x < 10 ? NaN : 30 - (y - 36) * 5)) },
    }));
  }, 240_000);

  it("renders the sample forecast's temperature: a decodable PNG of the requested width, many colours, a legend", () => {
    const out = join(REPO, 'docs/images/render-temperature.png');
    const r = cli(root, ['render', 'nwp', '--var', 'temperature_2m', '--time', '2026-07-15T12:00Z', '--out', out, '--width', '640']);
    expect(r.err).toBe('');
    expect(r.code).toBe(0);
    expect(r.out).toContain(`wrote ${out}`);
    expect(r.out).toContain('diverging scale');
    const d = decode(out);
    expect(d.width).toBe(640);
    expect(d.height).toBeGreaterThan(640);
    expect(d.colours).toBeGreaterThan(50);
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
    expect(d.height).toBe(mapH + 44);
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
