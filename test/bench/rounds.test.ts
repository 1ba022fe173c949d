/** Combining a server's alternating windows: totals, request-weighted CPU, median latencies. */
import { describe, expect, it } from 'vitest';
import { combineRounds, median } from '../../bench/rounds.js';

describe('bench rounds', () => {
  it('median: the middle value, or the mean of the two middle ones', () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([])).toBeNaN();
  });

  it('combines windows: mean rate, CPU weighted by requests, median of the latency quantiles', () => {
    const w = (rps: number, requests: number, cpu: number, med: number, p99: number) => ({ rps, requests, errors: 0, cpuUsPerRequest: cpu, medianMs: med, p99Ms: p99 });
    const c = combineRounds([w(1000, 1000, 100, 2, 9), w(3000, 3000, 60, 1, 5), w(2000, 2000, 80, 3, 7)]);
    expect(c.rps).toBe(2000);
    expect(c.requests).toBe(6000);
    // (1000·100 + 3000·60 + 2000·80) / 6000 = 440000 / 6000
    expect(c.cpuUsPerRequest).toBeCloseTo(73.333, 3);
    expect([c.medianMs, c.p99Ms]).toEqual([2, 7]);
  });
});
