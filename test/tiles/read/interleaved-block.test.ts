/**
 * An interleaved block as the point reader loads it (tiles/read/block-read.ts: each member's chunk read,
 * decompressed, unshuffled and interleaved in one pass, tiles/read/block.ts interleaveInto) holds, at
 * (cell, step, member), the value zarr-python reads from the store at that grid point and step
 * (test/tiles/read/fixtures/zarr_values.py: numcodecs' zstd and shuffle, raw packed values). Random values, so
 * that both bytes of every int16 and all four of every float32 vary, negative ones included; a grid that
 * crosses chunk edges, so the padded chunks at the borders are read too.
 */
import { execFileSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { tileStorage } from '../../../tiles/storage/open.js';
import { versionState, type VersionState } from '../../../tiles/read/version-state.js';
import { blockRequest } from '../../../tiles/read/neighbour-blocks.js';
import { readBlock } from '../../../tiles/read/block-read.js';
import { threadDecoder } from '../../../tiles/read/decode-pool.js';
import { REGULAR, hourlyTimes, input } from '../fields.js';
import { tempRoot } from '../temp-root.js';
import { mulberry32 } from '../../../bench/prng.js';

const FIXTURE = resolve(import.meta.dirname, 'fixtures/zarr_values.py');
const grid = REGULAR; // 70 × 50: chunks of 32 × 32 leave padded ones on two edges
const times = hourlyTimes(5);
const cells = grid.nx * grid.ny;

/** Uniform values in lo … hi, a fresh stream per variable. */
function noise(seed: number, n: number, lo: number, hi: number): Float32Array[] {
  const rnd = mulberry32(seed);
  return Array.from({ length: n }, () => Float32Array.from({ length: cells }, () => lo + rnd() * (hi - lo)));
}

interface ZarrValues { shape: number[]; dtype: string; values: number[] }

describe('interleaved blocks against zarr-python', () => {
  const root = tempRoot('interleaved');
  let vs: VersionState;
  let zarr: Record<string, ZarrValues>;
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', grid, times, {
      // ±300 at 0.01: packed over nearly the whole int16 range, both signs.
      temperature_2m: { units: '°C', precision: 0.01, values: noise(1, times.length, -300, 300) },
      wind_u_10m: { units: 'm/s', precision: 0.01, values: noise(2, times.length, -40, 40) },
      dew_point_2m: { units: '°C', precision: 0.01, values: noise(3, times.length, -60, 200) },
      // Too fine for int16: float32.
      pressure_msl: { units: 'hPa', precision: 1e-4, values: noise(4, times.length, -1100, 1100) },
      elevation: { units: 'm', precision: 0.1, static: true, values: noise(5, 1, -400, 3000) },
      roughness: { units: 'm', precision: 1e-6, static: true, values: noise(6, 1, -2, 2) },
    }));
    const m = new TileStore(root).manifest('nwp')!;
    vs = versionState('nwp', tileStorage(root), m, 0);
    const dir = join(root, 'tiles', 'nwp', m.version);
    zarr = JSON.parse(execFileSync('/usr/bin/python3', [FIXTURE, dir, ...Object.keys(m.variables)], { encoding: 'utf8', maxBuffer: 64 << 20 })) as Record<string, ZarrValues>;
  }, 60_000);

  it('holds every kind of block (several int16 members, float32, static) with the values zarr reads', async () => {
    const dtypes = new Set<string>();
    let compared = 0;
    for (let kind = 0; kind < vs.kinds.length; kind++) {
      const members = vs.members[kind]!;
      for (let c = 0; c < vs.nChunks; c++) {
        const req = blockRequest(vs, kind * vs.nWin, c, 0);
        const block = await readBlock(req);
        const steps = req.steps;
        expect(block.length).toBe(members.length * steps * req.plane);
        const ty = Math.floor(c / vs.ncx);
        const tx = c - ty * vs.ncx;
        for (let m = 0; m < members.length; m++) {
          const z = zarr[members[m]!.name]!;
          dtypes.add(z.dtype);
          expect(block instanceof Int16Array).toBe(z.dtype === 'int16');
          for (let row = 0; row < vs.cy; row++) {
            const y = ty * vs.cy + row;
            for (let col = 0; col < vs.cx; col++) {
              const x = tx * vs.cx + col;
              if (y >= grid.ny || x >= grid.nx) continue; // padding beyond the grid
              const cell = row * vs.cx + col;
              for (let t = 0; t < steps; t++) {
                const expected = z.values[(steps === 1 ? 0 : t * cells) + y * grid.nx + x]!;
                const got = block[(cell * steps + t) * members.length + m]!;
                if (got !== expected) expect({ var: members[m]!.name, x, y, t, got }).toEqual({ var: members[m]!.name, x, y, t, got: expected });
                compared++;
              }
            }
          }
        }
      }
    }
    expect([...dtypes].sort()).toEqual(['float32', 'int16']);
    // Every value of every variable: 4 time-varying × 5 steps and 2 static, over the whole grid.
    expect(compared).toBe(cells * (4 * times.length + 2));
  });

  it('a warm\'s block, in a SharedArrayBuffer from a decode thread, holds the same bytes as one read here', async () => {
    const decode = threadDecoder(1, true);
    for (let kind = 0; kind < vs.kinds.length; kind++) {
      for (let c = 0; c < vs.nChunks; c++) {
        const req = blockRequest(vs, kind * vs.nWin, c, 0);
        const [here, thread] = await Promise.all([readBlock(req), decode(req)]);
        expect(here.buffer).toBeInstanceOf(ArrayBuffer);
        expect(thread.buffer).toBeInstanceOf(SharedArrayBuffer);
        expect(thread.constructor).toBe(here.constructor);
        expect(Buffer.from(thread.buffer).equals(Buffer.from(here.buffer))).toBe(true);
      }
    }
  });
});
