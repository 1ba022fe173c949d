/**
 * Packings real producers use, made from the shared simple-packed files with
 * ecCodes' grib_set (`-r` repacks the decoded values), read back by the
 * reader and compared with the simple-packed original — and, where GDAL 3.6
 * can decode the packing, with GDAL's independent decoder too.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sameGrid } from '../../../geo/grid.js';
import { ReadError, type SourceField } from '../../../ingest/field.js';
import { gribReader } from '../../../ingest/grib/grib-reader.js';
import { dataFile, describeShared } from '../../support/shared-data.js';
import { gdalMessages } from './gdal-reference.js';

const run = promisify(execFile);

const GRIB2_PACKINGS = ['grid_ccsds', 'grid_jpeg', 'grid_png', 'grid_complex', 'grid_complex_spatial_differencing', 'grid_second_order', 'grid_ieee'];
/** ecCodes 2.28 can write only these for edition 1 (it silently keeps grid_simple for CCSDS/JPEG). */
const GRIB1_PACKINGS = ['grid_second_order', 'grid_ieee'];
/** GDAL 3.6's GRIB driver lacks CCSDS and GRIB2 second-order, and returns zeros for GRIB1 second-order. */
const GDAL_DECODES = new Set(['grid_jpeg', 'grid_png', 'grid_complex', 'grid_complex_spatial_differencing', 'grid_ieee']);

const SOURCES = [
  { rel: 'cosmo2i-rotated/cosmo_test.grib2', packings: GRIB2_PACKINGS, what: 'rotated grid' },
  { rel: 'ifs-hres-t2m-italy/alternate-scanning.grib', packings: GRIB2_PACKINGS, what: 'alternative row scanning' },
  { rel: 'icon2i-orography/I2ITA2KM_orog_20241009.grib2', packings: GRIB2_PACKINGS, what: 'bitmap section' },
  { rel: 'era5-t2m-europe/era5-single-level-scalar-time.grib', packings: GRIB1_PACKINGS, what: 'GRIB1' },
  { rel: 'dem-north-italy-1km/nita1k_orog.grb', packings: GRIB1_PACKINGS, what: 'GRIB1 with 189 missing points' },
  { rel: 'adriatic-waves/test.grib1', packings: GRIB1_PACKINGS, what: 'three GRIB1 messages, bitmap' },
];

/**
 * ecCodes 2.28's complex-packing encoder corrupts the ICON orography (values
 * above ~2600 m come back up to 2606 m off; GDAL decodes the same bytes to
 * the same wrong values, so it is the encoder): for this pair the repacked
 * file is checked against GDAL only.
 */
function encoderBroken(rel: string, packing: string): boolean {
  return rel.startsWith('icon2i-orography/') && packing.startsWith('grid_complex');
}

/** Half the quantisation step of a simple-packed message: 2^E · 10^-D / 2 (WMO GRIB2 regulation 92.9.4). */
async function halfSteps(path: string): Promise<number[]> {
  const { stdout } = await run('grib_get', ['-p', 'binaryScaleFactor,decimalScaleFactor', path]);
  return stdout.trim().split('\n').map((l) => {
    const [e, d] = l.trim().split(/\s+/).map(Number) as [number, number];
    return (2 ** e * 10 ** -d) / 2;
  });
}

function compare(a: SourceField, b: SourceField): { maxDiff: number; nanMismatch: number } {
  let maxDiff = 0;
  let nanMismatch = 0;
  for (let k = 0; k < a.values.length; k++) {
    const x = a.values[k]!;
    const y = b.values[k]!;
    if (Number.isNaN(x) || Number.isNaN(y)) nanMismatch += Number(Number.isNaN(x) !== Number.isNaN(y));
    else maxDiff = Math.max(maxDiff, Math.abs(x - y));
  }
  return { maxDiff, nanMismatch };
}

const CASES = SOURCES.flatMap((s) => s.packings.map((p) => [basename(s.rel), p, s.rel, s.what] as const));

describeShared('GRIB reader: packings', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'grib-packings-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  const originals = new Map<string, Promise<SourceField[]>>();
  const original = (rel: string) => {
    if (!originals.has(rel)) originals.set(rel, gribReader.read(dataFile(rel)));
    return originals.get(rel)!;
  };

  async function repack(rel: string, packing: string): Promise<string> {
    const out = join(dir, `${basename(rel)}.${packing}`);
    await run('grib_set', ['-r', '-s', `packingType=${packing}`, dataFile(rel), out]);
    const { stdout } = await run('grib_get', ['-p', 'packingType', out]);
    // Guard against a vacuous test: the repacked file must really use the packing.
    expect(stdout.trim().split('\n')).toEqual(Array(stdout.trim().split('\n').length).fill(packing));
    return out;
  }

  it.each(CASES)('%s as %s (%s, %s) equals the original within packing precision', async (_name, packing, rel) => {
    const path = await repack(rel, packing);
    const originals = await original(rel);
    const repacked = await gribReader.read(path);
    expect(repacked.length).toBe(originals.length);
    const steps = await halfSteps(dataFile(rel));
    for (let k = 0; k < originals.length; k++) {
      const o = originals[k]!;
      const r = repacked[k]!;
      expect(sameGrid(r.grid, o.grid, 0)).toBe(true);
      expect([r.name, r.units, r.validTime.getTime()]).toEqual([o.name, o.units, o.validTime.getTime()]);
      const { maxDiff, nanMismatch } = compare(o, r);
      expect(nanMismatch).toBe(0);
      if (!encoderBroken(rel, packing)) expect(maxDiff, `message ${k + 1}`).toBeLessThanOrEqual(steps[k]!);
    }
    if (GDAL_DECODES.has(packing) && (rel.endsWith('.grib2') || rel.endsWith('alternate-scanning.grib'))) {
      const gdal = await gdalMessages(path);
      const r = repacked[0]!;
      const { nx, ny } = r.grid;
      let maxDiff = 0;
      let maxAbs = 0;
      let nanMismatch = 0;
      for (let row = 0; row < ny; row++) {
        for (let col = 0; col < nx; col++) {
          const a = r.values[(ny - 1 - row) * nx + col]!;
          const b = gdal[0]!.values[row * nx + col]!;
          if (Number.isNaN(a) || Number.isNaN(b)) nanMismatch += Number(Number.isNaN(a) !== Number.isNaN(b));
          else {
            maxDiff = Math.max(maxDiff, Math.abs(a - b));
            maxAbs = Math.max(maxAbs, Math.abs(b));
          }
        }
      }
      expect(nanMismatch).toBe(0);
      expect(maxDiff).toBeLessThanOrEqual(maxAbs * 2 ** -22);
    }
  });

  it.each(['grid_ccsds', 'grid_jpeg', 'grid_complex_spatial_differencing', 'grid_second_order'])(
    'a truncated %s file is a ReadError naming the file',
    async (packing) => {
      const full = await readFile(await repack('cosmo2i-rotated/cosmo_test.grib2', packing));
      const cut = join(dir, `truncated.${packing}.grib2`);
      await writeFile(cut, full.subarray(0, Math.floor(full.length * 0.6)));
      const err = await gribReader.read(cut).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ReadError);
      expect((err as ReadError).file).toBe(cut);
      expect((err as ReadError).reason).toMatch(/GRIB message 1.*End of resource/);
    },
  );

  it('a JPEG2000 code stream that does not decode is a ReadError', async () => {
    const bytes = Buffer.from(await readFile(await repack('cosmo2i-rotated/cosmo_test.grib2', 'grid_jpeg')));
    const s7 = sectionOffset(bytes, 7);
    for (let k = s7 + 25; k < s7 + 2025; k++) bytes[k] = (bytes[k]! * 7 + 13) & 0xff;
    const bad = join(dir, 'garbled-jpeg.grib2');
    await writeFile(bad, bytes);
    await expect(gribReader.read(bad)).rejects.toThrow(/garbled-jpeg\.grib2: ecCodes cannot decode GRIB message 1: values: Decoding invalid/);
  });

  it('an unknown data representation template is a ReadError, not zeros', async () => {
    const bytes = Buffer.from(await readFile(dataFile('cosmo2i-rotated/cosmo_test.grib2')));
    bytes.writeUInt16BE(999, sectionOffset(bytes, 5) + 9); // octets 10-11: template number
    const bad = join(dir, 'template-999.grib2');
    await writeFile(bad, bytes);
    await expect(gribReader.read(bad)).rejects.toBeInstanceOf(ReadError);
  });
});

/** Byte offset of GRIB2 section `n` in the first message (sections: 4-byte length, 1-byte number). */
function sectionOffset(msg: Buffer, n: number): number {
  let pos = 16;
  while (msg.toString('latin1', pos, pos + 4) !== '7777') {
    if (msg[pos + 4] === n) return pos;
    pos += msg.readUInt32BE(pos);
  }
  throw new Error(`no section ${n}`);
}
