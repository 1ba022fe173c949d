/**
 * The HTTP bench's rounds (./http.ts): the bare route and weather.php are
 * measured in alternating windows, and a server's windows are combined here
 * into one figure: requests/s and CPU per request over all its windows, the
 * latency quantiles of its median window.
 */
/** One measured window of load against a server. */
export interface LoadResult {
  rps: number;
  /** Server CPU time (user + system) per answered request over the measured window, µs. */
  cpuUsPerRequest?: number;
  /** Of which system time (kernel: socket writes and reads), µs. */
  sysUsPerRequest?: number;
  requests: number;
  errors: number;
  /** Requests answered in the warm-up before the measured window (measureWith). */
  warmupRequests?: number;
  /** The first non-200 answer (status line and body), for the error message. */
  firstError?: string;
  medianMs: number;
  p99Ms: number;
}

/** Alternating windows per server in one run. */
export const ROUNDS = 3;

export function median(xs: readonly number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
}

/** One server's windows as one result: totals over the windows, median latencies. */
export function combineRounds(rounds: readonly LoadResult[]): LoadResult {
  const requests = rounds.reduce((n, r) => n + r.requests, 0);
  const errors = rounds.reduce((n, r) => n + r.errors, 0);
  const answered = Math.max(1, requests + errors);
  // Each window's rps × its length is its request count; the windows are of equal length.
  const rps = rounds.reduce((n, r) => n + r.rps, 0) / Math.max(1, rounds.length);
  const weighted = (f: (r: LoadResult) => number | undefined) =>
    rounds.every((r) => f(r) !== undefined) ? rounds.reduce((n, r) => n + f(r)! * (r.requests + r.errors), 0) / answered : undefined;
  const cpu = weighted((r) => r.cpuUsPerRequest);
  const sys = weighted((r) => r.sysUsPerRequest);
  const firstError = rounds.find((r) => r.firstError !== undefined)?.firstError;
  return {
    rps,
    requests,
    errors,
    ...(cpu !== undefined ? { cpuUsPerRequest: cpu } : {}),
    ...(sys !== undefined ? { sysUsPerRequest: sys } : {}),
    warmupRequests: rounds.reduce((n, r) => n + (r.warmupRequests ?? 0), 0),
    ...(firstError !== undefined ? { firstError } : {}),
    medianMs: median(rounds.map((r) => r.medianMs)),
    p99Ms: median(rounds.map((r) => r.p99Ms)),
  };
}
