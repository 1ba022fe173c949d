/**
 * Writes one complete Zarr v2 store (a product version) into a directory:
 * group metadata, coordinates, one packed array per canonical variable, and
 * consolidated `.zmetadata`. Knows nothing about publishing: tiles/write/publish.ts
 * moves the finished directory into place.
 */
import { join } from 'node:path';
import { cellLatLon, type GridDef } from '../../geo/grid.js';
import type { VariableInfo } from '../manifest.js';
import type { ProductVersionInput, VariableInput } from '../types.js';
import { chooseChunkShape, chunkCount } from './chunking.js';
import { encodeChunkRow } from './chunk-encode.js';
import { packingForRange, INT16_FILL } from '../codecs/packing.js';
import { memoryPlanes, type PlaneSource } from './plane-source.js';
import { writeFileSynced, fsyncDir, mkdirp, forEachLimit } from './durable-fs.js';
import { zstdEncode } from '../codecs/zstd.js';
import { shuffleFilter } from '../codecs/shuffle.js';
import { EncodeThreads, useEncodeThreads } from './encode-threads.js';
import { LAND_SEA_MASK, nearestCellVariable } from '../masks.js';
import { PERIOD_NAME } from '../layout.js';
import {
  zarray, spatialDims, axisAttrs, rotatedMappingAttrs, auxLatLonAttrs, timeAttrs, variableAttrs,
  ROTATED_MAPPING, type Attrs, type ZArray,
} from './zarr-meta.js';

/** Names the store itself uses; a canonical variable may not take them. */
const RESERVED = new Set(['time', 'lat', 'lon', 'rlat', 'rlon', ROTATED_MAPPING]);
const VARIABLE_NAME = /^[a-z][a-z0-9_]*$/;
const BLOCK_NAME = /^[a-z][a-z0-9_-]*$/;

export interface StoreLayout {
  chunk: { y: number; x: number; t?: number };
  variables: Record<string, VariableInfo>;
}

/** Planes of some variables taken from elsewhere than their `values` (./plane-spill.ts), by name. */
export type PlaneSources = Readonly<Record<string, PlaneSource>>;

/** Reject input that would produce a store readers cannot trust; the message names the variable. */
export function validateInput(input: ProductVersionInput, sources: PlaneSources = {}): void {
  const { grid, times, product } = input;
  const where = `product '${product}'`;
  if (!Number.isInteger(grid.nx) || !Number.isInteger(grid.ny) || grid.nx < 1 || grid.ny < 1) throw new RangeError(`${where}: grid must have nx, ny ≥ 1 (got ${grid.nx} × ${grid.ny})`);
  if (!(grid.dx > 0 && grid.dy > 0)) throw new RangeError(`${where}: grid dx, dy must be > 0 (normalised grid)`);
  for (let i = 0; i < times.length; i++) {
    const t = times[i]!.getTime();
    if (!Number.isFinite(t)) throw new RangeError(`${where}: times[${i}] is not a valid date`);
    if (i > 0 && t <= times[i - 1]!.getTime()) throw new RangeError(`${where}: times must be strictly ascending (times[${i}] = ${times[i]!.toISOString()})`);
  }
  const names = Object.keys(input.variables);
  if (names.length === 0) throw new RangeError(`${where}: no variables to write`);
  const cells = grid.nx * grid.ny;
  for (const name of names) {
    const v = input.variables[name]!;
    if (!VARIABLE_NAME.test(name) || RESERVED.has(name)) throw new RangeError(`${where}: invalid variable name '${name}'`);
    const expected = v.static ? 1 : times.length;
    if (!v.static && times.length === 0) throw new RangeError(`${where}: variable '${name}' varies in time but the store has no times`);
    const held = sources[name]?.length ?? v.values.length;
    if (held !== expected) throw new RangeError(`${where}: variable '${name}' has ${held} time steps, expected ${expected}`);
    v.values.forEach((a, t) => {
      if (a.length !== cells) throw new RangeError(`${where}: variable '${name}' step ${t} has ${a.length} values, grid has ${cells}`);
    });
    if (!(v.precision > 0)) throw new RangeError(`${where}: variable '${name}' precision must be > 0`);
    if (v.block !== undefined && !BLOCK_NAME.test(v.block)) throw new RangeError(`${where}: variable '${name}' has an invalid block name '${v.block}'`);
    const mask = v.mask ?? 'any';
    if (mask !== 'any') {
      if (!(v.searchRadiusKm! > 0 && Number.isFinite(v.searchRadiusKm))) {
        throw new RangeError(`${where}: variable '${name}' is ${mask}-masked, so it needs a search radius in km > 0 (got ${v.searchRadiusKm})`);
      }
      const other = names.find((n) => n !== name && input.variables[n]!.mask === mask && input.variables[n]!.searchRadiusKm !== v.searchRadiusKm);
      if (other) throw new RangeError(`${where}: ${mask}-masked variables '${name}' and '${other}' have different search radii (one per kind: the nearest-cell indices use it)`);
      for (const needed of [LAND_SEA_MASK, nearestCellVariable(mask)]) {
        if (!input.variables[needed]?.static) throw new RangeError(`${where}: variable '${name}' is ${mask}-masked, so the store needs the static variable '${needed}' (tiles/masks.ts)`);
      }
    }
  }
  const meta = input.meta;
  if (meta?.layout === 'periods' && !(meta.period && PERIOD_NAME.test(meta.period))) {
    throw new RangeError(`${where}: a period product needs its period (a year such as '1950'), got '${meta.period ?? ''}'`);
  }
  if (meta?.layout !== undefined && meta.layout !== 'periods' && meta.period !== undefined) throw new RangeError(`${where}: only period products have a period`);
}

/** Collects metadata documents for `.zmetadata` while writing them as files. */
class MetaWriter {
  readonly docs: Record<string, unknown> = {};
  constructor(private readonly dir: string) {}
  async put(key: string, doc: unknown): Promise<void> {
    this.docs[key] = doc;
    await writeFileSynced(join(this.dir, key), asciiJson(doc));
  }
  async array(name: string, meta: ZArray, attrs: Attrs): Promise<void> {
    await mkdirp(join(this.dir, name));
    await this.put(`${name}/.zarray`, meta);
    await this.put(`${name}/.zattrs`, attrs);
  }
}

/** zarr-python decodes metadata as ASCII: escape everything else ('°C' → '\\u00b0C'). */
export function asciiJson(doc: unknown): string {
  return JSON.stringify(doc, null, 2).replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

function bytesOf(a: ArrayBufferView): Uint8Array {
  return new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
}

async function writeCoordinates(dir: string, meta: MetaWriter, input: ProductVersionInput): Promise<void> {
  const { grid, times } = input;
  const [yd, xd] = spatialDims(grid);
  const ax = axisAttrs(grid);
  // 1-D axes in the grid's own coordinates (geographic or rotated degrees); toFixed removes float noise from x0 + i·dx.
  const axis = (n: number, start: number, step: number) => Float64Array.from({ length: n }, (_, i) => Number((start + i * step).toFixed(10)));
  await meta.array(yd, zarray([grid.ny], [grid.ny], '<f8', 'NaN', false), ax.y);
  await writeFileSynced(join(dir, yd, '0'), bytesOf(axis(grid.ny, grid.y0, grid.dy)));
  await meta.array(xd, zarray([grid.nx], [grid.nx], '<f8', 'NaN', false), ax.x);
  await writeFileSynced(join(dir, xd, '0'), bytesOf(axis(grid.nx, grid.x0, grid.dx)));

  if (times.length > 0) {
    await meta.array('time', zarray([times.length], [times.length], '<i8', null, false), timeAttrs());
    const secs = BigInt64Array.from(times, (t) => BigInt(Math.round(t.getTime() / 1000)));
    await writeFileSynced(join(dir, 'time', '0'), bytesOf(secs));
  }

  if (grid.kind === 'rotated_ll') {
    await meta.array(ROTATED_MAPPING, zarray([], [], '<i4', null, false), rotatedMappingAttrs(grid));
    await writeFileSynced(join(dir, ROTATED_MAPPING, '0'), bytesOf(new Int32Array([0])));
    const lat = new Float64Array(grid.nx * grid.ny);
    const lon = new Float64Array(grid.nx * grid.ny);
    for (let j = 0; j < grid.ny; j++) {
      for (let i = 0; i < grid.nx; i++) {
        const p = cellLatLon(grid, i, j);
        lat[j * grid.nx + i] = p.lat;
        lon[j * grid.nx + i] = p.lon;
      }
    }
    const aux = auxLatLonAttrs(grid);
    for (const [name, data] of [['lat', lat], ['lon', lon]] as const) {
      await meta.array(name, zarray([grid.ny, grid.nx], [grid.ny, grid.nx], '<f8', 'NaN'), aux[name]);
      await writeFileSynced(join(dir, name, '0.0'), await zstdEncode(bytesOf(data)));
    }
  }
}

/** Spatial edge and steps per chunk of a store (./chunking.ts); `steps` is the whole axis unless it is long. */
interface ChunkShape {
  edge: number;
  steps: number;
}

async function writeVariable(
  dir: string, meta: MetaWriter, grid: GridDef, nTimes: number, shape: ChunkShape, name: string, v: VariableInput, planes: PlaneSource, threads: EncodeThreads | null,
): Promise<VariableInfo> {
  const { edge } = shape;
  const isStatic = v.static === true;
  const packing = packingForRange(planes.range(), v.precision);
  const dims = isStatic ? [grid.ny, grid.nx] : [nTimes, grid.ny, grid.nx];
  const chunks = isStatic ? [edge, edge] : [shape.steps, edge, edge];
  const int16 = packing.dtype === 'int16';
  await meta.array(
    name,
    zarray(dims, chunks, int16 ? '<i2' : '<f4', int16 ? INT16_FILL : 'NaN', true, [shuffleFilter(int16 ? 2 : 4)]),
    variableAttrs(grid, {
      static: isStatic, units: v.units, longName: v.longName, standardName: v.standardName, precision: v.precision,
      interpolation: v.interpolation ?? 'linear', mask: v.mask ?? 'any', searchRadiusKm: v.searchRadiusKm,
      ...(v.interval && !isStatic ? { interval: v.interval } : {}),
      ...(packing.dtype === 'int16' ? { scale: packing.scale, offset: packing.offset } : {}),
    }),
  );

  const steps = isStatic ? 1 : shape.steps;
  const timeChunks = isStatic ? 1 : Math.ceil(nTimes / steps);
  if (threads && !isStatic) {
    // The same bytes, packed and compressed on threads (./encode-threads.ts) while this thread writes the files.
    const ncx = chunkCount(grid.nx, edge);
    await threads.encodeVariable(planes, timeChunks, { nx: grid.nx, ny: grid.ny, edge, steps }, packing, async (tc, { bytes, ends }) => {
      await forEachLimit(ends.map((end, k) => [k, end] as const), 4, async ([k, end]) => {
        await writeFileSynced(join(dir, name, `${tc}.${Math.floor(k / ncx)}.${k % ncx}`), bytes.subarray(k === 0 ? 0 : ends[k - 1]!, end));
      });
    });
  } else {
    // One chunk row at a time (a year's row of 16-cell tiles × 128 steps: 5 chunks of 64 KiB): packed and shuffled
    // in one pass (./chunk-encode.ts); zstd is synchronous wasm, a few lanes overlap it with the file writes.
    for (let tc = 0; tc < timeChunks; tc++) {
      const prefix = isStatic ? '' : `${tc}.`;
      const chunk = planes.read(tc * steps, steps);
      for (let cy = 0; cy < chunkCount(grid.ny, edge); cy++) {
        const row = encodeChunkRow(chunk, { nx: grid.nx, ny: grid.ny, edge, t0: 0, steps, cy }, packing);
        await forEachLimit(row.map((bytes, cx) => [bytes, cx] as const), 4, async ([bytes, cx]) => {
          await writeFileSynced(join(dir, name, `${prefix}${cy}.${cx}`), await zstdEncode(bytes));
        });
      }
    }
  }
  await fsyncDir(join(dir, name));

  const info: VariableInfo = {
    units: v.units,
    dtype: packing.dtype,
    ...(packing.dtype === 'int16' ? { scale_factor: packing.scale, add_offset: packing.offset } : {}),
    ...(isStatic ? { static: true } : {}),
    interpolation: v.interpolation ?? 'linear',
    ...(v.interval && !isStatic ? { interval: v.interval } : {}),
    mask: v.mask ?? 'any',
    ...(v.mask && v.mask !== 'any' ? { search_radius_km: v.searchRadiusKm! } : {}),
    block: v.block ?? 'main',
  };
  return info;
}

/**
 * Write the whole store into `dir` (which must exist and be empty) and fsync
 * it. Returns the layout the manifest records. A variable named in `sources`
 * is read from there a time chunk at a time; its `values` are not used.
 */
export async function writeZarrStore(dir: string, input: ProductVersionInput, globalAttrs: Attrs, sources: PlaneSources = {}): Promise<StoreLayout> {
  validateInput(input, sources);
  if (!isLittleEndian()) throw new Error('the tile writer assumes a little-endian machine (Zarr dtypes are little-endian)');
  const meta = new MetaWriter(dir);
  const nTimes = input.times.length;
  const chosen = chooseChunkShape(nTimes);
  // A short axis is one chunk long: its length, not the shape's bound.
  const shape: ChunkShape = { edge: chosen.edge, steps: Math.min(chosen.steps, Math.max(1, nTimes)) };
  await meta.put('.zgroup', { zarr_format: 2 });
  await meta.put('.zattrs', globalAttrs);
  await writeCoordinates(dir, meta, input);
  const variables: Record<string, VariableInfo> = {};
  const threads = useEncodeThreads(Math.ceil(nTimes / shape.steps)) ? new EncodeThreads() : null;
  try {
    for (const [name, v] of Object.entries(input.variables)) {
      variables[name] = await writeVariable(dir, meta, input.grid, nTimes, shape, name, v, sources[name] ?? memoryPlanes(v.values), threads);
    }
  } finally {
    await threads?.close();
  }
  // Consolidated metadata (zarr.consolidate_metadata format 1): one read opens the whole store.
  await writeFileSynced(join(dir, '.zmetadata'), asciiJson({ metadata: meta.docs, zarr_consolidated_format: 1 }));
  for (const name of ['time', ...spatialDims(input.grid), ...(input.grid.kind === 'rotated_ll' ? [ROTATED_MAPPING, 'lat', 'lon'] : [])]) {
    if (name !== 'time' || input.times.length > 0) await fsyncDir(join(dir, name));
  }
  await fsyncDir(dir);
  return { chunk: { y: shape.edge, x: shape.edge, ...(shape.steps < nTimes ? { t: shape.steps } : {}) }, variables };
}

export function isLittleEndian(): boolean {
  return new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;
}
