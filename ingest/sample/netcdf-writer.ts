/**
 * A small CF-1.8 NetCDF4 writer on h5wasm for the sample dataset: coordinate
 * variables registered as HDF5 dimension scales (what netCDF-C reads as
 * dimensions, so python netCDF4/xarray open the file as it is), an
 * unlimited time axis grown one step at a time (memory stays at one step),
 * int16 packing with scale_factor/add_offset as ERA5 files do.
 *
 * Uncompressed on purpose: deflate inside wasm costs ~35 s for the sample's
 * ~300 MB, and the file is a transient input to the ingest.
 */
import { existsSync } from 'node:fs';
import { dirname } from 'node:path';
import h5wasm from 'h5wasm/node';

type H5File = InstanceType<typeof h5wasm.File>;
type H5Dataset = ReturnType<H5File['create_dataset']>;

export type Attrs = Record<string, string | number>;

/** int16 with scale/offset (value = packed × scale + offset), or a plain int16 code, or float32. */
export type Packing = { kind: 'int16'; scale: number; offset: number } | { kind: 'code' } | { kind: 'float32' };

/** Packing for values known to stay within [min, max]: int16 over the whole range. */
export function int16Range(min: number, max: number): Packing {
  return { kind: 'int16', scale: (max - min) / 65_000, offset: (max + min) / 2 };
}

export interface TimeVariable {
  name: string;
  attrs: Attrs;
  packing: Packing;
}

export class CfNetcdfWriter {
  private readonly timed = new Map<string, { ds: H5Dataset; packing: Packing }>();
  private timeDs: H5Dataset | null = null;
  private steps = 0;

  private constructor(
    private readonly file: H5File,
    private readonly ny: number,
    private readonly nx: number,
  ) {}

  /** Open `path` for writing with latitude/longitude coordinate variables (ascending, degrees). */
  static async create(path: string, lat: Float64Array, lon: Float64Array, globalAttrs: Attrs): Promise<CfNetcdfWriter> {
    // h5wasm does not throw on an unwritable path: it hands back a dead file id.
    if (!existsSync(dirname(path))) throw new Error(`cannot create ${path}: directory ${dirname(path)} does not exist`);
    await h5wasm.ready;
    const file = new h5wasm.File(path, 'w');
    if (!file.file_id || file.file_id < 0n) throw new Error(`cannot create ${path}`);
    const w = new CfNetcdfWriter(file, lat.length, lon.length);
    w.coordinate('latitude', lat, { units: 'degrees_north', standard_name: 'latitude', long_name: 'latitude', axis: 'Y' });
    w.coordinate('longitude', lon, { units: 'degrees_east', standard_name: 'longitude', long_name: 'longitude', axis: 'X' });
    for (const [k, v] of Object.entries(globalAttrs)) setAttr(file, k, v);
    return w;
  }

  private coordinate(name: string, values: Float64Array, attrs: Attrs): void {
    const ds = this.file.create_dataset({ name, data: values, shape: [values.length], dtype: '<d' });
    for (const [k, v] of Object.entries(attrs)) setAttr(ds, k, v);
    ds.make_scale(name);
  }

  /** The unlimited time axis (`units` like 'hours since 2026-01-01 00:00:00') and a scalar forecast_reference_time. */
  defineTime(units: string, referenceOffset: number): void {
    const t = this.file.create_dataset({ name: 'time', data: new Float64Array(0), shape: [0], maxshape: [null], chunks: [512], dtype: '<d' });
    for (const [k, v] of Object.entries({ units, calendar: 'proleptic_gregorian', standard_name: 'time', long_name: 'time', axis: 'T' })) setAttr(t, k, v);
    t.make_scale('time');
    this.timeDs = t;
    const ref = this.file.create_dataset({ name: 'forecast_reference_time', data: Float64Array.of(referenceOffset), shape: [], dtype: '<d' });
    for (const [k, v] of Object.entries({ units, calendar: 'proleptic_gregorian', standard_name: 'forecast_reference_time', long_name: 'model run (analysis) time' })) setAttr(ref, k, v);
  }

  /** A [latitude, longitude] variable (orography). */
  addStatic(name: string, values: Float32Array, attrs: Attrs): void {
    const ds = this.file.create_dataset({ name, data: values, shape: [this.ny, this.nx], dtype: '<f' });
    for (const [k, v] of Object.entries(attrs)) setAttr(ds, k, v);
    ds.attach_scale(0, 'latitude');
    ds.attach_scale(1, 'longitude');
  }

  /** A [time, latitude, longitude] variable, filled by appendStep. */
  defineTimed(spec: TimeVariable): void {
    const dtype = spec.packing.kind === 'float32' ? '<f' : '<h';
    const empty = spec.packing.kind === 'float32' ? new Float32Array(0) : new Int16Array(0);
    const ds = this.file.create_dataset({ name: spec.name, data: empty, shape: [0, this.ny, this.nx], maxshape: [null, this.ny, this.nx], chunks: [1, this.ny, this.nx], dtype });
    for (const [k, v] of Object.entries(spec.attrs)) setAttr(ds, k, v);
    if (spec.packing.kind === 'int16') {
      setAttr(ds, 'scale_factor', spec.packing.scale);
      setAttr(ds, 'add_offset', spec.packing.offset);
    }
    ds.create_attribute('coordinates', 'forecast_reference_time');
    ds.attach_scale(0, 'time');
    ds.attach_scale(1, 'latitude');
    ds.attach_scale(2, 'longitude');
    this.timed.set(spec.name, { ds, packing: spec.packing });
  }

  /** Append one time step: `timeValue` in the time units, one array per defined variable. */
  appendStep(timeValue: number, values: Record<string, Float32Array>): void {
    if (!this.timeDs) throw new Error('defineTime first');
    const t = this.steps++;
    this.timeDs.resize([t + 1]);
    this.timeDs.write_slice([[t, t + 1]], Float64Array.of(timeValue));
    for (const [name, { ds, packing }] of this.timed) {
      const v = values[name];
      if (!v) throw new Error(`no values for ${name} at step ${t}`);
      ds.resize([t + 1, this.ny, this.nx]);
      ds.write_slice([[t, t + 1], [], []], pack(v, packing));
    }
  }

  close(): void {
    this.file.close();
  }
}

/** int16 keeps −32767 free: netCDF's default fill value for shorts would read as missing. */
function pack(v: Float32Array, p: Packing): Int16Array | Float32Array {
  if (p.kind === 'float32') return v;
  const out = new Int16Array(v.length);
  if (p.kind === 'code') {
    for (let i = 0; i < v.length; i++) out[i] = Math.round(v[i]!);
    return out;
  }
  const inv = 1 / p.scale;
  for (let i = 0; i < v.length; i++) out[i] = Math.max(-32766, Math.min(32767, Math.round((v[i]! - p.offset) * inv)));
  return out;
}

function setAttr(target: { create_attribute(name: string, data: string | Float64Array, shape?: number[] | null, dtype?: string | null): void }, name: string, value: string | number): void {
  if (typeof value === 'string') target.create_attribute(name, value);
  else target.create_attribute(name, Float64Array.of(value), [], '<d');
}
