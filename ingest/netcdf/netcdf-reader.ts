/**
 * The NetCDF reader: NetCDF3 classic and 64-bit offset (netcdfjs header,
 * bulk decoding in nc3.ts) and NetCDF4/HDF5 (h5wasm, hdf5.ts), recognised by
 * magic bytes, decoded per the CF conventions into SourceFields (fields.ts).
 * Every failure surfaces as ReadError(file, reason).
 */
import { open } from 'node:fs/promises';
import { ReadError, type ReadOptions, type Reader, type SourceField } from '../field.js';
import { sniffContainer } from './magic.js';
import type { NcDataset } from './model.js';
import { openNetcdf3 } from './nc3.js';
import { openNetcdf4 } from './hdf5.js';
import { EmptyDimensionError, readFields } from './fields.js';
import { GridAxisError } from './cf-grid.js';
import { TimeUnitsError } from './cf-time.js';

async function head(file: string): Promise<Uint8Array> {
  let fh;
  try {
    fh = await open(file, 'r');
  } catch (e) {
    throw new ReadError(file, `cannot open: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`, { cause: e });
  }
  try {
    const buf = Buffer.alloc(4096);
    const { bytesRead } = await fh.read(buf, 0, buf.length, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
}

/** Opens the container behind a NetCDF file (exported for tools and tests). */
export async function openNetcdf(file: string): Promise<NcDataset> {
  const kind = sniffContainer(await head(file));
  switch (kind) {
    case 'cdf1':
    case 'cdf2':
    case 'cdf5':
      return openNetcdf3(file);
    case 'hdf5':
      return openNetcdf4(file);
    default:
      throw new ReadError(file, 'not a NetCDF file (no CDF or HDF5 signature)');
  }
}

/** Every field of `file`; with `options.box`, fields on regular latitude/longitude grids over that area only (./window.ts). */
export async function readNetcdf(file: string, options?: ReadOptions): Promise<SourceField[]> {
  const ds = await openNetcdf(file);
  try {
    const { fields, skipped } = readFields(ds, undefined, options?.box);
    if (fields.length === 0) {
      const why = skipped.length ? `: ${skipped.join('; ')}` : '';
      throw new ReadError(file, `no gridded latitude/longitude field in ${ds.format} file${why}`);
    }
    return fields;
  } catch (e) {
    if (e instanceof ReadError) throw e;
    if (e instanceof GridAxisError || e instanceof TimeUnitsError || e instanceof EmptyDimensionError) throw new ReadError(file, e.message, { cause: e });
    throw new ReadError(file, `cannot decode: ${(e as Error).message}`, { cause: e });
  } finally {
    ds.close();
  }
}

export const netcdfReader: Reader = {
  format: 'netcdf',
  sniff(headBytes: Uint8Array): boolean {
    return sniffContainer(headBytes) !== null;
  },
  read: readNetcdf,
};
