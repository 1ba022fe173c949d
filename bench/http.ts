/**
 * HTTP half of `npm run bench`: requests per second of weather.php against a
 * bare Fastify JSON route and against that route behind the access layer
 * alone (its ceiling), and of widget.php against weather.php (same server,
 * key and points). Each server runs in its own child process (./servers.ts);
 * the parent loads it over loopback with keep-alive connections, each running
 * requests back to back (autocannon-style closed loop on raw sockets), the
 * same query strings for all, first a warm-up, then a measured window.
 */
import type { ChildProcess } from 'node:child_process';
import { connect } from 'node:net';
import type { Plan } from '../api/access/contract.js';
import type { PointQuery } from '../api/weather/service.js';
import { combineRounds, median, ROUNDS, type LoadResult } from './rounds.js';
import { ACCESS_PATH, askChild, BARE_PATH, childCpuUs, withServer, type QuotaBatches, type ServerKind } from './servers.js';
import { RedisCpuMeter, type RedisCpu } from './redis-cpu.js';
import { floorAgainstBare, floorPath, withFloorServer, type FloorResult, type FloorSource } from './floor.js';
import { WIDGET_TARGET_PLAN } from './targets.js';

export interface HttpBenchOptions {
  dataDir: string;
  /** Measured seconds per server (after 1 s of warm-up). */
  seconds: number;
  connections: number;
  points: PointQuery[];
  /** API keys (bench/api-key.ts), sent in X-API-Key: weather.php is measured once per key, the bare route with the first. */
  keys: Array<{ plan: Plan; apiKey: string }>;
  /** The Redis of the keys and quotas (BENCH_REDIS_URL), whose CPU time per decision is measured; none with embedded quotas. */
  redisUrl?: string;
}

/** A server measured in rounds against the bare route: the ratio per round and the median round, the elapsed_ms its answers carried. */
export interface Rounds {
  ratios: number[];
  ratio: number;
  elapsedMedianMs: number;
}

/** The bare route behind the access layer alone (./servers.ts): the ceiling of weather.php's ratio and elapsed_ms. */
export type AccessResult = LoadResult & Rounds;

export type WeatherResult = LoadResult & Rounds & {
  plan: Plan;
  /** This key's answer at a bench point replayed behind the access layer (./floor.ts), in the same rounds. */
  floor: FloorResult;
  widget: LoadResult;
  /**
   * widget.php's answer replayed so, for the key of the widget target (WIDGET_TARGET_PLAN); `overWeather`: its
   * requests/s over weather.php's in the same round, median round (the floor of widgetRatio).
   */
  widgetFloor?: FloorResult & { overWeather: number };
  /** widget.php / weather.php, median round. */
  widgetRatio: number;
};

/** widget.php as the benchmark loads it: the default mode (js) and variant, a place name; the point and key as weather.php's. */
export const WIDGET_BENCH_QUERY = 'name=Firenze';
const WEATHER_PATH = '/api/v1/weather.php';
const WIDGET_PATH = '/api/v1/widget.php';

const WARMUP_MS = 1000;

function queryOf(p: PointQuery): string {
  return `lat=${p.lat.toFixed(4)}&lon=${p.lon.toFixed(4)}${p.altM !== undefined ? `&alt=${p.altM}` : ''}`;
}

/** When a load stops sending: after `ms`, or after `requests` requests (whichever comes first when both are given). */
export interface LoadWindow {
  ms?: number;
  requests?: number;
  /** Stop sending once this returns true (checked before each request). */
  until?: () => boolean;
}

/**
 * Closed-loop load over raw keep-alive sockets: each connection sends the next
 * request as soon as the previous answer is complete. Requests are
 * pre-encoded and answers are framed by Content-Length only (what Fastify
 * sends), so the client costs a fraction of what node:http would and the
 * server, not the load generator, is what gets measured (as autocannon does).
 */
export async function load(
  base: string, paths: string[], apiKey: string, connections: number, window: LoadWindow, onBody?: (body: string) => void,
): Promise<LoadResult> {
  const { hostname, port } = new URL(base);
  const reqs = paths.map((p) =>
    Buffer.from(`GET ${p} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nX-API-Key: ${apiKey}\r\nConnection: keep-alive\r\n\r\n`, 'latin1'));
  const lat: number[] = [];
  let errors = 0;
  let firstError: string | undefined;
  let next = 0;
  const end = performance.now() + (window.ms ?? Infinity);
  const maxRequests = window.requests ?? Infinity;
  const HEADER_END = Buffer.from('\r\n\r\n');
  const conn = () =>
    new Promise<void>((done) => {
      const sock = connect(Number(port), hostname);
      sock.setNoDelay(true);
      let buf: Buffer = Buffer.alloc(0);
      let sentAt = 0;
      const send = () => {
        if (next >= maxRequests || performance.now() >= end || window.until?.()) {
          sock.end();
          return;
        }
        sentAt = performance.now();
        sock.write(reqs[next++ % reqs.length]!);
      };
      sock.on('connect', send);
      sock.on('data', (chunk: Buffer) => {
        buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
        for (;;) {
          const h = buf.indexOf(HEADER_END);
          if (h < 0) return;
          const head = buf.toString('latin1', 0, h);
          const m = /\r\ncontent-length:\s*(\d+)/i.exec(head);
          const len = m ? Number(m[1]) : 0;
          if (buf.length < h + 4 + len) return;
          const status = Number(head.slice(9, 12));
          if (status === 200) {
            lat.push(performance.now() - sentAt);
            if (onBody && (lat.length & 63) === 0) onBody(buf.toString('utf8', h + 4, h + 4 + len));
          } else {
            errors++;
            firstError ??= `${head.slice(0, head.indexOf('\r\n'))}: ${buf.toString('utf8', h + 4, h + 4 + Math.min(len, 300))}`;
          }
          buf = buf.subarray(h + 4 + len);
          send();
        }
      });
      sock.on('error', () => {
        errors++;
        done();
      });
      sock.on('close', () => done());
    });
  const t0 = performance.now();
  await Promise.all(Array.from({ length: connections }, conn));
  const took = (performance.now() - t0) / 1000;
  lat.sort((a, b) => a - b);
  return {
    rps: lat.length / took,
    requests: lat.length,
    errors,
    ...(firstError !== undefined ? { firstError } : {}),
    medianMs: lat[Math.floor(lat.length / 2)] ?? NaN,
    p99Ms: lat[Math.floor(lat.length * 0.99)] ?? NaN,
  };
}

/** What else a measured window takes: its answers' bodies, the widget, a request count, the warm-up, another path. */
export interface MeasureExtra {
  /** Called with every 64th answer's body. */
  onBody?: (body: string) => void;
  /** widget.php instead of weather.php (a `weather` server). */
  widget?: boolean;
  /** Stop after this many requests instead of `opts.seconds`. */
  requests?: number;
  /** Warm-up before the window, ms (default 1 s; 0: none). */
  warmupMs?: number;
  /** The route loaded, instead of the kind's own (a `floor` server's replay route, ./floor.ts). */
  path?: string;
}

/** The route a server of `kind` is loaded at (weather.php, or widget.php with `widget`). */
function routeOf(kind: ServerKind, widget: boolean): string {
  return kind === 'bare' ? BARE_PATH : kind === 'access' ? ACCESS_PATH : widget ? WIDGET_PATH : WEATHER_PATH;
}

/** The request paths a server is loaded with: its route at every bench point (widget.php with its own query). */
export function pathsOf(route: string, points: readonly PointQuery[], widget = false): string[] {
  return points.map((p) => `${route}?${queryOf(p)}${widget ? `&${WIDGET_BENCH_QUERY}` : ''}`);
}

/**
 * Load one server with one key: warm-up, then the measured window (`opts.seconds`,
 * or `extra.requests` requests when given) with the server's CPU time around it.
 */
export async function measureWith(
  kind: ServerKind, child: ChildProcess, base: string, opts: HttpBenchOptions, apiKey: string, extra: MeasureExtra = {},
): Promise<LoadResult> {
  const widget = extra.widget ?? false;
  const paths = pathsOf(extra.path ?? routeOf(kind, widget), opts.points, widget);
  const warmupMs = extra.warmupMs ?? WARMUP_MS;
  const warm = warmupMs > 0 ? await load(base, paths, apiKey, opts.connections, { ms: warmupMs }) : { requests: 0, errors: 0 };
  const cpu0 = await childCpuUs(child);
  const r = await load(base, paths, apiKey, opts.connections, extra.requests !== undefined ? { requests: extra.requests } : { ms: opts.seconds * 1000 }, extra.onBody);
  const cpu1 = await childCpuUs(child);
  const answered = Math.max(1, r.requests + r.errors);
  r.cpuUsPerRequest = (cpu1.user + cpu1.system - cpu0.user - cpu0.system) / answered;
  r.sysUsPerRequest = (cpu1.system - cpu0.system) / answered;
  r.warmupRequests = warm.requests + warm.errors;
  // Error answers are cheap: a run that measured mostly errors measured nothing.
  if (r.errors > r.requests / 100) throw new Error(`bench ${kind}: ${r.errors} non-200 answers (${r.requests} OK); first: ${r.firstError}`);
  if (r.errors > 0) console.log(`  (${kind}: ${r.errors} non-200 answers; first: ${r.firstError})`);
  return r;
}

/** The elapsed_ms of every 64th answer, into `into`. */
export function elapsedInto(into: number[]): (body: string) => void {
  return (body) => {
    const e = (JSON.parse(body) as { elapsed_ms?: number }).elapsed_ms;
    if (typeof e === 'number') into.push(e);
  };
}

/** One server's rounds against the bare route's. */
function againstBare(rounds: LoadResult[], bare: LoadResult[], elapsed: number[]): LoadResult & Rounds {
  const ratios = rounds.map((w, r) => w.rps / bare[r]!.rps);
  return { ...combineRounds(rounds), ratios, ratio: median(ratios), elapsedMedianMs: median(elapsed) };
}

/**
 * The bare route, the access ceiling and weather.php (then widget.php, per
 * key) measured in alternating windows, {@link ROUNDS} rounds of
 * `opts.seconds / ROUNDS` s each, all servers up throughout: a burst of load
 * from elsewhere on a shared machine then hits both sides of a ratio, which
 * is taken per round; the median round is reported (./rounds.ts). Right
 * after each weather.php window, its floor (./floor.ts: the same answer's
 * bytes behind the access layer alone), and after the widget.php window of
 * the widget target's key, the widget's.
 */
export interface HttpBenchResult {
  bare: LoadResult;
  access: AccessResult;
  weather: WeatherResult[];
  /** The quota batches the access-alone and the weather.php server sent over the whole run (warm-ups included). */
  quotaBatches: { access: QuotaBatches; weather: QuotaBatches };
  /** Redis's CPU time over the measured windows of the access-alone and the weather.php server (./redis-cpu.ts); null without Redis. */
  redisCpu: { access: RedisCpu; weather: RedisCpu } | null;
}

export async function runHttpBench(opts: HttpBenchOptions): Promise<HttpBenchResult> {
  if (opts.keys.length === 0) throw new Error('runHttpBench: no API key');
  const win = { ...opts, seconds: opts.seconds / ROUNDS };
  const firstKey = opts.keys[0]!.apiKey;
  // The answers the floors replay: each key's at the first bench point, captured from the weather server.
  const at = opts.points.slice(0, 1);
  const sources = (base: string): FloorSource[] => opts.keys.flatMap(({ plan, apiKey }) => [
    { path: floorPath(plan), endpoint: 'weather' as const, from: base, capturePath: pathsOf(WEATHER_PATH, at)[0]!, apiKey },
    ...(plan === WIDGET_TARGET_PLAN ? [{ path: floorPath(plan, true), endpoint: 'widget' as const, from: base, capturePath: pathsOf(WIDGET_PATH, at, true)[0]!, apiKey }] : []),
  ]);
  return withServer('bare', opts.dataDir, [], (bareChild, bareBase) =>
    withServer('access', opts.dataDir, [], (accessChild, accessBase) =>
      withServer('weather', opts.dataDir, opts.points, (child, base) => withFloorServer(opts.dataDir, sources(base), async (floor, routes) => {
        const bare: LoadResult[] = [];
        const access = { rounds: [] as LoadResult[], elapsed: [] as number[] };
        const per = opts.keys.map(() => ({
          weather: [] as LoadResult[], widget: [] as LoadResult[], elapsed: [] as number[], floor: [] as LoadResult[], floorElapsed: [] as number[], widgetFloor: [] as LoadResult[],
        }));
        const meter = opts.redisUrl ? new RedisCpuMeter(opts.redisUrl) : null;
        const redisCpu = meter ? { access: { us: 0, decisions: 0 }, weather: { us: 0, decisions: 0 } } : null;
        const metered = <R extends LoadResult>(into: RedisCpu | undefined, window: () => Promise<R>) => (meter && into ? meter.around(into, window) : window());
        try {
          for (let round = 0; round < ROUNDS; round++) {
            const warmupMs = round === 0 ? WARMUP_MS : 0;
            bare.push(await measureWith('bare', bareChild, bareBase, win, firstKey, { warmupMs }));
            access.rounds.push(await metered(redisCpu?.access, () =>
              measureWith('access', accessChild, accessBase, win, firstKey, { onBody: elapsedInto(access.elapsed), warmupMs })));
            for (const [k, { plan, apiKey }] of opts.keys.entries()) {
              const acc = per[k]!;
              acc.weather.push(await metered(redisCpu?.weather, () =>
                measureWith('weather', child, base, win, apiKey, { onBody: elapsedInto(acc.elapsed), warmupMs })));
              acc.floor.push(await measureWith('floor', floor.child, floor.base, win, apiKey, { path: floorPath(plan), onBody: elapsedInto(acc.floorElapsed), warmupMs }));
              // widget.php on the same server, same key and points, right after: the box of the base fields, rendered.
              acc.widget.push(await metered(redisCpu?.weather, () => measureWith('weather', child, base, win, apiKey, { widget: true, warmupMs })));
              if (plan === WIDGET_TARGET_PLAN) {
                acc.widgetFloor.push(await measureWith('floor', floor.child, floor.base, win, apiKey, { path: floorPath(plan, true), widget: true, warmupMs }));
              }
            }
          }
        } finally {
          meter?.close();
        }
        const route = (path: string) => routes.find((r) => r.path === path)!;
        const weather = opts.keys.map(({ plan }, k): WeatherResult => {
          const acc = per[k]!;
          return {
            ...againstBare(acc.weather, bare, acc.elapsed),
            plan,
            floor: floorAgainstBare(acc.floor, bare, route(floorPath(plan)), acc.floorElapsed),
            widget: combineRounds(acc.widget),
            widgetRatio: median(acc.widget.map((w, r) => w.rps / acc.weather[r]!.rps)),
            ...(acc.widgetFloor.length > 0 ? {
              widgetFloor: {
                ...floorAgainstBare(acc.widgetFloor, bare, route(floorPath(plan, true))),
                overWeather: median(acc.widgetFloor.map((w, r) => w.rps / acc.weather[r]!.rps)),
              },
            } : {}),
          };
        });
        const batches = (c: ChildProcess) => askChild<{ batches: QuotaBatches }>(c, 'quota').then((q) => q.batches);
        const quotaBatches = { access: await batches(accessChild), weather: await batches(child) };
        return { bare: combineRounds(bare), access: againstBare(access.rounds, bare, access.elapsed), weather, quotaBatches, redisCpu };
      })),
    ),
  );
}
