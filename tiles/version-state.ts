/**
 * What the point reader derives once per published version from its
 * manifest, so that a lookup does only arithmetic: parsed times, chunk
 * geometry, per-variable unpacking and a numeric chunk-id range.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { GridDef } from '../geo/grid.js';
import type { Manifest } from './manifest.js';

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
  /** Default variable lists: all of them (with a time), the static ones (without). */
  allNames: readonly string[];
  staticNames: readonly string[];
  /** Chunk (variable v, tile c) has cache id idBase + v × nChunks + c. */
  idBase: number;
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
  Object.entries(m.variables).forEach(([name, v], index) => {
    const int16 = v.dtype === 'int16';
    vars.set(name, {
      name,
      index,
      isStatic: v.static === true,
      int16,
      scale: int16 ? (v.scale_factor ?? 1) : 1,
      offset: int16 ? (v.add_offset ?? 0) : 0,
      dir: join(dir, name),
      ...pipeline.get(name)!,
    });
  });
  const timesMs = Float64Array.from(m.times, (t) => Date.parse(t));
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
    allNames: [...vars.keys()],
    staticNames: [...vars.values()].filter((v) => v.isStatic).map((v) => v.name),
    idBase,
  };
}

/** Number of ids a version reserves. */
export function idSpan(vs: VersionState): number {
  return Math.max(1, vs.vars.size) * vs.nChunks;
}
