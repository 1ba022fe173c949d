/**
 * NetCDF3 backend (classic CDF-1 and 64-bit offset CDF-2). netcdfjs parses the
 * header; the data are decoded here in bulk from the file buffer, because
 * netcdfjs reads element by element into boxed arrays (far too slow for
 * million-cell grids). Layout per the NetCDF classic format specification:
 * https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html
 * (big-endian; record variables interleaved, one record per unlimited index).
 */
import { readFile } from 'node:fs/promises';
import { NetCDFReader } from 'netcdfjs';
import { ReadError } from '../field.js';
import type { AttrValue, NcDataset, NcType, NcVariable, NumArray } from './model.js';

const TYPE: Record<string, { t: NcType; size: number }> = {
  byte: { t: 'i1', size: 1 },
  char: { t: 'char', size: 1 },
  short: { t: 'i2', size: 2 },
  int: { t: 'i4', size: 4 },
  float: { t: 'f4', size: 4 },
  double: { t: 'f8', size: 8 },
};

/** numrecs value meaning "streaming, count the records from the file size". */
const STREAMING = 0xffffffff;

interface Nc3Var {
  name: string;
  dimensions: number[];
  attributes: { name: string; type: string; value: unknown }[];
  type: string;
  size: number;
  offset: number;
  record: boolean;
}

const UTF8 = new TextDecoder('utf-8', { fatal: true });

/**
 * NC_CHAR attribute bytes as text. netcdfjs reads each byte as a signed char
 * (0xC2 → U+FFC2), so the bytes are taken back (code & 0xFF) and decoded as
 * UTF-8, the encoding NetCDF and CF text attributes use (CAMS Europe's unit
 * "µg/m3" is C2 B5 67 2F 6D 33); bytes that are not valid UTF-8 are Latin-1.
 */
function charText(value: unknown): string {
  const s = String(value);
  const bytes = Uint8Array.from(s, (c) => c.charCodeAt(0) & 0xff);
  let text: string;
  try {
    text = UTF8.decode(bytes);
  } catch {
    text = String.fromCharCode(...bytes);
  }
  return text.replace(/\0+$/, '');
}

function normaliseAttr(type: string, value: unknown): AttrValue {
  if (type === 'char') return charText(value);
  if (Array.isArray(value)) return value.map(Number);
  return [Number(value)];
}

function attrMap(list: { name: string; type: string; value: unknown }[]): Map<string, AttrValue> {
  return new Map(list.map((a) => [a.name, normaliseAttr(a.type, a.value)]));
}

/**
 * Native-endian typed array over big-endian bytes: Buffer.swap16/32/64 are
 * native byte swaps, an order of magnitude faster than DataView per element.
 */
function fromBigEndian(bytes: Uint8Array, t: NcType): NumArray {
  const b = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  switch (t) {
    case 'i1':
      return new Int8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    case 'i2':
      b.swap16();
      return new Int16Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 2);
    case 'i4':
      b.swap32();
      return new Int32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    case 'f4':
      b.swap32();
      return new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
    case 'f8':
      b.swap64();
      return new Float64Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 8);
    default:
      throw new TypeError(`type ${t} is not numeric`);
  }
}

export async function openNetcdf3(file: string): Promise<NcDataset> {
  const buf = await readFile(file);
  if (buf.length >= 4 && buf[3] === 5) {
    throw new ReadError(file, 'NetCDF3 CDF5 (64-bit data) format is not supported: convert it with `nccopy -k nc4 in.nc out.nc`');
  }
  let reader: NetCDFReader;
  try {
    reader = new NetCDFReader(buf);
  } catch (e) {
    throw new ReadError(file, `NetCDF3 header unreadable (truncated or corrupt): ${(e as Error).message}`, { cause: e });
  }
  const header = reader.header;
  const dims = header.dimensions as { name: string; size: number }[];
  const recDimId = header.recordDimension.id;
  const rawVars = header.variables as unknown as Nc3Var[];
  const recVars = rawVars.filter((v) => v.record);

  const shapeOf = (v: Nc3Var) => v.dimensions.map((d) => (d === recDimId ? -1 : dims[d]!.size));
  const elemSize = (v: Nc3Var) => TYPE[v.type]?.size ?? 1;
  const innerCount = (v: Nc3Var) => shapeOf(v).reduce((p, s) => (s < 0 ? p : p * s), 1);

  // A lone record variable is not padded between records (spec: "vsize ... except
  // when there is only one record variable"); otherwise the record is the sum of vsizes.
  const recSize = recVars.length === 1 ? innerCount(recVars[0]!) * elemSize(recVars[0]!) : (header.recordDimension.recordStep ?? 0);
  let numRecs = header.recordDimension.length;
  if (numRecs === STREAMING && recVars.length > 0 && recSize > 0) {
    const first = Math.min(...recVars.map((v) => v.offset));
    numRecs = Math.floor((buf.length - first) / recSize);
  }

  const variables: NcVariable[] = rawVars.map((v) => {
    const spec = TYPE[v.type] ?? { t: 'other' as NcType, size: 1 };
    const shape = shapeOf(v).map((s) => (s < 0 ? numRecs : s));
    const inner = innerCount(v);
    const per = v.record ? inner : shape.length > 0 ? inner / (shape[0] || 1) : 1;
    // Truncation check up front: the last byte this variable needs must be in the file.
    const end = v.record ? v.offset + (numRecs > 0 ? (numRecs - 1) * recSize + inner * spec.size : 0) : v.offset + inner * spec.size;
    if (end > buf.length) {
      throw new ReadError(file, `truncated: variable ${v.name} needs ${end} bytes, the file has ${buf.length}`);
    }
    return {
      name: v.name,
      dims: v.dimensions.map((d) => dims[d]!.name),
      shape,
      attrs: attrMap(v.attributes),
      type: spec.t,
      read(start = 0, count?: number): NumArray {
        const lead = shape.length > 0 ? shape[0]! : 1;
        const n = count ?? lead - start;
        const recBytes = per * spec.size;
        // A fresh, aligned copy: the file buffer's offsets need not be multiples of the type size.
        const bytes = new Uint8Array(n * recBytes);
        if (v.record) {
          for (let r = 0; r < n; r++) {
            const at = v.offset + (start + r) * recSize;
            bytes.set(buf.subarray(at, at + recBytes), r * recBytes);
          }
        } else {
          const at = v.offset + start * recBytes;
          bytes.set(buf.subarray(at, at + n * recBytes));
        }
        return fromBigEndian(bytes, spec.t);
      },
    };
  });

  return {
    format: header.version === 1 ? 'netcdf3-classic' : 'netcdf3-64bit-offset',
    variables,
    attrs: attrMap(header.globalAttributes as { name: string; type: string; value: unknown }[]),
    close() {},
  };
}
