/** The speed targets as the bench checks them: boundaries inclusive, each plan against its own ratio. */
import { describe, expect, it } from 'vitest';
import { describeTargets, httpChecks, randomChecks } from '../../bench/targets.js';

describe('speed targets', () => {
  const http = {
    redis: true,
    weather: [
      { plan: 'business' as const, ratio: 0.3, p99Ms: 10, elapsedMedianMs: 0.25, widgetRatio: 0.5 },
      { plan: 'free' as const, ratio: 0.449, p99Ms: 8, elapsedMedianMs: 0.02, widgetRatio: 0.8 },
    ],
    access: { ratio: 0.6, elapsedMedianMs: 0.9 },
  };
  const checks = (h = http) => [...httpChecks(h), ...randomChecks({ plan: 'business', ratio: 0.299, p99Ms: 20 }, h.weather, h.access.ratio)];

  it('passes at the bound and fails below it: access 0.6, Business 0.3, Free 0.45, widget 0.8 of Free, elapsed 0.25 ms with Redis', () => {
    const byWhat = Object.fromEntries(checks().map((c) => [c.what, c.pass]));
    expect(byWhat).toEqual({
      'access layer alone / bare': true, // 0.6 ≥ 0.6
      'weather.php / bare, business key': true, // 0.30 ≥ 0.3
      'weather.php / bare, free key': false, // 0.449 < 0.45
      'widget.php / weather.php, free key': true, // 0.8 ≥ 0.8 (the Business key's 0.5 is not a target)
      'elapsed_ms median, business key': true, // 0.25 ≤ 0.25
      'random points / bare, business key': false, // 0.299 < 0.3
      'random-points p99': true, // 20 ≤ 2 × 10
    });
  });

  it('holds embedded quotas to 0.05 ms elapsed_ms', () => {
    const embedded = checks({ ...http, redis: false }).find((c) => c.what.startsWith('elapsed_ms'))!;
    expect(embedded.pass).toBe(false); // 0.25 > 0.05
    expect(embedded.target).toBe('≤ 0.05 ms embedded');
  });

  it('prints the access layer\'s own figure beside the ratio and elapsed_ms targets, not beside the p99', () => {
    const lines = describeTargets(checks(), true);
    expect(lines.filter((l) => l.includes('access layer alone 0.60'))).toHaveLength(3); // two plans' ratios and the random points
    expect(lines.find((l) => l.includes('elapsed_ms'))).toContain('access layer alone 0.900 ms');
    expect(lines.find((l) => l.includes('p99'))).not.toContain('access layer');
  });

  it('says when the run was not made with Redis quotas', () => {
    expect(describeTargets(checks(), false)[0]).toContain('set BENCH_REDIS_URL');
    expect(describeTargets(checks(), true).at(-1)).toBe('  5 of 7 met');
  });
});
