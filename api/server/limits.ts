/**
 * HTTP server limits for an API behind a load balancer (issue 16 item 6).
 * Read through a function taking env until config/ takes them over.
 *
 * - keepAliveTimeout 65 s: longer than common balancer idle timeouts (AWS ALB
 *   60 s), so the balancer, not the server, closes idle connections (no reset
 *   on a request sent as the server closes).
 * - headersTimeout 10 s, requestTimeout 30 s: a client trickling headers or a
 *   request is cut off instead of holding a socket for Node's 60 s / 300 s.
 * - maxConnections 2,000: sockets beyond are refused at once, so a slow-client
 *   flood cannot exhaust file descriptors (per-IP limits belong to the balancer).
 */
export interface ServerLimits {
  keepAliveTimeoutMs: number;
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: ServerLimits = {
  keepAliveTimeoutMs: 65_000,
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  maxConnections: 2_000,
};

function positiveInt(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n <= 0) throw new Error(`${name}: '${raw}' is not a positive integer`);
  return n;
}

/** Limits from METEOPUNTO_KEEPALIVE_TIMEOUT_MS, _HEADERS_TIMEOUT_MS, _REQUEST_TIMEOUT_MS, _MAX_CONNECTIONS. */
export function loadServerLimits(env: NodeJS.ProcessEnv): ServerLimits {
  const d = DEFAULT_SERVER_LIMITS;
  const limits = {
    keepAliveTimeoutMs: positiveInt(env, 'METEOPUNTO_KEEPALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs),
    headersTimeoutMs: positiveInt(env, 'METEOPUNTO_HEADERS_TIMEOUT_MS', d.headersTimeoutMs),
    requestTimeoutMs: positiveInt(env, 'METEOPUNTO_REQUEST_TIMEOUT_MS', d.requestTimeoutMs),
    maxConnections: positiveInt(env, 'METEOPUNTO_MAX_CONNECTIONS', d.maxConnections),
  };
  // Node requires headersTimeout ≤ requestTimeout.
  if (limits.headersTimeoutMs > limits.requestTimeoutMs) throw new Error('METEOPUNTO_HEADERS_TIMEOUT_MS must not exceed METEOPUNTO_REQUEST_TIMEOUT_MS');
  return limits;
}
