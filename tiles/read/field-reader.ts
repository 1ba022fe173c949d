/**
 * Whole fields out of a published version: one variable at chosen time
 * steps, unpacked to Float32Array grids (row-major [y][x], NaN = missing).
 * Not the point reader: for ingest steps that build on what is published
 * (the forecast's carry-over of earlier hours, sm100 from an nwp version)
 * and for inspection tools. Each chunk is decoded once for all the steps
 * asked in it.
 */
import { join } from 'node:path';
import type { Manifest } from '../manifest.js';
import { manifestKey, readManifestView } from '../manifest-file.js';
import { readChunk } from './chunk-file.js';
import { tileStorage, type TilesAt } from '../storage/open.js';
import type { TileStorage } from '../storage/types.js';
import { INT16_FILL } from '../codecs/packing.js';
import { versionState, type VersionState } from './version-state.js';

/** A published version opened for whole-field reads. */
export interface OpenVersion {
  manifest: Manifest;
  state: VersionState;
  storage: TileStorage;
}

/** The live version of a store (`nwp`, `reanalysis/1950`), or null when none is published. */
export async function openLiveVersion(root: TilesAt, key: string): Promise<OpenVersion | null> {
  const storage = tileStorage(root);
  // A bucket's synchronous view holds what it has polled: load this store's manifest now.
  await storage.prime?.([manifestKey(key)]);
  const m = readManifestView(storage.sync, key, storage.location);
  return m ? { manifest: m, state: versionState(key, storage, m, 0), storage } : null;
}

/** A rectangle of grid cells: columns x0 … x0 + nx − 1, rows y0 … y0 + ny − 1. */
export interface CellWindow {
  x0: number;
  y0: number;
  nx: number;
  ny: number;
}

/**
 * `name` at time indices `steps` (ignored for static variables: one field).
 * Throws naming the variable when the version lacks it.
 */
export async function readFieldSteps(v: OpenVersion, name: string, steps: readonly number[]): Promise<Float32Array[]> {
  const { nx, ny } = v.state.grid;
  return readFieldWindow(v, name, steps, { x0: 0, y0: 0, nx, ny });
}

/**
 * As readFieldSteps, only the cells of `win` (arrays of win.nx × win.ny,
 * row-major): only the chunks overlapping it are decoded (sm100 reads the
 * few nwp cells around San Marino out of a national grid).
 */
export async function readFieldWindow(v: OpenVersion, name: string, steps: readonly number[], win: CellWindow): Promise<Float32Array[]> {
  const vs = v.state;
  const st = vs.vars.get(name);
  if (!st) throw new Error(`tiles/${vs.key} ${vs.version}: no variable '${name}'`);
  const { nx, ny } = vs.grid;
  if (!(win.x0 >= 0 && win.y0 >= 0 && win.nx > 0 && win.ny > 0 && win.x0 + win.nx <= nx && win.y0 + win.ny <= ny)) {
    throw new RangeError(`tiles/${vs.key}: window ${JSON.stringify(win)} outside the ${nx} × ${ny} grid`);
  }
  const want = st.isStatic ? [0] : [...steps];
  for (const k of want) if (!(k >= 0 && k < Math.max(1, vs.nTimes))) throw new RangeError(`tiles/${vs.key}: time index ${k} out of range`);
  const out = want.map(() => new Float32Array(win.nx * win.ny));
  // Per time chunk (the whole axis unless the store is chunked along time), the asked steps in it.
  const ct = st.isStatic ? 1 : vs.ct;
  const byChunk = new Map<number, number[]>();
  want.forEach((k, w) => {
    const tc = Math.floor(k / ct);
    let l = byChunk.get(tc);
    if (!l) byChunk.set(tc, (l = []));
    l.push(w);
  });
  const plane = vs.cy * vs.cx;
  for (const [tc, ws] of byChunk) {
    for (let ty = Math.floor(win.y0 / vs.cy); ty <= Math.floor((win.y0 + win.ny - 1) / vs.cy); ty++) {
      for (let tx = Math.floor(win.x0 / vs.cx); tx <= Math.floor((win.x0 + win.nx - 1) / vs.cx); tx++) {
        const key = st.isStatic ? `${ty}.${tx}` : `${tc}.${ty}.${tx}`;
        const chunk = await readChunk({ key: `${st.key}/${key}`, file: st.dir === null ? null : join(st.dir, key), zstd: st.zstd, shuffle: st.shuffle }, st.int16, ct * plane, v.storage);
        // Rows and columns of this chunk inside the window, in grid indices.
        const r0 = Math.max(ty * vs.cy, win.y0);
        const r1 = Math.min((ty + 1) * vs.cy, ny, win.y0 + win.ny);
        const c0 = Math.max(tx * vs.cx, win.x0);
        const c1 = Math.min((tx + 1) * vs.cx, nx, win.x0 + win.nx);
        for (const w of ws) {
          const k = want[w]! - tc * ct;
          const dst = out[w]!;
          for (let r = r0; r < r1; r++) {
            const src = k * plane + (r - ty * vs.cy) * vs.cx - tx * vs.cx;
            const d = (r - win.y0) * win.nx - win.x0;
            for (let c = c0; c < c1; c++) {
              const raw = chunk[src + c]!;
              dst[d + c] = st.int16 ? (raw === INT16_FILL ? NaN : raw * st.scale + st.offset) : raw;
            }
          }
        }
      }
    }
  }
  return out;
}
