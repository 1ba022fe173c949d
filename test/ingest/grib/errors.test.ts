/**
 * What the GRIB reader refuses, and how it says so: unsupported grids (real
 * GRIB files shipped with ecCodes as its samples), non-GRIB and missing
 * files, and a machine without the ecCodes library.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ReadError } from '../../../ingest/field.js';
import { decodeGribFile, GribDecoderUnavailableError } from '../../../ingest/grib/eccodes-bridge.js';
import { gribReader } from '../../../ingest/grib/grib-reader.js';
import { dataFile, describeShared } from '../../support/shared-data.js';

const SAMPLES = execFileSync('codes_info', ['-s'], { encoding: 'utf8' }).trim();

describe('gribReader.sniff', () => {
  it('recognises the GRIB magic, nothing else', () => {
    expect(gribReader.sniff(new TextEncoder().encode('GRIB\x00\x00\x01\x02'))).toBe(true);
    expect(gribReader.sniff(new TextEncoder().encode('\x89HDF\r\n'))).toBe(false);
    expect(gribReader.sniff(new TextEncoder().encode('CDF\x01'))).toBe(false);
    expect(gribReader.sniff(new TextEncoder().encode('GRI'))).toBe(false);
    expect(gribReader.format).toBe('grib');
  });
});

describe('GRIB reader: unsupported grids are ReadErrors', () => {
  it.each([
    ['reduced_gg_pl_32_grib2.tmpl', 'reduced_gg'],
    ['gg_sfc_grib1.tmpl', 'reduced_gg'],
    ['reduced_ll_sfc_grib1.tmpl', 'reduced_ll'],
    ['polar_stereographic_pl_grib2.tmpl', 'polar_stereographic'],
    ['lambert_bf_grib2.tmpl', 'lambert_bf'],
    ['sh_ml_grib2.tmpl', 'sh'],
  ])('%s (%s)', async (sample, gridType) => {
    const path = join(SAMPLES, sample);
    const err = await gribReader.read(path).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ReadError);
    expect((err as ReadError).file).toBe(path);
    expect((err as ReadError).reason).toContain(`unsupported grid type '${gridType}'`);
  });
});

describe('GRIB reader: files that are not GRIB', () => {
  let dir: string;
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), 'grib-errors-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it('an empty file and a text file have no GRIB message', async () => {
    const empty = join(dir, 'empty.grib');
    const text = join(dir, 'text.grib');
    await writeFile(empty, '');
    await writeFile(text, 'hello, world\n');
    await expect(gribReader.read(empty)).rejects.toThrow(`${empty}: no GRIB message found`);
    await expect(gribReader.read(text)).rejects.toThrow(`${text}: no GRIB message found`);
  });

  it('a bare GRIB header with nothing behind it is a ReadError', async () => {
    const stub = join(dir, 'stub.grib2');
    await writeFile(stub, Buffer.from('GRIB\x00\x00\x00\x02\x00\x00\x00\x00\x00\x00\x10\x00', 'latin1'));
    await expect(gribReader.read(stub)).rejects.toBeInstanceOf(ReadError);
  });

  it('a missing file is a ReadError naming it', async () => {
    const missing = join(dir, 'nope.grib2');
    await expect(gribReader.read(missing)).rejects.toThrow(`${missing}: cannot open file`);
  });

  it('without the ecCodes library the error says how to install it', async () => {
    const era5 = dataFile('era5-t2m-europe/era5-single-level-scalar-time.grib');
    const noLib = { ...process.env, METEOPUNTO_ECCODES_LIB: join(dir, 'libeccodes.so.0') };
    const err = await decodeGribFile(era5, noLib).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(GribDecoderUnavailableError);
    expect((err as Error).message).toContain('cannot load the ecCodes C library');
    expect((err as Error).message).toContain('apt-get install libeccodes-tools');

    const noPython = { ...process.env, METEOPUNTO_GRIB_PYTHON: join(dir, 'no-such-python') };
    await expect(decodeGribFile(era5, noPython)).rejects.toThrow(/no-such-python not found.*apt-get install libeccodes-tools python3/);
  });
});

describeShared('GRIB reader: error messages name the message', () => {
  it('a file cut in its second message says which message', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'grib-cut-'));
    try {
      const full = await readFile(dataFile('adriatic-waves/test.grib1'));
      const cut = join(dir, 'cut.grib1');
      await writeFile(cut, full.subarray(0, 30000)); // message 2 spans bytes 7218..42178 (grib_ls -p offset,totalLength)
      await expect(gribReader.read(cut)).rejects.toThrow(/cut\.grib1: ecCodes cannot decode GRIB message 2: .*End of resource/);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
