/**
 * The speed issue's targets, as `npm run bench` checks them: each measured
 * figure beside its target and PASS or FAIL. Sections add their checks to
 * the run's context (./section.ts) and the run prints them together at the
 * end. They are stated for weather.php with its keys and quotas in Redis
 * (BENCH_REDIS_URL), as replicas run it; without, the run says so. Only the
 * memory check (./random-points.ts) sets the exit code: these ratios move by
 * more than their margins from run to run on a shared machine, so they are
 * read over several runs (docs/benchmarks.md).
 *
 * Beside the ratio and elapsed_ms targets stands their ceiling: the same
 * figure for the bare route behind the access layer alone (./servers.ts), which
 * no weather.php with that access layer can pass.
 */
import type { Plan } from '../api/access/contract.js';

/** The bare route behind the access layer alone (key check, quota, rate-limit headers): requests/s over the bare route's. */
export const ACCESS_RATIO_TARGET = 0.6;
/** weather.php requests/s over the bare route's, per plan of the key (Free fields alone; all fields). */
export const RATIO_TARGET: Partial<Record<Plan, number>> = { business: 0.3, free: 0.45 };
/** widget.php requests/s over weather.php's, Free key (same server, points and key). */
export const WIDGET_RATIO_TARGET = 0.8;
/** `elapsed_ms` median of a Business response on a warm cache, ms: with keys and quotas in Redis, and embedded. */
export const ELAPSED_TARGET_MS = { redis: 0.25, embedded: 0.05 };
/** Random points across Italy at the default cache size: requests/s over the bare route's. */
export const RANDOM_RATIO_TARGET = 0.3;
/** …and their p99 latency at most this many times the single-point p99 (same key). */
export const RANDOM_P99_FACTOR = 2;
/** From the first request after a start or a publish (./cold-phase.ts): random points' p99, ms, and requests/s over the bare route's. */
export const COLD_PHASE_TARGET = { p99Ms: 20, ratio: 0.3 } as const;

/** One target: the figure, the bound, and whether it held. */
export interface Check {
  what: string;
  measured: string;
  target: string;
  /** The access layer's own figure, where it bounds this one. */
  ceiling?: string;
  pass: boolean;
}

/** The HTTP section's figures the targets read (./http.ts). */
export interface HttpFigures {
  /** Keys and quotas in Redis (the elapsed_ms target differs). */
  redis: boolean;
  /** Per key: weather.php / bare (the median round), p99 latency, elapsed_ms median, widget.php / weather.php. */
  weather: ReadonlyArray<{ plan: Plan; ratio: number; p99Ms: number; elapsedMedianMs: number; widgetRatio: number }>;
  /** The bare route behind the access layer alone: its ratio to the bare route and its elapsed_ms median. */
  access: { ratio: number; elapsedMedianMs: number };
}

export function httpChecks(m: HttpFigures): Check[] {
  const checks: Check[] = [{
    what: 'access layer alone / bare',
    measured: m.access.ratio.toFixed(2),
    target: `≥ ${ACCESS_RATIO_TARGET}`,
    pass: m.access.ratio >= ACCESS_RATIO_TARGET,
  }];
  for (const w of m.weather) {
    const target = RATIO_TARGET[w.plan];
    if (target === undefined) continue;
    checks.push({ what: `weather.php / bare, ${w.plan} key`, measured: w.ratio.toFixed(2), target: `≥ ${target}`, ceiling: m.access.ratio.toFixed(2), pass: w.ratio >= target });
  }
  const free = m.weather.find((w) => w.plan === 'free');
  if (free) {
    checks.push({ what: 'widget.php / weather.php, free key', measured: free.widgetRatio.toFixed(2), target: `≥ ${WIDGET_RATIO_TARGET}`, pass: free.widgetRatio >= WIDGET_RATIO_TARGET });
  }
  const business = m.weather.find((w) => w.plan === 'business');
  if (business) {
    const target = m.redis ? ELAPSED_TARGET_MS.redis : ELAPSED_TARGET_MS.embedded;
    checks.push({
      what: 'elapsed_ms median, business key',
      measured: `${business.elapsedMedianMs.toFixed(3)} ms`,
      target: `≤ ${target} ms ${m.redis ? 'with Redis quotas' : 'embedded'}`,
      ceiling: `${m.access.elapsedMedianMs.toFixed(3)} ms`,
      pass: business.elapsedMedianMs <= target,
    });
  }
  return checks;
}

/** Random points: their rate over the bare route's and p99, against the same key's single-point p99 (`weather`). */
export function randomChecks(random: { plan: Plan; ratio: number; p99Ms: number }, weather: HttpFigures['weather'], ceilingRatio?: number): Check[] {
  const checks: Check[] = [{
    what: `random points / bare, ${random.plan} key`,
    measured: random.ratio.toFixed(2),
    target: `≥ ${RANDOM_RATIO_TARGET}`,
    ...(ceilingRatio !== undefined ? { ceiling: ceilingRatio.toFixed(2) } : {}),
    pass: random.ratio >= RANDOM_RATIO_TARGET,
  }];
  const single = weather.find((w) => w.plan === random.plan);
  if (single) {
    const bound = RANDOM_P99_FACTOR * single.p99Ms;
    checks.push({
      what: 'random-points p99',
      measured: `${random.p99Ms.toFixed(1)} ms`,
      target: `≤ ${RANDOM_P99_FACTOR} × single-point p99 ${single.p99Ms.toFixed(1)} ms = ${bound.toFixed(1)} ms`,
      pass: random.p99Ms <= bound,
    });
  }
  return checks;
}

/** The lines `npm run bench` prints at the end. */
export function describeTargets(checks: readonly Check[], redis: boolean): string[] {
  const where = redis ? 'keys and quotas in Redis' : 'embedded keys and in-memory quotas: the targets are stated for Redis (set BENCH_REDIS_URL)';
  return [
    `targets of the speed issue (${where}):`,
    ...checks.map((c) => `  ${c.what}: ${c.measured} (target ${c.target}${c.ceiling ? `; access layer alone ${c.ceiling}` : ''}): ${c.pass ? 'PASS' : 'FAIL'}`),
    `  ${checks.filter((c) => c.pass).length} of ${checks.length} met`,
  ];
}
