/**
 * CF packing and missing data (CF Conventions 1.11 §2.5.1 and §8.1,
 * https://cfconventions.org/cf-conventions/cf-conventions.html#missing-data):
 * a raw value is missing when it equals _FillValue or missing_value or lies
 * outside valid_range / valid_min / valid_max, all compared in the *packed*
 * type before unpacking; a valid value becomes raw · scale_factor + add_offset.
 * Without _FillValue, netCDF's default fill for the type marks missing data
 * (netCDF-C `NC_FILL_*`, as netCDF4-python does; not for bytes).
 * `_Unsigned = "true"` (NetCDF3 convention for unsigned storage) reinterprets
 * signed integers as unsigned first.
 */
import type { NcType, NcVariable, NumArray } from './model.js';
import { attrNumber, attrNumbers, attrText } from './model.js';

export interface Packing {
  scale: number;
  offset: number;
  /** Raw values meaning "missing" (fill and missing_value), in packed units. */
  missing: number[];
  /** Valid raw range, inclusive, in packed units (±Infinity when unbounded). */
  validMin: number;
  validMax: number;
  /** Reinterpret signed integer storage as unsigned. */
  unsigned: boolean;
}

/** netCDF-C default fill values (netcdf.h NC_FILL_*). */
const DEFAULT_FILL: Partial<Record<NcType, number>> = {
  i2: -32767,
  u2: 65535,
  i4: -2147483647,
  u4: 4294967295,
  i8: -9223372036854775806,
  u8: 18446744073709551614,
  f4: Math.fround(9.9692099683868690e36),
  f8: 9.969209968386869e36,
};

const UNSIGNED_OF: Partial<Record<NcType, NcType>> = { i1: 'u1', i2: 'u2', i4: 'u4', i8: 'u8' };

function toUnsigned(value: number, t: NcType): number {
  const bits = t === 'i1' ? 8 : t === 'i2' ? 16 : t === 'i4' ? 32 : 64;
  return value < 0 ? value + 2 ** bits : value;
}

export function packingOf(v: NcVariable): Packing {
  const unsigned = attrText(v, '_Unsigned')?.toLowerCase() === 'true' && v.type in UNSIGNED_OF;
  const storage = unsigned ? UNSIGNED_OF[v.type]! : v.type;
  const fix = (x: number) => (unsigned ? toUnsigned(x, v.type) : x);

  const fillAttr = attrNumbers(v, '_FillValue');
  const missing: number[] = [];
  if (fillAttr) missing.push(fix(fillAttr[0]!));
  else if (DEFAULT_FILL[storage] !== undefined) missing.push(DEFAULT_FILL[storage]!);
  for (const m of attrNumbers(v, 'missing_value') ?? []) missing.push(fix(m));

  let validMin = -Infinity;
  let validMax = Infinity;
  const range = attrNumbers(v, 'valid_range');
  if (range && range.length >= 2) {
    validMin = fix(range[0]!);
    validMax = fix(range[1]!);
  }
  const vmin = attrNumber(v, 'valid_min');
  const vmax = attrNumber(v, 'valid_max');
  if (vmin !== undefined) validMin = fix(vmin);
  if (vmax !== undefined) validMax = fix(vmax);

  return {
    scale: attrNumber(v, 'scale_factor') ?? 1,
    offset: attrNumber(v, 'add_offset') ?? 0,
    missing: missing.filter((m) => !Number.isNaN(m)),
    validMin,
    validMax,
    unsigned,
  };
}

/** View signed integer storage as unsigned (no copy) when `_Unsigned` says so. */
export function asStored(raw: NumArray, p: Packing): NumArray {
  if (!p.unsigned) return raw;
  if (raw instanceof Int8Array) return new Uint8Array(raw.buffer, raw.byteOffset, raw.length);
  if (raw instanceof Int16Array) return new Uint16Array(raw.buffer, raw.byteOffset, raw.length);
  if (raw instanceof Int32Array) return new Uint32Array(raw.buffer, raw.byteOffset, raw.length);
  return raw;
}

/**
 * Raw block as float64 (exact for every NetCDF type up to 32-bit integers)
 * after the `_Unsigned` reinterpretation, so that the decoding loop in
 * slab.ts sees one array type (monomorphic, hence fast). float32 data stay
 * float32 (the same values, half the memory).
 */
export function toDecodable(raw: NumArray, p: Packing): Float32Array | Float64Array {
  const stored = asStored(raw, p);
  if (stored instanceof Float32Array || stored instanceof Float64Array) return stored;
  return new Float64Array(stored);
}
