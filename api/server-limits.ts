/**
 * Connection limits of the HTTP server, for an API behind a load balancer:
 * a client gets `headersTimeoutMs` to send its request line and headers
 * (slow-header clients are cut off instead of holding a socket for Node's
 * 60 s), `requestTimeoutMs` for the whole request, idle keep-alive
 * connections live `keepAliveTimeoutMs` — longer than the 60 s idle timeout
 * of the usual balancers (AWS ALB, nginx), so the balancer, not the server,
 * closes idle connections and never reuses one the server just closed — and
 * at most `maxConnections` sockets are open at once (more are closed at
 * accept). Settings: docs/configuration.md.
 */
import { ConfigError, integerSetting, setting, type Environment } from '../config/environment.js';
import { processEnv } from '../config/process-env.js';

export interface ServerLimits {
  headersTimeoutMs: number;
  requestTimeoutMs: number;
  keepAliveTimeoutMs: number;
  maxConnections: number;
}

export const DEFAULT_SERVER_LIMITS: Readonly<ServerLimits> = Object.freeze({
  headersTimeoutMs: 10_000,
  requestTimeoutMs: 30_000,
  keepAliveTimeoutMs: 65_000,
  maxConnections: 10_000,
});

export function serverLimits(env: Environment = processEnv()): ServerLimits {
  const d = DEFAULT_SERVER_LIMITS;
  return {
    headersTimeoutMs: integerSetting(env, 'METEOPUNTO_HEADERS_TIMEOUT_MS', d.headersTimeoutMs),
    requestTimeoutMs: integerSetting(env, 'METEOPUNTO_REQUEST_TIMEOUT_MS', d.requestTimeoutMs),
    keepAliveTimeoutMs: integerSetting(env, 'METEOPUNTO_KEEP_ALIVE_TIMEOUT_MS', d.keepAliveTimeoutMs),
    maxConnections: integerSetting(env, 'METEOPUNTO_MAX_CONNECTIONS', d.maxConnections),
  };
}

/**
 * Fastify's `trustProxy` from METEOPUNTO_TRUST_PROXY: behind a load balancer
 * the client's address (for the per-IP flood guard) is in X-Forwarded-For,
 * believed only from the proxies named here.
 */
export function trustProxy(env: Environment = processEnv()): boolean | string[] {
  const raw = setting(env, 'METEOPUNTO_TRUST_PROXY')?.trim();
  if (raw === undefined || raw === 'false') return false;
  if (raw === 'true') return true;
  const list = raw.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = list.find((a) => !/^[0-9a-fA-F.:]+(\/\d{1,3})?$/.test(a));
  if (bad !== undefined) throw new ConfigError(`METEOPUNTO_TRUST_PROXY='${raw}': '${bad}' is not an address or CIDR (expected true, or addresses/CIDRs separated by commas)`);
  return list;
}
