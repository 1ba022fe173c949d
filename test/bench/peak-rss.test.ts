/**
 * The bench's peak resident set of a server process: a child started by a
 * parent holding a large array must not report the parent's memory as its
 * own (getrusage's maxRSS survives exec; Linux's VmHWM does not).
 */
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';

describe('peakRssBytes', () => {
  it.runIf(process.platform === 'linux')("reports the child's own peak, not the resident set of the parent it was forked from", () => {
    const held = new Float64Array(64 * 2 ** 20).fill(1); // 512 MiB resident in this process at the fork
    const parentRss = process.memoryUsage().rss;
    const r = spawnSync(process.execPath, ['--import', 'tsx', '-e', "import('./bench/peak-rss.ts').then((m) => console.log(m.peakRssBytes(), process.resourceUsage().maxRSS * 1024))"], {
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(r.status, r.stderr).toBe(0);
    const [peak, maxRss] = r.stdout.trim().split(' ').map(Number) as [number, number];
    expect(held[0]).toBe(1);
    expect(maxRss).toBeGreaterThan(0.9 * parentRss); // what getrusage reports: the parent's memory
    expect(peak).toBeLessThan(300 * 2 ** 20); // a Node process with tsx: well under the 512 MiB held here
    expect(peak).toBeGreaterThan(20 * 2 ** 20);
  }, 180_000);
});
