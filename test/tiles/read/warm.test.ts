/**
 * Warming before switching (tiles/read/warm.ts), on real stores written by
 * the tile writer: a starting store warms its live versions; a published
 * version is staged while the old one answers, and answers only once every
 * block of the warm plan is cached, then the old blocks leave the cache.
 * Values are the constants each version was written with (bilinear and
 * linear in time of a constant field is that constant, packed exactly at
 * precision 0.01).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { withCatalogue } from '../../../ingest/products/catalogue-input.js';
import { TileStore } from '../../../tiles/read/reader.js';
import type { WarmReport } from '../../../tiles/read/warm.js';
import type { VariableInput } from '../../../tiles/types.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { tempRoot } from '../temp-root.js';

// 80 × 70 cells: 3 × 3 chunks of 32 × 32.
const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 80, ny: 70, x0: 11, y0: 43, dx: 0.02, dy: 0.02 };
const CELLS = GRID.nx * GRID.ny;
const T0 = Date.UTC(2026, 10, 24, 0);
const STEPS = 6;
const times = Array.from({ length: STEPS }, (_, k) => new Date(T0 + k * 3_600_000));
const series = (v: number, units: string): VariableInput => ({ units, precision: 0.01, values: times.map(() => new Float32Array(CELLS).fill(v)) });
const NAMES = ['temperature_2m', 'pressure_msl'];

async function publish(root: string, temperature: number): Promise<string> {
  const r = await writeProductVersion(root, withCatalogue({
    product: 'nwp', grid: GRID, times,
    variables: { temperature_2m: series(temperature, '°C'), pressure_msl: series(1012, 'hPa') },
    source: { files: ['t'] },
  }));
  return r.version;
}

/** A point in the middle of each of the 3 × 3 chunks. */
const CHUNK_POINTS = [0, 1, 2].flatMap((ty) => [0, 1, 2].map((tx) => ({ lat: GRID.y0 + Math.min(ty * 32 + 16, GRID.ny - 2) * GRID.dy, lon: GRID.x0 + Math.min(tx * 32 + 16, GRID.nx - 2) * GRID.dx })));
const AT = T0 + 2.5 * 3_600_000;

/** Until `version` of nwp is live (a warm ends within seconds here). */
async function untilLive(tiles: TileStore, version: string): Promise<void> {
  for (let i = 0; i < 2000 && tiles.pin('nwp')!.version !== version; i++) await new Promise((r) => setTimeout(r, 5));
  expect(tiles.pin('nwp')!.version).toBe(version);
}

function warmStore(root: string, reports: WarmReport[]): TileStore {
  return new TileStore(root, { cacheBytes: 64 << 20, manifestCheckMs: 0, warm: () => NAMES, onWarm: (r) => reports.push(r) });
}

describe('warming a version before it answers', () => {
  it('a starting store is warming until every block of its plan is cached', async () => {
    const root = tempRoot('warm-start');
    const version = await publish(root, 12);
    const reports: WarmReport[] = [];
    const tiles = warmStore(root, reports);
    const started = tiles.warmLive(['nwp']);
    expect(tiles.warming()).toBe(true);
    const done = await started;
    expect(tiles.warming()).toBe(false);
    // Both variables are int16 'base' members: one block kind, 9 chunks.
    expect(done).toEqual([expect.objectContaining({ key: 'nwp', version, blocks: 9, total: 9, switched: false })]);
    expect(done[0]!.bytes).toBe(9 * 32 * 32 * STEPS * 2 * 2);
    expect(tiles.cacheStats().misses).toBe(0);
    for (const p of CHUNK_POINTS) expect(tiles.trySample('nwp', p.lat, p.lon, AT, NAMES)?.values.temperature_2m).toBe(12);
  });

  it('after a publish the old version answers until the new one is warm, then the new one, and the old blocks go', async () => {
    const root = tempRoot('warm-switch');
    const a = await publish(root, 12);
    const reports: WarmReport[] = [];
    const tiles = warmStore(root, reports);
    await tiles.warmLive(['nwp']);
    const warmBytes = tiles.cacheStats().bytes;
    const va = tiles.pin('nwp')!;
    for (const p of CHUNK_POINTS) tiles.trySample('nwp', p.lat, p.lon, AT, NAMES);
    // a's blocks were decoded in a thread into SharedArrayBuffers (tiles/read/decode-worker.ts) and are in its front table.
    expect(va.slots.filter((s) => s !== undefined).map((s) => s!.buffer instanceof SharedArrayBuffer)).toEqual(Array(9).fill(true));
    const b = await publish(root, 20);

    // The first lookup finds version b and stages it; a stays live.
    expect(tiles.pin('nwp')!.version).toBe(a);
    expect((await tiles.sample('nwp', CHUNK_POINTS[4]!.lat, CHUNK_POINTS[4]!.lon, AT, NAMES)).values.temperature_2m).toBe(12);
    const seen: number[] = [];
    for (let i = 0; i < 2000; i++) {
      const vs = tiles.pin('nwp')!;
      const t = (await tiles.sampleIn(vs, CHUNK_POINTS[i % 9]!.lat, CHUNK_POINTS[i % 9]!.lon, AT, NAMES)).values.temperature_2m as number;
      seen.push(t);
      if (vs.version === b) {
        // Live only once warm: its report is in, and every chunk answers without a load.
        expect(reports.at(-1)).toEqual(expect.objectContaining({ version: b, switched: true, blocks: 9, total: 9 }));
        expect(t).toBe(20);
        for (const p of CHUNK_POINTS) expect(tiles.trySample('nwp', p.lat, p.lon, AT, NAMES)?.values.temperature_2m).toBe(20);
        break;
      }
      expect(t).toBe(12);
      expect(reports.some((r) => r.version === b)).toBe(false);
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(seen.at(-1)).toBe(20);
    // The old version's blocks were dropped at the switch: the cache holds b's alone, and a's front table none
    // (the service's lookup plans keep a version after it is replaced).
    expect(tiles.cacheStats().bytes).toBe(warmBytes);
    expect(va.slots.every((s) => s === undefined)).toBe(true);
    // A request that pinned a before the switch still reads a, through the cache's miss path.
    const misses = tiles.cacheStats().misses;
    expect((await tiles.sampleIn(va, CHUNK_POINTS[4]!.lat, CHUNK_POINTS[4]!.lon, AT, NAMES)).values.temperature_2m).toBe(12);
    expect(tiles.cacheStats().misses).toBe(misses + 1);
  });

  it('without a warm plan a published version answers at once (the default, unchanged)', async () => {
    const root = tempRoot('warm-none');
    await publish(root, 12);
    const tiles = new TileStore(root, { cacheBytes: 64 << 20, manifestCheckMs: 0 });
    expect(tiles.warming()).toBe(false);
    expect(await tiles.warmLive(['nwp'])).toEqual([]);
    expect((await tiles.sample('nwp', CHUNK_POINTS[0]!.lat, CHUNK_POINTS[0]!.lon, AT, NAMES)).values.temperature_2m).toBe(12);
    await publish(root, 20);
    expect((await tiles.sample('nwp', CHUNK_POINTS[0]!.lat, CHUNK_POINTS[0]!.lon, AT, NAMES)).values.temperature_2m).toBe(20);
  });

  it('two publishes in a row: the newest ends up live, versions switch in order, never back', async () => {
    const root = tempRoot('warm-replaced');
    const a = await publish(root, 12);
    const reports: WarmReport[] = [];
    const tiles = warmStore(root, reports);
    await tiles.warmLive(['nwp']);
    const b = await publish(root, 20);
    tiles.pin('nwp'); // b staged (or, on a fast warm, live before c is written)
    const c = await publish(root, 30);
    const order = [a, b, c];
    let last = 0;
    for (let i = 0; i < 2000; i++) {
      const at = order.indexOf(tiles.pin('nwp')!.version);
      expect(at).toBeGreaterThanOrEqual(last);
      last = at;
      if (at === 2) break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(tiles.pin('nwp')!.version).toBe(c);
    expect((await tiles.sample('nwp', CHUNK_POINTS[8]!.lat, CHUNK_POINTS[8]!.lon, AT, NAMES)).values.temperature_2m).toBe(30);
    const switched = reports.filter((r) => r.switched).map((r) => r.version);
    expect(switched.at(-1)).toBe(c);
    expect(switched.every((v) => v === b || v === c)).toBe(true);
  });

  it('a start faults in the memory of the next warm; a replaced version\'s is reused once unreachable, its values never seen', async () => {
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const root = tempRoot('warm-memory');
    await publish(root, 12);
    const tiles = warmStore(root, []);
    const [start] = await tiles.warmLive(['nwp']);
    // The live version's blocks (its front table, filled by a lookup at each chunk), each a region of one slab:
    // every view's buffer (one object per block, each posted from the thread) has the slab's size.
    const blocksOf = (value: number) => {
      for (const p of CHUNK_POINTS) expect(tiles.trySample('nwp', p.lat, p.lon, AT, NAMES)?.values.temperature_2m).toBe(value);
      const views = tiles.pin('nwp')!.slots.filter((b) => b !== undefined) as Int16Array[];
      expect(views.map((v) => v.buffer.byteLength)).toEqual(Array(9).fill(start!.bytes));
      expect(new Set(views.map((v) => v.byteOffset)).size).toBe(9);
      return views;
    };
    const slabA = blocksOf(12)[0]!.buffer;
    // The start's warm, 9 blocks of 24,576 bytes (64-byte aligned already), and a spare of that size faulted in.
    expect(tiles.warmSpareBytes()).toBe(start!.bytes);
    const b = await publish(root, 20);
    tiles.pin('nwp');
    await untilLive(tiles, b);
    // b was written into the spare; a's blocks left the cache at the switch and, once collected, a's slab is the spare.
    blocksOf(20);
    for (let i = 0; i < 50 && tiles.warmSpareBytes() === 0; i++) {
      gc();
      await new Promise((r) => setTimeout(r, 10));
    }
    expect(tiles.warmSpareBytes()).toBe(start!.bytes);
    // Nothing reads a's memory now: a mark in every byte of it (the constants pack to 0s, which would not show).
    new Uint8Array(slabA).fill(0x77);
    // c is written into a's memory, every byte of its blocks: each chunk answers c's value, and the slab read
    // through a's old buffer holds c's blocks, no mark left.
    const c = await publish(root, 30);
    tiles.pin('nwp');
    await untilLive(tiles, c);
    const mark = 0x7777;
    for (const v of blocksOf(30)) {
      const there = new Int16Array(slabA, v.byteOffset, v.length);
      expect(there.every((x, k) => x === v[k])).toBe(true);
      expect(there.includes(mark)).toBe(false);
    }
    expect(tiles.warmSpareBytes()).toBe(0);
  });
});
