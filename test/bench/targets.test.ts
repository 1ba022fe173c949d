/** The speed targets as the bench checks them: boundaries inclusive, each plan against its own ratio. */
import { describe, expect, it } from 'vitest';
import { describeTargets, httpChecks, randomChecks } from '../../bench/targets.js';

describe('speed targets', () => {
  const http = {
    weather: [
      { plan: 'business' as const, ratio: 0.5, p99Ms: 10, elapsedMedianMs: 0.05 },
      { plan: 'free' as const, ratio: 0.59, p99Ms: 8, elapsedMedianMs: 0.02 },
    ],
    access: { ratio: 0.41, elapsedMedianMs: 0.9 },
  };
  const checks = [...httpChecks(http), ...randomChecks({ plan: 'business', ratio: 0.299, p99Ms: 20 }, http.weather, http.access.ratio)];

  it('passes at the bound and fails below it, Free against 0.6', () => {
    const byWhat = Object.fromEntries(checks.map((c) => [c.what, c.pass]));
    expect(byWhat).toEqual({
      'weather.php / bare, business key': true, // 0.50 ≥ 0.5
      'weather.php / bare, free key': false, // 0.59 < 0.6
      'elapsed_ms median, business key': true, // 0.05 ≤ 0.05
      'random points / bare, business key': false, // 0.299 < 0.3
      'random-points p99': true, // 20 ≤ 2 × 10
    });
  });

  it('prints the access layer\'s own figure beside the ratio and elapsed_ms targets, not beside the p99', () => {
    const lines = describeTargets(checks, true);
    expect(lines.filter((l) => l.includes('access layer alone 0.41'))).toHaveLength(3); // two plans' ratios and the random points
    expect(lines.find((l) => l.includes('elapsed_ms'))).toContain('access layer alone 0.900 ms');
    expect(lines.find((l) => l.includes('p99'))).not.toContain('access layer');
  });

  it('says when the run was not made with Redis quotas', () => {
    expect(describeTargets(checks, false)[0]).toContain('set BENCH_REDIS_URL');
    expect(describeTargets(checks, true).at(-1)).toBe('  3 of 5 met');
  });
});
