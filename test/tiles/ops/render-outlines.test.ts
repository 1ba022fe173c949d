/**
 * The outlines `tiles render` draws (tiles/ops/render/outlines.geojson),
 * read by GDAL/OGR beside the Natural Earth boundaries they come from:
 * San Marino and the Vatican each get one line, their own border
 * (regression: Italy's polygon also drew its holes, simplified
 * differently, so the sm100 map showed two outlines crossing).
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { expect, it } from 'vitest';
import { dataFile, describeShared } from '../../support/shared-data.js';

const OUTLINES = resolve(import.meta.dirname, '../../../tiles/ops/render/outlines.geojson');

/** Lines of the outlines file that reach into the enclave's box, and each one's largest distance (degrees) from the enclave's real border. */
function linesNear(country: string): { count: number; farthest: number[] } {
  const py = `
import json, sys
from osgeo import ogr
outlines, border_file = sys.argv[1], sys.argv[2]
# Keep each dataset and feature referenced: OGR geometries die with them.
src = ogr.Open(border_file)
feature = src.GetLayer(0).GetNextFeature()
border = feature.GetGeometryRef().Boundary()
minx, maxx, miny, maxy = border.GetEnvelope()
box = ogr.CreateGeometryFromWkt(f"POLYGON(({minx} {miny},{maxx} {miny},{maxx} {maxy},{minx} {maxy},{minx} {miny}))")
far = []
lines = ogr.Open(outlines)
for f in lines.GetLayer(0):
    g = f.GetGeometryRef()
    for i in range(g.GetGeometryCount()):
        line = g.GetGeometryRef(i)
        if line.Intersects(box):
            far.append(max(ogr.CreateGeometryFromWkt(f"POINT({x} {y})").Distance(border) for x, y in line.GetPoints()))
print(json.dumps({"count": len(far), "farthest": far}))
`;
  const r = spawnSync('/usr/bin/python3', ['-c', py, OUTLINES, dataFile(`boundaries/${country}.geojson`)], { encoding: 'utf8' });
  if (r.status !== 0) throw new Error(r.stderr);
  return JSON.parse(r.stdout) as { count: number; farthest: number[] };
}

describeShared('render outlines', () => {
  it.each(['SMR', 'VAT'])('%s: one line, its own border (every vertex within 0.002° of Natural Earth)', (country) => {
    const near = linesNear(country);
    expect(near.count).toBe(1);
    expect(near.farthest[0]).toBeLessThan(0.002);
  });
});
