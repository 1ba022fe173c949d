/**
 * Cold blocks decoded in threads (tiles/read/decode-pool.ts): a TileStore with a
 * decode thread reads, at random points and times, exactly what one decoding
 * on its own thread reads, and the blocks were really decoded in the thread.
 * The values themselves are checked against closed forms by the other reader
 * tests; this one checks that moving the decode changes nothing. A warm's
 * threads run at niceness 10 (docs/tiles.md), as the kernel reports each
 * thread's (/proc/self/task), and no other thread of the process does.
 */
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { threadDecodes, warmThreads } from '../../../tiles/read/decode-pool.js';
import { TileStore } from '../../../tiles/read/reader.js';
import { writeProductVersion } from '../../../tiles/write/writer.js';
import { REGULAR, analytic, hourlyTimes, input } from '../fields.js';

/** Each thread of this process and its niceness, as the kernel has them (proc(5): field 19 of stat). */
function niceness(): Map<number, number> {
  const byThread = new Map<number, number>();
  for (const tid of readdirSync('/proc/self/task')) {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    // The fields after the command name, which is in parentheses and may hold spaces: state is field 3.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    byThread.set(Number(tid), Number(fields[19 - 3]));
  }
  return byThread;
}

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

  it('goes on decoding for a store after another asked for a larger pool', async () => {
    const here = new TileStore(root, { cacheBytes: 64 << 20 });
    const small = new TileStore(root, { cacheBytes: 64 << 20, decodeThreads: 3 });
    new TileStore(root, { cacheBytes: 64 << 20, decodeThreads: 4 });
    const at = [REGULAR.y0 + 0.3, REGULAR.x0 + 0.7, times[2]!.getTime()] as const;
    expect(await small.sample('nwp', ...at)).toEqual(await here.sample('nwp', ...at));
  });

  it.runIf(process.platform === 'linux')('runs a warm on threads at niceness 10, cold loads and the event loop at 0', async () => {
    const loads = new TileStore(root, { cacheBytes: 64 << 20, decodeThreads: 1 });
    const before = threadDecodes();
    await loads.sample('nwp', REGULAR.y0 + 0.5, REGULAR.x0 + 0.5, times[1]!.getTime());
    expect(threadDecodes() - before).toBeGreaterThan(0);
    const warmed = new TileStore(root, { cacheBytes: 64 << 20, warm: () => ['temperature_2m', 'wind_gust_10m'] });
    expect((await warmed.warmLive(['nwp']))[0]).toMatchObject({ key: 'nwp', switched: false });
    expect(warmThreads()).toBeGreaterThan(0);
    const nice = niceness();
    expect(nice.get(process.pid)).toBe(0);
    const lowered = [...nice.values()].filter((n) => n !== 0);
    // Every lowered thread is a warm thread at 10; the cold-load thread, and every other, stayed at 0.
    expect(lowered).toEqual(Array(warmThreads()).fill(10));
  });
});
