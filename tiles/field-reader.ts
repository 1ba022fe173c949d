/**
 * Whole fields out of a published version: one variable at chosen time
 * steps, unpacked to Float32Array grids (row-major [y][x], NaN = missing).
 * Not the point reader: for ingest steps that build on what is published
 * (the forecast's carry-over of earlier hours, sm100 from an nwp version)
 * and for inspection tools. Each chunk is decoded once for all the steps
 * asked.
 */
import { join } from 'node:path';
import { productDir } from '../config/paths.js';
import type { Manifest } from './manifest.js';
import { readManifestSync } from './manifest-file.js';
import { readChunk } from './chunk-file.js';
import { INT16_FILL } from './packing.js';
import { versionState, type VersionState } from './version-state.js';

/** A published version opened for whole-field reads. */
export interface OpenVersion {
  manifest: Manifest;
  state: VersionState;
}

/** The live version of a store (`nwp`, `reanalysis/1950`), or null when none is published. */
export function openLiveVersion(root: string, key: string): OpenVersion | null {
  const dir = productDir(root, key);
  const m = readManifestSync(dir);
  return m ? { manifest: m, state: versionState(key, dir, m, 0) } : null;
}

/**
 * `name` at time indices `steps` (ignored for static variables: one field).
 * Throws naming the variable when the version lacks it.
 */
export async function readFieldSteps(v: OpenVersion, name: string, steps: readonly number[]): Promise<Float32Array[]> {
  const vs = v.state;
  const st = vs.vars.get(name);
  if (!st) throw new Error(`tiles/${vs.key} ${vs.version}: no variable '${name}'`);
  const { nx, ny } = vs.grid;
  const want = st.isStatic ? [0] : [...steps];
  for (const k of want) if (!(k >= 0 && k < Math.max(1, vs.nTimes))) throw new RangeError(`tiles/${vs.key}: time index ${k} out of range`);
  const out = want.map(() => new Float32Array(nx * ny));
  const nT = st.isStatic ? 1 : vs.nTimes;
  const plane = vs.cy * vs.cx;
  const nCy = Math.ceil(ny / vs.cy);
  for (let ty = 0; ty < nCy; ty++) {
    for (let tx = 0; tx < vs.ncx; tx++) {
      const key = st.isStatic ? `${ty}.${tx}` : `0.${ty}.${tx}`;
      const chunk = await readChunk({ file: join(st.dir, key), zstd: st.zstd, shuffle: st.shuffle }, st.int16, nT * plane);
      const rows = Math.min(vs.cy, ny - ty * vs.cy);
      const cols = Math.min(vs.cx, nx - tx * vs.cx);
      want.forEach((k, w) => {
        const dst = out[w]!;
        for (let r = 0; r < rows; r++) {
          const src = k * plane + r * vs.cx;
          const d = (ty * vs.cy + r) * nx + tx * vs.cx;
          for (let c = 0; c < cols; c++) {
            const raw = chunk[src + c]!;
            dst[d + c] = st.int16 ? (raw === INT16_FILL ? NaN : raw * st.scale + st.offset) : raw;
          }
        }
      });
    }
  }
  return out;
}
