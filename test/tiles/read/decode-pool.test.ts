/**
 * Cold blocks decoded in threads (tiles/read/decode-pool.ts): a TileStore with a
 * decode thread reads, at random points and times, exactly what one decoding
 * on its own thread reads, and the blocks were really decoded in the thread.
 * The values themselves are checked against closed forms by the other reader
 * tests; this one checks that moving the decode changes nothing.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadDecodes } from '../../../tiles/read/decode-pool.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { REGULAR, analytic, hourlyTimes, input } from '../fields.js';

describe('decode threads', () => {
  const root = mkdtempSync(join(tmpdir(), 'mp-decode-'));
  const times = hourlyTimes(6);
  beforeAll(async () => {
    await writeProductVersion(root, input('nwp', REGULAR, times, {
      temperature_2m: { units: '°C', precision: 0.01, values: analytic(REGULAR, times, (lat, lon, t) => 10 + lat - 0.5 * lon + t) },
      wind_gust_10m: { units: 'm/s', precision: 0.01, values: analytic(REGULAR, times, (lat, lon) => 5 + 0.1 * lat * lon) },
    }));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads what the calling thread reads, with the blocks decoded in a thread', async () => {
    const here = new TileStore(root, { cacheBytes: 64 << 20 });
    const threaded = new TileStore(root, { cacheBytes: 64 << 20, decodeThreads: 1 });
    const g = REGULAR;
    const before = threadDecodes();
    let seed = 7;
    const rnd = () => ((seed = (seed * 16807) % 2147483647) / 2147483647);
    for (let i = 0; i < 40; i++) {
      const lat = g.y0 + rnd() * (g.ny - 1) * g.dy;
      const lon = g.x0 + rnd() * (g.nx - 1) * g.dx;
      const t = times[0]!.getTime() + rnd() * (times.length - 1) * 3_600_000;
      const [a, b] = await Promise.all([here.sample('nwp', lat, lon, t), threaded.sample('nwp', lat, lon, t)]);
      expect(b).toEqual(a);
    }
    expect(threadDecodes() - before).toBeGreaterThan(0);
  });
});
