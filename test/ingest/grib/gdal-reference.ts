/**
 * Runs gdal_grib_dump.py (GDAL's GRIB driver, degrib/g2clib: an independent
 * decoder) and parses its frames. Test support only.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const SCRIPT = join(import.meta.dirname, 'gdal_grib_dump.py');

export interface GdalMessage {
  nx: number;
  ny: number;
  /** GDAL geotransform: [x0 corner, dx, rot, y0 corner, rot, dy (negative: north-up)]. */
  geotransform: number[];
  rotated: boolean;
  metadata: Record<string, string>;
  /** [col, row, lat, lon]: pixel centres converted to geographic lat/lon by GDAL/PROJ. */
  samples: [number, number, number, number][];
  /** Raster order: row 0 = northernmost; NaN where GDAL reports nodata. */
  values: Float64Array;
}

export async function gdalMessages(path: string): Promise<GdalMessage[]> {
  const dir = await mkdtemp(join(tmpdir(), 'gdal-grib-'));
  let stdout: Buffer;
  try {
    await run('/usr/bin/python3', [SCRIPT, path, join(dir, 'out.bin')], { maxBuffer: 1 << 26 });
    stdout = await readFile(join(dir, 'out.bin'));
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  const out: GdalMessage[] = [];
  let pos = 0;
  while (pos < stdout.length) {
    const nl = stdout.indexOf(0x0a, pos);
    const head = JSON.parse(stdout.subarray(pos, nl).toString('utf8')) as {
      size: [number, number];
      geotransform: number[];
      rotated: boolean;
      metadata: Record<string, string>;
      samples: [number, number, number, number][];
    };
    const n = head.size[0] * head.size[1];
    const bytes = stdout.subarray(nl + 1, nl + 1 + n * 8);
    const values = new Float64Array(n);
    new Uint8Array(values.buffer).set(bytes);
    out.push({ nx: head.size[0], ny: head.size[1], geotransform: head.geotransform, rotated: head.rotated, metadata: head.metadata, samples: head.samples, values });
    pos = nl + 1 + n * 8;
  }
  return out;
}

/** GDAL's geotransform is usable for geolocation (its GRIB1 driver writes 0 or 65.535° increments for some grids). */
export function gdalGeolocationUsable(m: GdalMessage): boolean {
  const dx = m.geotransform[1]!;
  const dy = -m.geotransform[5]!;
  return dx > 0 && dy > 0 && dx * m.nx <= 361 && dy * m.ny <= 181;
}
