/**
 * A planar block (tiles/read/planar-block.ts) of chunks stored without the shuffle filter (`shuffle: 0`, raw
 * bytes: a store another writer made) holds every byte of each member's steps: the values written, read back at
 * (member m, step t, cell c) = (m × steps + t) × plane + c. Until 2026-11-27 such a block of several members or a
 * bridge copied `count` bytes where it meant `count` values (half of each int16 row, a quarter of a float32's).
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readPlanarBlock } from '../../../tiles/read/planar-block.js';
import type { ChunkFile } from '../../../tiles/read/chunk-file.js';

const dir = mkdtempSync(join(tmpdir(), 'mp-planar-raw-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const plane = 6;
const chunkSteps = 3;

/** A raw chunk file of `chunkSteps` × `plane` values: value(member, step, cell) as stored, no filter, no compressor. */
function rawChunk(name: string, int16: boolean, value: (t: number, c: number) => number): ChunkFile {
  const n = chunkSteps * plane;
  const values = int16 ? new Int16Array(n) : new Float32Array(n);
  for (let t = 0; t < chunkSteps; t++) for (let c = 0; c < plane; c++) values[t * plane + c] = value(t, c);
  const file = join(dir, name);
  writeFileSync(file, new Uint8Array(values.buffer));
  return { key: name, file, zstd: false, shuffle: 0 };
}

describe('planar blocks of unshuffled chunks', () => {
  for (const int16 of [true, false]) {
    const value = (m: number, tc: number, t: number, c: number) => (int16 ? -1 : 0.5) * (1000 * m + 100 * tc + 10 * t + c + 1);
    const files = (tc: number) => [0, 1].map((m) => rawChunk(`${int16 ? 'i' : 'f'}-${m}-${tc}`, int16, (t, c) => value(m, tc, t, c)));

    it(`holds every value of two ${int16 ? 'int16' : 'float32'} members' steps`, async () => {
      const block = await readPlanarBlock({ id: 1, int16, files: files(0), steps: chunkSteps, plane, planar: true });
      for (let m = 0; m < 2; m++)
        for (let t = 0; t < chunkSteps; t++)
          for (let c = 0; c < plane; c++) expect(block[(m * chunkSteps + t) * plane + c], `m ${m} t ${t} c ${c}`).toBe(value(m, 0, t, c));
    });

    it(`holds a ${int16 ? 'int16' : 'float32'} bridge's two steps (the last of one chunk, the first of the next)`, async () => {
      const block = await readPlanarBlock({ id: 2, int16, files: files(0), next: files(1), steps: 2, chunkSteps, plane, planar: true });
      for (let m = 0; m < 2; m++)
        for (let c = 0; c < plane; c++) {
          expect(block[(m * 2 + 0) * plane + c], `m ${m} last c ${c}`).toBe(value(m, 0, chunkSteps - 1, c));
          expect(block[(m * 2 + 1) * plane + c], `m ${m} first c ${c}`).toBe(value(m, 1, 0, c));
        }
    });
  }
});
