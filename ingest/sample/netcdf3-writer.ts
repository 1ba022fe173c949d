/**
 * A minimal NetCDF3 classic (CDF-1) writer for the CAMS-shaped sample: the
 * format CAMS European regional NetCDF files come in (Meteo France's
 * ENSEMBLE writer), written per "The NetCDF Classic Format Specification"
 * (Unidata, netCDF-C documentation, file-format BNF): big-endian header of
 * dimensions, global attributes and variables, then the fixed-size
 * variables, then the records of the unlimited dimension (each record
 * holding one slab of every record variable, in order). Float32 data only;
 * text attributes as UTF-8 bytes (NC_CHAR), numbers as NC_FLOAT.
 *
 * Records are streamed to the file one at a time (memory: one step).
 */
import { closeSync, openSync, writeSync } from 'node:fs';

const NC_DIMENSION = 0x0a;
const NC_VARIABLE = 0x0b;
const NC_ATTRIBUTE = 0x0c;
const NC_CHAR = 2;
const NC_FLOAT = 5;

export type Nc3Attrs = Record<string, string | number>;

export interface Nc3Dimension {
  name: string;
  /** 0: the unlimited (record) dimension. */
  length: number;
}

export interface Nc3Variable {
  name: string;
  dims: readonly string[];
  attrs: Nc3Attrs;
  /** Fixed-size variables: all values; record variables: none (written with appendRecord). */
  values?: Float32Array;
}

class Bytes {
  private readonly parts: Buffer[] = [];
  int(v: number): void {
    const b = Buffer.alloc(4);
    b.writeInt32BE(v);
    this.parts.push(b);
  }
  padded(b: Buffer): void {
    this.parts.push(b, Buffer.alloc((4 - (b.length % 4)) % 4));
  }
  name(s: string): void {
    const b = Buffer.from(s, 'utf8');
    this.int(b.length);
    this.padded(b);
  }
  get buffer(): Buffer {
    return Buffer.concat(this.parts);
  }
}

function writeAttrs(out: Bytes, attrs: Nc3Attrs): void {
  const entries = Object.entries(attrs);
  if (entries.length === 0) {
    out.int(0);
    out.int(0);
    return;
  }
  out.int(NC_ATTRIBUTE);
  out.int(entries.length);
  for (const [k, v] of entries) {
    out.name(k);
    if (typeof v === 'string') {
      const b = Buffer.from(v, 'utf8');
      out.int(NC_CHAR);
      out.int(b.length);
      out.padded(b);
    } else {
      out.int(NC_FLOAT);
      out.int(1);
      const b = Buffer.alloc(4);
      b.writeFloatBE(v);
      out.padded(b);
    }
  }
}

function bigEndianFloats(v: Float32Array): Buffer {
  const b = Buffer.alloc(v.length * 4);
  for (let i = 0; i < v.length; i++) b.writeFloatBE(v[i]!, i * 4);
  return b;
}

export class Netcdf3Writer {
  private readonly fd: number;
  private records = 0;
  private readonly recordVars: Nc3Variable[];
  private readonly slab: Map<string, number>;
  private readonly numrecsOffset = 4;

  /** Writes the header and the fixed-size variables; record variables are filled by appendRecord. */
  constructor(
    path: string,
    dims: readonly Nc3Dimension[],
    globalAttrs: Nc3Attrs,
    vars: readonly Nc3Variable[],
  ) {
    const dimIndex = new Map(dims.map((d, i) => [d.name, i]));
    const unlimited = dims.find((d) => d.length === 0)?.name;
    const isRecord = (v: Nc3Variable) => v.dims[0] !== undefined && v.dims[0] === unlimited;
    const count = (v: Nc3Variable) => v.dims.filter((d) => d !== unlimited).reduce((p, d) => p * dims[dimIndex.get(d)!]!.length, 1);
    this.recordVars = vars.filter(isRecord);
    this.slab = new Map(vars.map((v) => [v.name, count(v)]));
    for (const v of vars) {
      for (const d of v.dims) if (!dimIndex.has(d)) throw new Error(`variable ${v.name}: unknown dimension ${d}`);
      if (!isRecord(v) && v.values?.length !== count(v)) throw new Error(`variable ${v.name}: ${v.values?.length ?? 0} values, needs ${count(v)}`);
    }

    const header = (begins: number[]): Buffer => {
      const out = new Bytes();
      out.padded(Buffer.from('CDF\x01', 'latin1'));
      out.int(0); // numrecs, rewritten by close()
      out.int(NC_DIMENSION);
      out.int(dims.length);
      for (const d of dims) {
        out.name(d.name);
        out.int(d.length);
      }
      writeAttrs(out, globalAttrs);
      out.int(NC_VARIABLE);
      out.int(vars.length);
      vars.forEach((v, i) => {
        out.name(v.name);
        out.int(v.dims.length);
        for (const d of v.dims) out.int(dimIndex.get(d)!);
        writeAttrs(out, v.attrs);
        out.int(NC_FLOAT);
        out.int(this.slab.get(v.name)! * 4); // vsize: floats need no padding
        out.int(begins[i]!);
      });
      return out.buffer;
    };
    // The header's length does not depend on the offsets: lay it out once to place the data.
    const headerLength = header(vars.map(() => 0)).length;
    const begins: number[] = [];
    let offset = headerLength;
    for (const v of vars.filter((x) => !isRecord(x))) {
      begins[vars.indexOf(v)] = offset;
      offset += this.slab.get(v.name)! * 4;
    }
    for (const v of this.recordVars) {
      begins[vars.indexOf(v)] = offset;
      offset += this.slab.get(v.name)! * 4;
    }
    if (offset > 2 ** 31 - 1) throw new Error('CDF-1 offsets are 32-bit: file too large');
    this.fd = openSync(path, 'w');
    writeSync(this.fd, header(begins));
    for (const v of vars) if (!isRecord(v)) writeSync(this.fd, bigEndianFloats(v.values!));
  }

  /** One record (one step of the unlimited dimension): a slab per record variable. */
  appendRecord(values: Record<string, Float32Array>): void {
    for (const v of this.recordVars) {
      const a = values[v.name];
      if (!a || a.length !== this.slab.get(v.name)) throw new Error(`record ${this.records}: ${v.name} needs ${this.slab.get(v.name)} values`);
      writeSync(this.fd, bigEndianFloats(a));
    }
    this.records++;
  }

  close(): void {
    const b = Buffer.alloc(4);
    b.writeInt32BE(this.records);
    writeSync(this.fd, b, 0, 4, this.numrecsOffset);
    closeSync(this.fd);
  }
}
