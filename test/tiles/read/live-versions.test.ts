/**
 * A replaced or withdrawn version lets go of its blocks (tiles/read/live-versions.ts `setLive`), without a warm
 * plan too (CLI readers, TILES_WARM off): its front table (`slots`) is emptied at the switch. The service keeps a
 * replaced version in its recent lookup plans, and the cache's drop hook clears only live versions' tables, so a
 * table left full held a whole version's decoded blocks per publish. Regression for that leak's twin: the warm's
 * switch emptied the table (tiles/read/warm.ts), the switch without a warm did not.
 */
import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import type { RegularLatLonGrid } from '../../../geo/grid.js';
import { withCatalogue } from '../../../ingest/products/catalogue-input.js';
import { TileStore } from '../../../tiles/read/reader.js';
import type { VariableInput } from '../../../tiles/types.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { tempRoot } from '../temp-root.js';

// 80 × 70 cells: 3 × 3 chunks of 32 × 32, one block kind (both variables int16, time-varying): 9 blocks.
const GRID: RegularLatLonGrid = { kind: 'regular_ll', nx: 80, ny: 70, x0: 11, y0: 43, dx: 0.02, dy: 0.02 };
const T0 = Date.UTC(2026, 10, 24, 0);
const times = Array.from({ length: 4 }, (_, k) => new Date(T0 + k * 3_600_000));
const series = (v: number, units: string): VariableInput => ({ units, precision: 0.01, values: times.map(() => new Float32Array(GRID.nx * GRID.ny).fill(v)) });
const NAMES = ['temperature_2m', 'pressure_msl'];
const AT = T0 + 1.5 * 3_600_000;
/** A point in the middle of each of the 3 × 3 chunks. */
const CHUNK_POINTS = [0, 1, 2].flatMap((ty) => [0, 1, 2].map((tx) => ({ lat: GRID.y0 + Math.min(ty * 32 + 16, GRID.ny - 2) * GRID.dy, lon: GRID.x0 + Math.min(tx * 32 + 16, GRID.nx - 2) * GRID.dx })));

async function publish(root: string, temperature: number): Promise<string> {
  const r = await writeProductVersion(root, withCatalogue({
    product: 'nwp', grid: GRID, times,
    variables: { temperature_2m: series(temperature, '°C'), pressure_msl: series(1012, 'hPa') },
    source: { files: ['t'] },
  }));
  return r.version;
}

const held = (slots: readonly unknown[]) => slots.filter((s) => s !== undefined).length;

describe('a version replaced without a warm plan', () => {
  it('empties its front table at the switch; a request pinned to it still reads it', async () => {
    const root = tempRoot('live-replaced');
    const a = await publish(root, 12);
    const tiles = new TileStore(root, { cacheBytes: 64 << 20, manifestCheckMs: 0 });
    for (const p of CHUNK_POINTS) expect((await tiles.sample('nwp', p.lat, p.lon, AT, NAMES)).values.temperature_2m).toBe(12);
    const va = tiles.pin('nwp')!;
    expect(va.version).toBe(a);
    expect(held(va.slots)).toBe(9);

    await publish(root, 20);
    const vb = tiles.pin('nwp')!;
    expect(vb.version).not.toBe(a);
    expect(held(va.slots)).toBe(0);
    // The old version's blocks stay in the cache (no warmer retires them): a pinned request reads them.
    expect(tiles.trySampleIn(va, CHUNK_POINTS[4]!.lat, CHUNK_POINTS[4]!.lon, AT, NAMES)?.values.temperature_2m).toBe(12);
    expect((await tiles.sample('nwp', CHUNK_POINTS[4]!.lat, CHUNK_POINTS[4]!.lon, AT, NAMES)).values.temperature_2m).toBe(20);
    expect(held(vb.slots)).toBe(1);
  });

  it('a withdrawn store empties its version\'s front table', async () => {
    const root = tempRoot('live-withdrawn');
    await publish(root, 12);
    const tiles = new TileStore(root, { cacheBytes: 64 << 20, manifestCheckMs: 0 });
    for (const p of CHUNK_POINTS) await tiles.sample('nwp', p.lat, p.lon, AT, NAMES);
    const va = tiles.pin('nwp')!;
    expect(held(va.slots)).toBe(9);
    rmSync(`${tiles.storage.location}/nwp/current.json`);
    expect(tiles.pin('nwp')).toBeNull();
    expect(held(va.slots)).toBe(0);
  });
});
