/**
 * What the point reader derives once per published version from its
 * manifest, so that a lookup does only arithmetic: parsed times, chunk
 * geometry, per-variable unpacking, read rule and block membership
 * (./block.ts), a numeric block-id range, the variable lists callers ask for,
 * resolved (./variable-list.ts), and the memos of the last point and times
 * looked up in it (./point-memo.ts).
 */
import type { GridDef } from '../../geo/grid.js';
import { MAX_BLOCK_KINDS, type BlockKind } from './block.js';
import type { ChunkData } from './chunk-file.js';
import type { Manifest } from '../manifest.js';
import { LAND_SEA_MASK, nearestCellVariable } from '../masks.js';
import { PointMemo, TimeMemo } from './point-memo.js';
import { resolveList, type VariableList } from './variable-list.js';
import { MASK_ANY, MASK_LAND, MASK_SEA, type VarState } from './var-state.js';
import type { TileStorage } from '../storage/types.js';

export interface VersionState {
  /** Store key: the product, or `<product>/<period>`. */
  key: string;
  /** A period store (`<product>/<period>`): its blocks go to the reader's history cache (./cache-budget.ts). */
  period: boolean;
  product: string;
  version: string;
  manifest: Manifest;
  grid: GridDef;
  timesMs: Float64Array;
  nTimes: number;
  cy: number;
  cx: number;
  /** Chunks along x, and spatial chunks in total per variable. */
  ncx: number;
  nChunks: number;
  /** Steps per chunk along time (the whole axis unless the manifest's chunk has `t`). */
  ct: number;
  /**
   * Time windows of a block kind: 1 when the time axis is one chunk; else
   * 2n − 1 for n time chunks: window 2w holds chunk w, window 2w + 1 is the
   * *bridge*, the last step of chunk w and the first of chunk w + 1, for a
   * time bracketed across their boundary (./neighbour-blocks.ts).
   */
  nWin: number;
  /** Blocks in planar layout, one kind per variable where they fit (stores chunked along time: ./block.ts). */
  planar: boolean;
  vars: Map<string, VarState>;
  kinds: BlockKind[];
  /** Per block kind, its variables in member order. */
  members: VarState[][];
  /** Default variable lists: all of them (with a time), the static ones (without). */
  allNames: readonly string[];
  staticNames: readonly string[];
  /** Masked stores: land_sea_mask and the nearest-cell indices (tiles/masks.ts); null when absent. */
  maskVar: VarState | null;
  nearestVar: [VarState | null, VarState | null, VarState | null];
  /** Per mask code: the search radius (km) of the variables masked with it (NaN: none is). */
  searchRadiusKm: [number, number, number];
  /** Block (kind k, window w, tile c) has cache id idBase + (k × nWin + w) × nChunks + c. */
  idBase: number;
  /**
   * Front table of the cache for this version: slot id − idBase holds the
   * block while the cache holds it (./neighbour-blocks.ts fills it on a cache hit
   * and clears it when the cache evicts), so a warm lookup indexes an array
   * instead of updating the LRU.
   */
  slots: (ChunkData | undefined)[];
  /** Second (epoch) in which each slot last refreshed its chunk's LRU recency. */
  slotTouchedS: Float64Array;
  /** Variable lists recently asked for, resolved (see {@link variableList}). */
  lists: VariableList[];
  /** Next entry of `lists` to replace. */
  listCursor: number;
  /** The last point and times looked up in this version. */
  point: PointMemo;
  time: TimeMemo;
}

interface ZArrayDoc {
  shape: number[];
  chunks: number[];
  dtype: string;
  compressor: { id: string } | null;
  filters: { id: string; elementsize?: number }[] | null;
}

/**
 * The codec pipeline of each variable, from the version's consolidated
 * metadata (read once per version), checked against the manifest so a
 * store this reader cannot decode fails loudly instead of returning garbage.
 */
function codecs(storage: TileStorage, versionKey: string, m: Manifest): Map<string, { zstd: boolean; shuffle: number }> {
  const file = `${storage.location}/${versionKey}/.zmetadata`;
  const text = storage.sync.text(`${versionKey}/.zmetadata`);
  // A version removed after its manifest was read: ENOENT tells the reader to take the newer manifest.
  if (text === null) throw Object.assign(new Error(`${file}: no such object`), { code: 'ENOENT' });
  const meta = (JSON.parse(text) as { metadata: Record<string, unknown> }).metadata;
  const out = new Map<string, { zstd: boolean; shuffle: number }>();
  for (const [name, v] of Object.entries(m.variables)) {
    const z = meta[`${name}/.zarray`] as ZArrayDoc | undefined;
    const bad = (why: string) => new Error(`${file}: variable '${name}' ${why}`);
    if (!z) throw bad('is missing');
    if (z.dtype !== (v.dtype === 'int16' ? '<i2' : '<f4')) throw bad(`has dtype ${z.dtype}, the manifest says ${v.dtype}`);
    const want = v.static ? [m.chunk.y, m.chunk.x] : [m.chunk.t ?? m.times.length, m.chunk.y, m.chunk.x];
    if (z.chunks.join() !== want.join()) throw bad(`has chunks [${z.chunks.join()}], expected [${want.join()}]`);
    if (z.compressor && z.compressor.id !== 'zstd') throw bad(`uses compressor '${z.compressor.id}' (only zstd is supported)`);
    let shuffle = 0;
    for (const f of z.filters ?? []) {
      if (f.id !== 'shuffle' || !f.elementsize) throw bad(`uses filter '${f.id}' (only shuffle is supported)`);
      shuffle = f.elementsize;
    }
    out.set(name, { zstd: z.compressor !== null, shuffle });
  }
  return out;
}

/** The kind index of (group, int16, static), added to `kinds` when new. */
function kindOf(kinds: BlockKind[], group: string, int16: boolean, isStatic: boolean, where: string): number {
  let k = kinds.findIndex((b) => b.group === group && b.int16 === int16 && b.isStatic === isStatic);
  if (k < 0) {
    if (kinds.length >= MAX_BLOCK_KINDS) throw new Error(`${where}: more than ${MAX_BLOCK_KINDS} cache block kinds (too many block groups)`);
    k = kinds.push({ group, int16, isStatic }) - 1;
  }
  return k;
}

/** The reader's state of version `m` of store `key` (`nwp`, `reanalysis/1950`) in `storage`. */
export function versionState(key: string, storage: TileStorage, m: Manifest, idBase: number): VersionState {
  const grid = m.grid;
  const cy = m.chunk.y;
  const cx = m.chunk.x;
  const ncx = Math.ceil(grid.nx / cx);
  const nChunks = ncx * Math.ceil(grid.ny / cy);
  const versionKey = `${key}/${m.version}`;
  const dir = `${storage.location}/${versionKey}`;
  const ct = m.chunk.t ?? Math.max(1, m.times.length);
  if (!(Number.isInteger(ct) && ct >= 1)) throw new Error(`${dir}: chunk.t ${m.chunk.t} is not a positive integer`);
  const timeChunks = Math.max(1, Math.ceil(m.times.length / ct));
  const nWin = 2 * timeChunks - 1;
  const planar = m.chunk.t !== undefined;
  const perVariable = planar && Object.keys(m.variables).length <= MAX_BLOCK_KINDS;
  const pipeline = codecs(storage, versionKey, m);
  const vars = new Map<string, VarState>();
  const kinds: BlockKind[] = [];
  const members: VarState[][] = [];
  Object.entries(m.variables).forEach(([name, v], index) => {
    const int16 = v.dtype === 'int16';
    const isStatic = v.static === true;
    const kind = kindOf(kinds, perVariable ? name : v.block, int16, isStatic, dir);
    members[kind] ??= [];
    const state: VarState = {
      name,
      index,
      isStatic,
      int16,
      scale: int16 ? (v.scale_factor ?? 1) : 1,
      offset: int16 ? (v.add_offset ?? 0) : 0,
      key: `${versionKey}/${name}`,
      dir: storage.localPath?.(`${versionKey}/${name}`) ?? null,
      ...pipeline.get(name)!,
      kind,
      member: members[kind]!.length,
      nearest: v.interpolation === 'nearest',
      interval: v.interval !== undefined && !isStatic,
      intervalMs: v.interval?.seconds !== undefined ? v.interval.seconds * 1000 : Infinity,
      mask: v.mask === 'sea' ? MASK_SEA : v.mask === 'land' ? MASK_LAND : MASK_ANY,
    };
    vars.set(name, state);
    members[kind]!.push(state);
  });
  const timesMs = Float64Array.from(m.times, (t) => Date.parse(t));
  const span = kinds.length * nWin * nChunks;
  const allNames = [...vars.keys()];
  const staticNames = [...vars.values()].filter((v) => v.isStatic).map((v) => v.name);
  const vs: VersionState = {
    key,
    period: key.includes('/'),
    product: m.product,
    version: m.version,
    manifest: m,
    grid,
    timesMs,
    nTimes: timesMs.length,
    cy,
    cx,
    ncx,
    nChunks,
    ct,
    nWin,
    planar,
    vars,
    kinds,
    members,
    allNames,
    staticNames,
    maskVar: vars.get(LAND_SEA_MASK) ?? null,
    nearestVar: [null, vars.get(nearestCellVariable('sea')) ?? null, vars.get(nearestCellVariable('land')) ?? null],
    searchRadiusKm: searchRadii(dir, m, vars),
    idBase,
    slots: new Array<ChunkData | undefined>(span).fill(undefined),
    slotTouchedS: new Float64Array(span),
    lists: [],
    listCursor: 0,
    point: new PointMemo(),
    time: new TimeMemo(),
  };
  vs.lists.push(resolveList(vs, allNames), resolveList(vs, staticNames));
  return vs;
}

/**
 * The search radius of each mask kind, from its variables' manifest entries
 * (a store written before they carried one: the manifest's single radius).
 * A masked variable without one, or two radii for one kind, is refused: a
 * guess would serve values from cells the product never meant to reach.
 */
function searchRadii(dir: string, m: Manifest, vars: Map<string, VarState>): [number, number, number] {
  const radii: [number, number, number] = [NaN, NaN, NaN];
  for (const v of vars.values()) {
    if (v.mask === MASK_ANY) continue;
    const r = m.variables[v.name]!.search_radius_km ?? m.search_radius_km;
    if (!(r! > 0)) throw new Error(`${dir}: masked variable '${v.name}' has no search_radius_km in the manifest`);
    const had = radii[v.mask]!;
    if (had === had && had !== r) throw new Error(`${dir}: variables masked alike have search radii ${had} and ${r} km (one per kind)`);
    radii[v.mask] = r!;
  }
  return radii;
}

/** Number of ids a version reserves. */
export function idSpan(vs: Pick<VersionState, 'nChunks' | 'nWin' | 'kinds'>): number {
  return vs.kinds.length * vs.nWin * vs.nChunks;
}
