/**
 * What the point reader derives once per published version from its
 * manifest, so that a lookup does only arithmetic: parsed times, chunk
 * geometry, per-variable unpacking and a numeric chunk-id range.
 */
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

export function versionState(productDir: string, m: Manifest, idBase: number): VersionState {
  const grid = m.grid;
  const cy = m.chunk.y;
  const cx = m.chunk.x;
  const ncx = Math.ceil(grid.nx / cx);
  const nChunks = ncx * Math.ceil(grid.ny / cy);
  const dir = join(productDir, m.version);
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
