/** The speed targets as the bench checks them: boundaries inclusive, each plan against its own ratio, each floor's verdict. */
import { describe, expect, it } from 'vitest';
import { describeCheck, describeTargets, httpChecks, randomChecks, ratioUnreachable, timeUnreachable } from '../../bench/targets.js';

describe('speed targets', () => {
  const http = {
    redis: true,
    weather: [
      { plan: 'business' as const, ratio: 0.3, p99Ms: 10, elapsedMedianMs: 0.25, widgetRatio: 0.5 },
      { plan: 'free' as const, ratio: 0.449, p99Ms: 8, elapsedMedianMs: 0.02, widgetRatio: 0.8 },
    ],
    access: { ratio: 0.6, elapsedMedianMs: 0.9 },
  };
  const checks = (h = http) => [...httpChecks(h), ...randomChecks({ plan: 'business', ratio: 0.299, p99Ms: 20 }, h)];

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

  it("prints the access layer's own figure beside the ratio targets, as elapsed_ms's floor, not beside the p99", () => {
    const lines = describeTargets(checks(), true);
    expect(lines.filter((l) => l.includes('access layer alone 0.60'))).toHaveLength(3); // two plans' ratios and the random points
    expect(lines.find((l) => l.includes('elapsed_ms'))).toContain('floor = access layer alone 0.900 ms');
    expect(lines.find((l) => l.includes('p99'))).not.toContain('access layer');
  });

  it('says when the run was not made with Redis quotas', () => {
    expect(describeTargets(checks(), false)[0]).toContain('set BENCH_REDIS_URL');
    expect(describeTargets(checks(), true).at(-1)).toBe('  5 of 7 met');
  });
});

describe('the floors of the targets', () => {
  // bare 26 µs per request, point read 4.65 µs: a target t with floor f leaves 26 × (1/t − 1/f) µs per request.
  const basis = { bareUs: 26, pointReadUs: 4.65 };

  it('a ratio target is out of reach when its floor is below it, or leaves less than the point read', () => {
    expect(ratioUnreachable(0.45, 0.44, basis)).toBe('the floor is below the target');
    // 26 × (1/0.45 − 1/0.47) = 2.459 µs < 4.65
    expect(ratioUnreachable(0.45, 0.47, basis)).toBe("the floor leaves 2.5 µs per request (bare 26.0 µs × (1/0.45 − 1/0.47)), less than the point read's 4.7 µs");
    // 26 × (1/0.45 − 1/0.5) = 5.78 µs ≥ 4.65
    expect(ratioUnreachable(0.45, 0.5, basis)).toBeUndefined();
    // Without the point read (point-lookup not run) only the floor itself decides.
    expect(ratioUnreachable(0.45, 0.47, { bareUs: 26 })).toBeUndefined();
  });

  it('a time target is out of reach when its floor is above it, or leaves less than the point read', () => {
    expect(timeUnreachable(0.25, 0.39, basis)).toBe('the floor is above the target');
    expect(timeUnreachable(0.25, 0.248, basis)).toBe("the floor leaves 2.0 µs, less than the point read's 4.7 µs");
    expect(timeUnreachable(0.25, 0.2, basis)).toBeUndefined(); // 50 µs of room
  });

  it('divides a time target\'s room by the answers a request waits for at the load', () => {
    // 50 µs left, each µs of an answer adding 11 µs of waiting: 4.5 µs per answer, less than the point read's 4.65.
    expect(timeUnreachable(0.25, 0.2, basis, 11)).toBe("the floor leaves 4.5 µs per answer (50.0 µs over 11.0 answers' waiting), less than the point read's 4.7 µs");
    expect(timeUnreachable(0.25, 0.2, basis, 10)).toBeUndefined(); // 5.0 µs ≥ 4.65
  });

  it("reads elapsed_ms against the Business answer's floor where the replay measured one, its waiting from the floor's CPU", () => {
    const withFloor = {
      redis: true,
      weather: [{
        plan: 'business' as const, ratio: 0.3, p99Ms: 10, elapsedMedianMs: 0.42, widgetRatio: 0.9, cpuUsPerRequest: 38.5,
        floor: { ratio: 0.52, elapsedMedianMs: 0.22, cpuUsPerRequest: 20 },
      }],
      access: { ratio: 0.68, elapsedMedianMs: 0.13 },
      bare: { cpuUsPerRequest: 11.5 },
      pointReadUs: 2,
    };
    const line = (h: typeof withFloor) => httpChecks(h).map(describeCheck).find((l) => l.includes('elapsed_ms'));
    // 30 µs left over 220 / 20 = 11 answers' waiting: 2.7 µs per answer, room for the 2 µs point read; the answer spends 18.5 over its floor.
    expect(line(withFloor)).toBe('  elapsed_ms median, business key: 0.420 ms (target ≤ 0.25 ms with Redis quotas; ' +
      "floor 0.220 ms = access layer + this answer's bytes (access layer alone 0.130 ms)): FAIL — in reach: the floor leaves 2.7 µs per answer; " +
      "this answer spends 18.5 over its floor's 20.0");
    const tighter = { ...withFloor, weather: [{ ...withFloor.weather[0]!, floor: { ratio: 0.52, elapsedMedianMs: 0.24, cpuUsPerRequest: 20 } }] };
    // 10 µs over 12 answers: 0.8 µs.
    expect(line(tighter)).toContain("unreachable on this machine: the floor leaves 0.8 µs per answer (10.0 µs over 12.0 answers' waiting), less than the point read's 2.0 µs");
  });

  const measured = {
    redis: true,
    weather: [
      { plan: 'business' as const, ratio: 0.22, p99Ms: 10, elapsedMedianMs: 1.0, widgetRatio: 0.9, floor: { ratio: 0.4, cpuUsPerRequest: 65 }, cpuUsPerRequest: 118 },
      {
        plan: 'free' as const, ratio: 0.31, p99Ms: 8, elapsedMedianMs: 0.5, widgetRatio: 0.74, floor: { ratio: 0.47 }, widgetFloor: { ratio: 0.25, overWeather: 0.82 }, cpuUsPerRequest: 84,
      },
    ],
    access: { ratio: 0.6, elapsedMedianMs: 0.39 },
    bare: { cpuUsPerRequest: 26 },
    pointReadUs: 4.65,
  };
  const lines = () => [...httpChecks(measured), ...randomChecks({ plan: 'business', ratio: 0.26, p99Ms: 15 }, measured)].map(describeCheck);

  it('prints each floor beside its figure, and the verdict after PASS or FAIL', () => {
    expect(lines()).toEqual([
      '  access layer alone / bare: 0.60 (target ≥ 0.6): PASS',
      // 26 × (1/0.3 − 1/0.4) = 21.7 µs ≥ 4.65: within reach, and how far: 118 − 65 µs over the floor.
      '  weather.php / bare, business key: 0.22 (target ≥ 0.3; floor 0.40 = access layer + this answer\'s bytes; access layer alone 0.60): FAIL' +
        " — in reach: the floor leaves 21.7 µs per request (bare 26.0 µs × (1/0.3 − 1/0.40)); this answer spends 53.0 over its floor's 65.0",
      '  weather.php / bare, free key: 0.31 (target ≥ 0.45; floor 0.47 = access layer + this answer\'s bytes; access layer alone 0.60): FAIL' +
        " — unreachable on this machine: the floor leaves 2.5 µs per request (bare 26.0 µs × (1/0.45 − 1/0.47)), less than the point read's 4.7 µs",
      // Read against weather.php Free's 84 µs: 84 × (1/0.8 − 1/0.82) = 2.56 µs < 4.65.
      "  widget.php / weather.php, free key: 0.74 (target ≥ 0.8; floor 0.82 = widget.php's answer behind the access layer (0.25 of bare) over weather.php): FAIL" +
        " — unreachable on this machine: the floor leaves 2.6 µs per request (weather.php 84.0 µs × (1/0.8 − 1/0.82)), less than the point read's 4.7 µs",
      '  elapsed_ms median, business key: 1.000 ms (target ≤ 0.25 ms with Redis quotas; floor = access layer alone 0.390 ms): FAIL' +
        ' — unreachable on this machine: the floor is above the target',
      // random points read against the Business answer's floor: 26 × (1/0.3 − 1/0.4) = 21.7 µs of room.
      "  random points / bare, business key: 0.26 (target ≥ 0.3; floor 0.40 = access layer + the business answer's bytes at a bench point; access layer alone 0.60): FAIL" +
        ' — in reach: the floor leaves 21.7 µs per request (bare 26.0 µs × (1/0.3 − 1/0.40))',
      '  random-points p99: 15.0 ms (target ≤ 2 × single-point p99 10.0 ms = 20.0 ms): PASS',
    ]);
  });

  it("reads widget.php's floor against weather.php's in the same rounds: below 0.8 it is out of reach, with room for the point read it is not", () => {
    const widget = (overWeather: number) => {
      const free = { ...measured.weather[1]!, widgetFloor: { ratio: 0.25, overWeather } };
      return httpChecks({ ...measured, weather: [free] }).find((c) => c.what.startsWith('widget'))!.unreachable;
    };
    expect(widget(0.79)).toBe('the floor is below the target');
    expect(widget(0.85)).toBeUndefined(); // 84 × (1/0.8 − 1/0.85) = 6.2 µs ≥ 4.65
  });

  it('counts the missed targets out of reach in the last line', () => {
    const checks = [...httpChecks(measured), ...randomChecks({ plan: 'business', ratio: 0.26, p99Ms: 15 }, measured)];
    expect(describeTargets(checks, true).at(-1)).toBe('  2 of 7 met; of the 5 missed, 3 out of reach on this machine (their floor)');
  });
});
