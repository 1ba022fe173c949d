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
 * no weather.php with that access layer can pass; and their floor: the figure
 * of the very answer's bytes behind that access layer (./floor.ts). A missed
 * target whose floor is below it, or leaves less room than the point read
 * alone takes (the `tile point lookup` section's warm median), is out of reach
 * on that machine: the line says so (docs/benchmarks.md, "The floor").
 */
import type { Plan } from '../api/access/contract.js';

/** The bare route behind the access layer alone (key check, quota, rate-limit headers): requests/s over the bare route's. */
export const ACCESS_RATIO_TARGET = 0.6;
/** weather.php requests/s over the bare route's, per plan of the key (Free fields alone; all fields). */
export const RATIO_TARGET: Partial<Record<Plan, number>> = { business: 0.3, free: 0.45 };
/** widget.php requests/s over weather.php's, Free key (same server, points and key). */
export const WIDGET_RATIO_TARGET = 0.8;
/** The plan of the key the widget target is read with. */
export const WIDGET_TARGET_PLAN: Plan = 'free';
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
  /** What the answer costs with nothing computed (./floor.ts), and what that figure is. */
  floor?: string;
  /** The access layer's own figure, where it bounds this one. */
  ceiling?: string;
  pass: boolean;
  /** Why a missed target cannot be met on this machine (its floor), when it cannot. */
  unreachable?: string;
  /** For a missed target within reach: the CPU per request its floor leaves, and what the answer spends over its floor. */
  inReach?: string;
}

/** What a floor verdict reads besides the floor: the bare route's CPU per request and the point read of the same run, µs. */
export interface FloorBasis {
  bareUs?: number;
  pointReadUs?: number;
}

/**
 * Why a ratio target (requests/s ≥ `target` × the bare route's) is out of
 * reach when an answer with nothing computed reads `floor`: the floor is
 * below it; or the CPU the target allows per request over the floor's,
 * bare µs × (1/target − 1/floor) (a server's requests/s go as 1 / its CPU per
 * request when it is the bottleneck), is less than the point read alone.
 * Undefined when the floor leaves room. `denominator`: what the ratio is
 * taken to, whose CPU per request `basis.bareUs` is.
 */
export function ratioUnreachable(target: number, floor: number, basis: FloorBasis, denominator = 'bare'): string | undefined {
  if (floor < target) return 'the floor is below the target';
  if (basis.bareUs === undefined || basis.pointReadUs === undefined) return undefined;
  if (ratioRoomUs(target, floor, basis.bareUs) >= basis.pointReadUs) return undefined;
  return `${ratioRoom(target, floor, basis.bareUs, denominator)}, less than the point read's ${basis.pointReadUs.toFixed(1)} µs`;
}

/** The CPU per request a ratio target allows over its floor's, µs. */
function ratioRoomUs(target: number, floor: number, bareUs: number): number {
  return bareUs * (1 / target - 1 / floor);
}

/** The same, as the verdicts print it. */
function ratioRoom(target: number, floor: number, bareUs: number, denominator: string): string {
  const roomUs = ratioRoomUs(target, floor, bareUs);
  return `the floor leaves ${roomUs.toFixed(1)} µs per request (${denominator} ${bareUs.toFixed(1)} µs × (1/${target} − 1/${floor.toFixed(2)}))`;
}

/** What an answer spends over its floor, µs per request, as the verdicts print it ('' when either is unmeasured). */
function spends(ownUs: number | undefined, floorUs: number | undefined): string {
  return ownUs !== undefined && floorUs !== undefined ? `; this answer spends ${(ownUs - floorUs).toFixed(1)} over its floor's ${floorUs.toFixed(1)}` : '';
}

/** The CPU per answer a time target allows over its floor, µs: the time left over the answers a request waits for. */
function timeRoomUs(targetMs: number, floorMs: number, waits: number): number {
  return ((targetMs - floorMs) * 1000) / waits;
}

/**
 * The same for a time target (`elapsed_ms` ≤ `targetMs`): the floor above it, or leaving less than the point read.
 * `waits`: at the bench's load a request's `elapsed_ms` is mostly the answers computed before it, so each µs an answer
 * costs adds about `waits` µs to it (the floor's `elapsed_ms` over its CPU per request); the room per answer is the
 * time left divided by it.
 */
export function timeUnreachable(targetMs: number, floorMs: number, basis: FloorBasis, waits = 1): string | undefined {
  if (floorMs > targetMs) return 'the floor is above the target';
  if (basis.pointReadUs === undefined) return undefined;
  const roomUs = timeRoomUs(targetMs, floorMs, waits);
  if (roomUs >= basis.pointReadUs) return undefined;
  const how = waits > 1 ? ` per answer (${((targetMs - floorMs) * 1000).toFixed(1)} µs over ${waits.toFixed(1)} answers' waiting)` : '';
  return `the floor leaves ${roomUs.toFixed(1)} µs${how}, less than the point read's ${basis.pointReadUs.toFixed(1)} µs`;
}

/**
 * A ratio check with its floor: the floor's figure, and on a miss whether the floor puts it out of reach or how
 * far it is (the room the floor leaves; with `ownUs` and the floor's `cpuUs`, the answer's CPU over its floor's).
 */
export function ratioCheck(
  what: string, ratio: number, target: number, floor: { ratio: number; of: string; cpuUs?: number } | undefined, basis: FloorBasis,
  shown: { ceiling?: number; digits?: number; ownUs?: number } = {},
): Check {
  const pass = ratio >= target;
  const unreachable = !pass && floor ? ratioUnreachable(target, floor.ratio, basis) : undefined;
  const inReach = !pass && floor && !unreachable && basis.bareUs !== undefined
    ? `${ratioRoom(target, floor.ratio, basis.bareUs, 'bare')}${spends(shown.ownUs, floor.cpuUs)}` : undefined;
  const digits = shown.digits ?? 2;
  return {
    what,
    measured: ratio.toFixed(digits),
    target: `≥ ${target}`,
    ...(floor ? { floor: `${floor.ratio.toFixed(digits)} = access layer + ${floor.of}` } : {}),
    ...(shown.ceiling !== undefined ? { ceiling: shown.ceiling.toFixed(2) } : {}),
    pass,
    ...(unreachable ? { unreachable } : {}),
    ...(inReach ? { inReach } : {}),
  };
}

/** The HTTP section's figures the targets read (./http.ts). */
export interface HttpFigures {
  /** Keys and quotas in Redis (the elapsed_ms target differs). */
  redis: boolean;
  /**
   * Per key: weather.php / bare (the median round), p99 latency, elapsed_ms median, widget.php / weather.php;
   * the floors' ratios to the bare route (./floor.ts): this key's answer, and widget.php's.
   */
  weather: ReadonlyArray<{
    plan: Plan; ratio: number; p99Ms: number; elapsedMedianMs: number; widgetRatio: number;
    /** This answer's floor: its ratio, and where measured its `elapsed_ms` median and CPU per request (µs). */
    floor?: { ratio: number; elapsedMedianMs?: number; cpuUsPerRequest?: number };
    /** widget.php's floor over the bare route, and over weather.php in the same rounds; weather.php's CPU per request (µs). */
    widgetFloor?: { ratio: number; overWeather: number };
    cpuUsPerRequest?: number;
  }>;
  /** The bare route behind the access layer alone: its ratio to the bare route and its elapsed_ms median. */
  access: { ratio: number; elapsedMedianMs: number };
  /** The bare route's server CPU per request (µs), for the floors' verdicts. */
  bare?: { cpuUsPerRequest?: number };
  /** The warm point read of the same run (`tile point lookup`), µs. */
  pointReadUs?: number;
}

/** What a floor's verdict reads from the HTTP figures. */
export function basisOf(m: HttpFigures): FloorBasis {
  return {
    ...(m.bare?.cpuUsPerRequest !== undefined ? { bareUs: m.bare.cpuUsPerRequest } : {}),
    ...(m.pointReadUs !== undefined ? { pointReadUs: m.pointReadUs } : {}),
  };
}

const THIS_ANSWER = "this answer's bytes";

export function httpChecks(m: HttpFigures): Check[] {
  const basis = basisOf(m);
  const checks: Check[] = [{
    what: 'access layer alone / bare',
    measured: m.access.ratio.toFixed(2),
    target: `≥ ${ACCESS_RATIO_TARGET}`,
    pass: m.access.ratio >= ACCESS_RATIO_TARGET,
  }];
  for (const w of m.weather) {
    const target = RATIO_TARGET[w.plan];
    if (target === undefined) continue;
    const floor = w.floor ? { ratio: w.floor.ratio, of: THIS_ANSWER, ...cpuOf(w.floor) } : undefined;
    checks.push(ratioCheck(`weather.php / bare, ${w.plan} key`, w.ratio, target, floor, basis, { ceiling: m.access.ratio, ...ownOf(w) }));
  }
  const free = m.weather.find((w) => w.plan === WIDGET_TARGET_PLAN);
  if (free) checks.push(widgetCheck(free, basis));
  const business = m.weather.find((w) => w.plan === 'business');
  if (business) {
    const target = m.redis ? ELAPSED_TARGET_MS.redis : ELAPSED_TARGET_MS.embedded;
    const pass = business.elapsedMedianMs <= target;
    const floor = elapsedFloor(business.floor, m.access.elapsedMedianMs);
    const unreachable = pass ? undefined : timeUnreachable(target, floor.ms, basis, floor.waits);
    const room = timeRoomUs(target, floor.ms, floor.waits);
    const inReach = pass || unreachable ? undefined
      : `the floor leaves ${room.toFixed(1)} µs per answer${spends(business.cpuUsPerRequest, business.floor?.cpuUsPerRequest)}`;
    checks.push({
      what: 'elapsed_ms median, business key',
      measured: `${business.elapsedMedianMs.toFixed(3)} ms`,
      target: `≤ ${target} ms ${m.redis ? 'with Redis quotas' : 'embedded'}`,
      floor: floor.text,
      pass,
      ...(unreachable ? { unreachable } : {}),
      ...(inReach ? { inReach } : {}),
    });
  }
  return checks;
}

/** A floor's CPU per request as ratioCheck's `floor.cpuUs`, where measured. */
export const cpuOf = (f: { cpuUsPerRequest?: number }) => (f.cpuUsPerRequest !== undefined ? { cpuUs: f.cpuUsPerRequest } : {});
/** An answer's CPU per request as ratioCheck's `shown.ownUs`, where measured. */
export const ownOf = (w: { cpuUsPerRequest?: number }) => (w.cpuUsPerRequest !== undefined ? { ownUs: w.cpuUsPerRequest } : {});

/**
 * `elapsed_ms`'s floor: the Business answer's bytes behind the access layer, its own `elapsed_ms` (./replay.ts): at
 * the bench's load a request waits for the answers ahead of it, which cost at least their bytes. Without it (a
 * run from before the replay wrote one), the access layer alone's. `waits`: the floor's `elapsed_ms` over its CPU
 * per request, the answers' worth of CPU a request waits (timeUnreachable).
 */
function elapsedFloor(floor: HttpFigures['weather'][number]['floor'], accessMs: number): { ms: number; text: string; waits: number } {
  const ms = floor?.elapsedMedianMs;
  if (ms === undefined) return { ms: accessMs, text: `= access layer alone ${accessMs.toFixed(3)} ms`, waits: 1 };
  const cpu = floor?.cpuUsPerRequest;
  const waits = cpu !== undefined && cpu > 0 ? Math.max(1, (ms * 1000) / cpu) : 1;
  return { ms, text: `${ms.toFixed(3)} ms = access layer + this answer's bytes (access layer alone ${accessMs.toFixed(3)} ms)`, waits };
}

/**
 * widget.php / weather.php: its floor is widget.php's answer behind the access
 * layer over weather.php in the same rounds, the most widget.php / weather.php
 * could read if widget.php computed nothing; weather.php's CPU per request is
 * the denominator its verdict reads (as the bare route's is for the others).
 */
function widgetCheck(w: HttpFigures['weather'][number], basis: FloorBasis): Check {
  const pass = w.widgetRatio >= WIDGET_RATIO_TARGET;
  const f = w.widgetFloor;
  const over: FloorBasis = { ...(w.cpuUsPerRequest !== undefined ? { bareUs: w.cpuUsPerRequest } : {}), ...(basis.pointReadUs !== undefined ? { pointReadUs: basis.pointReadUs } : {}) };
  const unreachable = !pass && f ? ratioUnreachable(WIDGET_RATIO_TARGET, f.overWeather, over, 'weather.php') : undefined;
  return {
    what: `widget.php / weather.php, ${w.plan} key`,
    measured: w.widgetRatio.toFixed(2),
    target: `≥ ${WIDGET_RATIO_TARGET}`,
    ...(f ? { floor: `${f.overWeather.toFixed(2)} = widget.php's answer behind the access layer (${f.ratio.toFixed(2)} of bare) over weather.php` } : {}),
    pass,
    ...(unreachable ? { unreachable } : {}),
  };
}

/** Random points: their rate over the bare route's (floor: the same plan's answer at a bench point) and p99, against the same key's single-point p99. */
export function randomChecks(random: { plan: Plan; ratio: number; p99Ms: number }, m: HttpFigures): Check[] {
  const single = m.weather.find((w) => w.plan === random.plan);
  const floor = single?.floor ? { ratio: single.floor.ratio, of: `the ${random.plan} answer's bytes at a bench point` } : undefined;
  const checks = [ratioCheck(`random points / bare, ${random.plan} key`, random.ratio, RANDOM_RATIO_TARGET, floor, basisOf(m), { ceiling: m.access.ratio })];
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

/** One target's line: figure, target, floor, ceiling, verdict, and why a miss is out of reach here. */
export function describeCheck(c: Check): string {
  const beside = `${c.floor ? `; floor ${c.floor}` : ''}${c.ceiling ? `; access layer alone ${c.ceiling}` : ''}`;
  const why = c.unreachable ? ` — unreachable on this machine: ${c.unreachable}` : c.inReach ? ` — in reach: ${c.inReach}` : '';
  return `  ${c.what}: ${c.measured} (target ${c.target}${beside}): ${c.pass ? 'PASS' : 'FAIL'}${why}`;
}

/** The lines `npm run bench` prints at the end. */
export function describeTargets(checks: readonly Check[], redis: boolean): string[] {
  const where = redis ? 'keys and quotas in Redis' : 'embedded keys and in-memory quotas: the targets are stated for Redis (set BENCH_REDIS_URL)';
  const met = checks.filter((c) => c.pass).length;
  const out = checks.filter((c) => c.unreachable !== undefined).length;
  return [
    `targets of the speed issue (${where}):`,
    ...checks.map(describeCheck),
    `  ${met} of ${checks.length} met${out > 0 ? `; of the ${checks.length - met} missed, ${out} out of reach on this machine (their floor)` : ''}`,
  ];
}
