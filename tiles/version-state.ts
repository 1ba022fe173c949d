/**
 * What the point reader derives once per published version from its
 * manifest, so that a lookup does only arithmetic: parsed times, chunk
 * geometry, per-variable unpacking and block membership (./block.ts), a
 * numeric block-id range, and the variable lists callers ask for, resolved
 * (./variable-list.ts).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GridDef } from '../geo/grid.js';
import { BLOCK_KINDS, blockKind } from './block.js';
import type { ChunkData } from './chunk-cache.js';
import type { Manifest } from './manifest.js';
import { resolveList, type VariableList } from './variable-list.js';

export interface VarState {
  name: string;
  index: number;
  isStatic: boolean;
  int16: boolean;
  /** Unpacking: value = raw × scale + offset (1 and 0 for float32). */
  scale: number;
  offset: number;
  dir: string;
  /** Codec pipeline from the variable's `.zarray`: zstd or none, then byte shuffle (element size, 0 = none). */
  zstd: boolean;
  shuffle: number;
  /** Its block kind (./block.ts) and position among that kind's variables. */
  kind: number;
  member: number;
}

export interface VersionState {
  product: string;
  version: string;
  manifest: Manifest;
  grid: GridDef;
  timesMs: Float64Array;
  nTimes: number;
  cy: number;
  cx: number;
  /** Chunks along x, and in total per variable. */
  ncx: number;
  nChunks: number;
  vars: Map<string, VarState>;
  /** Per block kind, its variables in member order. */
  members: VarState[][];
  /** Default variable lists: all of them (with a time), the static ones (without). */
  allNames: readonly string[];
  staticNames: readonly string[];
  /** Block (kind k, tile c) has cache id idBase + k × nChunks + c. */
  idBase: number;
  /**
   * Front table of the cache for this version: slot id − idBase holds the
   * block while the cache holds it (tiles/reader.ts fills it on a cache hit
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
function codecs(dir: string, m: Manifest): Map<string, { zstd: boolean; shuffle: number }> {
  const file = join(dir, '.zmetadata');
  const meta = (JSON.parse(readFileSync(file, 'utf8')) as { metadata: Record<string, unknown> }).metadata;
  const out = new Map<string, { zstd: boolean; shuffle: number }>();
  for (const [name, v] of Object.entries(m.variables)) {
    const z = meta[`${name}/.zarray`] as ZArrayDoc | undefined;
    const bad = (why: string) => new Error(`${file}: variable '${name}' ${why}`);
    if (!z) throw bad('is missing');
    if (z.dtype !== (v.dtype === 'int16' ? '<i2' : '<f4')) throw bad(`has dtype ${z.dtype}, the manifest says ${v.dtype}`);
    const want = v.static ? [m.chunk.y, m.chunk.x] : [m.times.length, m.chunk.y, m.chunk.x];
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

export function versionState(productDir: string, m: Manifest, idBase: number): VersionState {
  const grid = m.grid;
  const cy = m.chunk.y;
  const cx = m.chunk.x;
  const ncx = Math.ceil(grid.nx / cx);
  const nChunks = ncx * Math.ceil(grid.ny / cy);
  const dir = join(productDir, m.version);
  const pipeline = codecs(dir, m);
  const vars = new Map<string, VarState>();
  const members: VarState[][] = Array.from({ length: BLOCK_KINDS }, () => []);
  Object.entries(m.variables).forEach(([name, v], index) => {
    const int16 = v.dtype === 'int16';
    const isStatic = v.static === true;
    const kind = blockKind(int16, isStatic);
    const state: VarState = {
      name,
      index,
      isStatic,
      int16,
      scale: int16 ? (v.scale_factor ?? 1) : 1,
      offset: int16 ? (v.add_offset ?? 0) : 0,
      dir: join(dir, name),
      ...pipeline.get(name)!,
      kind,
      member: members[kind]!.length,
    };
    vars.set(name, state);
    members[kind]!.push(state);
  });
  const timesMs = Float64Array.from(m.times, (t) => Date.parse(t));
  const span = idSpan({ nChunks });
  const allNames = [...vars.keys()];
  const staticNames = [...vars.values()].filter((v) => v.isStatic).map((v) => v.name);
  return {
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
    vars,
    members,
    allNames,
    staticNames,
    idBase,
    slots: new Array<ChunkData | undefined>(span).fill(undefined),
    slotTouchedS: new Float64Array(span),
    lists: [resolveList({ vars }, allNames), resolveList({ vars }, staticNames)],
    listCursor: 0,
  };
}

/** Number of ids a version reserves. */
export function idSpan(vs: Pick<VersionState, 'nChunks'>): number {
  return BLOCK_KINDS * vs.nChunks;
}
