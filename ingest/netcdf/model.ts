/**
 * The format-neutral view of a NetCDF file that both backends (NetCDF3 via
 * netcdfjs, NetCDF4/HDF5 via h5wasm) produce, so that the CF decoding above
 * them never knows which container it reads.
 */

/** Attribute values: text, or numbers (a scalar numeric attribute is a one-element array). */
export type AttrValue = string | number[];

/** Storage types, numpy-style: i1 = signed byte ... f8 = double. */
export type NcType = 'i1' | 'u1' | 'i2' | 'u2' | 'i4' | 'u4' | 'i8' | 'u8' | 'f4' | 'f8' | 'char' | 'string' | 'other';

export type NumArray =
  | Int8Array
  | Uint8Array
  | Int16Array
  | Uint16Array
  | Int32Array
  | Uint32Array
  | Float32Array
  | Float64Array;

export interface NcVariable {
  readonly name: string;
  /** Dimension names, slowest first (C order), as resolved by the backend. */
  readonly dims: readonly string[];
  readonly shape: readonly number[];
  readonly attrs: ReadonlyMap<string, AttrValue>;
  readonly type: NcType;
  /**
   * Raw (still packed) values, row-major, for indices [start, start + count)
   * along the first dimension (the whole variable when omitted). 64-bit
   * integers come back as Float64Array.
   */
  read(start?: number, count?: number): NumArray;
  /**
   * Raw values of the hyperslab [start, end) per dimension, row-major, where
   * the backend reads one without the rest (NetCDF4/HDF5); absent otherwise.
   */
  readWindow?(ranges: readonly (readonly [number, number])[]): NumArray;
}

export interface NcDataset {
  /** 'netcdf3-classic' | 'netcdf3-64bit-offset' | 'netcdf4' */
  readonly format: string;
  readonly variables: readonly NcVariable[];
  readonly attrs: ReadonlyMap<string, AttrValue>;
  close(): void;
}

export function isNumericType(t: NcType): boolean {
  return t !== 'char' && t !== 'string' && t !== 'other';
}

/** Text attribute, trimmed; undefined when absent or numeric. */
export function attrText(v: { attrs: ReadonlyMap<string, AttrValue> }, name: string): string | undefined {
  const a = v.attrs.get(name);
  return typeof a === 'string' ? a.replace(/\0+$/, '').trim() : undefined;
}

/** Numeric attribute values; undefined when absent or textual. */
export function attrNumbers(v: { attrs: ReadonlyMap<string, AttrValue> }, name: string): number[] | undefined {
  const a = v.attrs.get(name);
  return Array.isArray(a) && a.length > 0 ? a : undefined;
}

/** First value of a numeric attribute (CF attributes such as scale_factor are scalars). */
export function attrNumber(v: { attrs: ReadonlyMap<string, AttrValue> }, name: string): number | undefined {
  return attrNumbers(v, name)?.[0];
}

/** Convert whatever typed array a library returns into a NumArray (64-bit integers → Float64Array). */
export function toNumArray(a: unknown): NumArray {
  if (
    a instanceof Int8Array ||
    a instanceof Uint8Array ||
    a instanceof Int16Array ||
    a instanceof Uint16Array ||
    a instanceof Int32Array ||
    a instanceof Uint32Array ||
    a instanceof Float32Array ||
    a instanceof Float64Array
  ) {
    return a;
  }
  if (a instanceof BigInt64Array || a instanceof BigUint64Array) {
    const out = new Float64Array(a.length);
    for (let i = 0; i < a.length; i++) out[i] = Number(a[i]);
    return out;
  }
  if (typeof a === 'number') return Float64Array.of(a);
  if (typeof a === 'bigint') return Float64Array.of(Number(a));
  if (Array.isArray(a)) return Float64Array.from(a as number[], Number);
  throw new TypeError(`not a numeric array (${Object.prototype.toString.call(a)})`);
}
