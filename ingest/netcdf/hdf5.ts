/**
 * NetCDF4 backend over h5wasm (HDF5 compiled to WebAssembly; its Node build
 * opens host files directly through Emscripten NODERAWFS, so nothing is copied
 * into the wasm heap but the datasets we read). Only the root group is read:
 * NetCDF4 groups are not used by the producers Meteopunto ingests.
 */
import { resolve } from 'node:path';
import h5wasm from 'h5wasm/node';
import { ReadError } from '../field.js';
import type { AttrValue, NcDataset, NcType, NcVariable, NumArray } from './model.js';
import { toNumArray } from './model.js';
import { parseSuperblock, readHead } from './hdf5-superblock.js';
import { resolveDimensions, type H5DatasetInfo } from './hdf5-dims.js';

type H5File = InstanceType<typeof h5wasm.File>;
type H5Dataset = InstanceType<typeof h5wasm.Dataset>;

/** h5wasm's module initialises once per process (explicit, read-only cache). */
let ready: Promise<unknown> | undefined;
function h5ready(): Promise<unknown> {
  ready ??= h5wasm.ready;
  return ready;
}

/** netCDF-C marks dimensions without a coordinate variable with this NAME attribute. */
const PHONY_DIM_NAME = 'This is a netCDF dimension but not a netCDF variable';

/** Attributes that are HDF5/netCDF-C plumbing, not CF metadata. */
const INTERNAL_ATTRS = new Set(['DIMENSION_LIST', 'REFERENCE_LIST', 'CLASS', 'NAME', '_Netcdf4Dimid', '_Netcdf4Coordinates', '_nc3_strict', '_NCProperties', '_SuperblockVersion', '_IsNetcdf4']);

function typeOf(d: { dtype: unknown; metadata: { type: number; size: number; signed: boolean } }): NcType {
  const m = d.metadata;
  // H5T class codes: 0 integer, 1 float, 3 string.
  if (m.type === 0) {
    const map: Record<number, NcType> = m.signed ? { 1: 'i1', 2: 'i2', 4: 'i4', 8: 'i8' } : { 1: 'u1', 2: 'u2', 4: 'u4', 8: 'u8' };
    return map[m.size] ?? 'other';
  }
  if (m.type === 1) return m.size === 4 ? 'f4' : m.size === 8 ? 'f8' : 'other';
  if (m.type === 3) return 'string';
  return 'other';
}

function normaliseAttr(value: unknown): AttrValue | undefined {
  if (typeof value === 'string') return value.replace(/\0+$/, '');
  if (typeof value === 'number') return [value];
  if (typeof value === 'bigint') return [Number(value)];
  if (ArrayBuffer.isView(value)) return Array.from(toNumArray(value));
  if (Array.isArray(value)) {
    if (value.every((x) => typeof x === 'string')) return value.join('');
    if (value.every((x) => typeof x === 'number' || typeof x === 'bigint')) return value.map(Number);
  }
  return undefined;
}

function readAttrs(obj: { attrs: Record<string, { value: unknown }> }): Map<string, AttrValue> {
  const out = new Map<string, AttrValue>();
  for (const [name, attr] of Object.entries(obj.attrs)) {
    if (INTERNAL_ATTRS.has(name)) continue;
    let v: AttrValue | undefined;
    try {
      v = normaliseAttr(attr.value);
    } catch {
      v = undefined; // references, compounds: not CF metadata we use
    }
    if (v !== undefined) out.set(name, v);
  }
  return out;
}

function rawAttr(d: H5Dataset, name: string): unknown {
  try {
    return d.attrs[name]?.value;
  } catch {
    return undefined;
  }
}

function describeFilters(d: H5Dataset): string {
  try {
    const f = d.filters.map((x) => `${x.name || 'filter'} (id ${x.id})`);
    return f.length ? `; filters: ${f.join(', ')}` : '';
  } catch {
    return '';
  }
}

export async function openNetcdf4(file: string): Promise<NcDataset> {
  const abs = resolve(file);
  const { head, size } = await readHead(abs);
  const sb = parseSuperblock(head);
  if (!sb) throw new ReadError(file, 'HDF5 superblock unreadable (truncated or not an HDF5 file)');
  if (sb.eofAddress > size) {
    throw new ReadError(file, `truncated: the HDF5 superblock says ${sb.eofAddress} bytes, the file has ${size}`);
  }
  await h5ready();
  let f: H5File;
  try {
    f = new h5wasm.File(abs, 'r');
  } catch (e) {
    throw new ReadError(file, `HDF5 library could not open the file (corrupt?): ${(e as Error).message}`, { cause: e });
  }
  try {
    const infos: H5DatasetInfo[] = [];
    const handles = new Map<string, H5Dataset>();
    for (const key of f.keys()) {
      const obj = f.get(key);
      if (!(obj instanceof h5wasm.Dataset)) continue;
      const nameAttr = rawAttr(obj, 'NAME');
      const phony = typeof nameAttr === 'string' && nameAttr.startsWith(PHONY_DIM_NAME);
      const shape = obj.shape ?? [];
      const scales: (string | undefined)[] = shape.map((_, i) => {
        try {
          const s = obj.get_attached_scales(i);
          return s.length > 0 ? s[0]!.replace(/^\//, '') : undefined;
        } catch {
          return undefined;
        }
      });
      infos.push({
        name: key,
        shape,
        attrs: readAttrs(obj),
        isScale: rawAttr(obj, 'CLASS') === 'DIMENSION_SCALE',
        phony,
        scales,
        ncDimIds: toIds(rawAttr(obj, '_Netcdf4Coordinates')),
        ncDimId: toIds(rawAttr(obj, '_Netcdf4Dimid'))[0],
      });
      handles.set(key, obj);
    }
    const dims = resolveDimensions(infos);
    const variables: NcVariable[] = infos
      .filter((i) => !i.phony)
      .map((info) => {
        const d = handles.get(info.name)!;
        const type = typeOf(d as unknown as Parameters<typeof typeOf>[0]);
        return {
          name: info.name,
          dims: dims.get(info.name)!,
          shape: info.shape,
          attrs: info.attrs,
          type,
          read(start?: number, count?: number): NumArray {
            try {
              if (start === undefined || info.shape.length === 0) return toNumArray(d.value);
              return toNumArray(d.slice([[start, start + (count ?? info.shape[0]! - start)]]));
            } catch (e) {
              throw new ReadError(file, `cannot read dataset ${info.name}: ${(e as Error).message}${describeFilters(d)}`, { cause: e });
            }
          },
          readWindow(ranges: readonly (readonly [number, number])[]): NumArray {
            try {
              return toNumArray(d.slice(ranges.map(([a, b]) => [a, b])));
            } catch (e) {
              throw new ReadError(file, `cannot read dataset ${info.name}: ${(e as Error).message}${describeFilters(d)}`, { cause: e });
            }
          },
        };
      });
    return {
      format: 'netcdf4',
      variables,
      attrs: readAttrs(f as unknown as { attrs: Record<string, { value: unknown }> }),
      close() {
        f.close();
      },
    };
  } catch (e) {
    f.close();
    if (e instanceof ReadError) throw e;
    throw new ReadError(file, `NetCDF4 structure unreadable: ${(e as Error).message}`, { cause: e });
  }
}

function toIds(v: unknown): number[] {
  if (v === undefined || v === null) return [];
  try {
    return Array.from(toNumArray(v));
  } catch {
    return [];
  }
}
