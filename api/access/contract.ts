/**
 * The contract between the access layer (keys, plans, quotas: api/access/)
 * and the routes. Routes declare `config.endpoint`; the access plugin
 * authenticates in onRequest and sets `request.access`; a route calls
 * `fastify.consumeQuota(request, reply)` once it has validated the request and
 * checked the plan, right before computing the answer, so that refused
 * requests (400/401/403) consume nothing.
 */
import type { FastifyReply } from 'fastify';
import type { ApiFailure } from '../plugins/errors.js';

/** Counts of access-layer store failures (each a 503 SERVICE_UNAVAILABLE). */
export interface AccessErrors {
  keyStore: number;
  quotaStore: number;
}

export const PLANS = ['free', 'developer', 'business'] as const;
export type Plan = (typeof PLANS)[number];

export type KeyKind = 'api' | 'widget';

/** Which endpoint a route is, for key-kind checks and quota accounting. */
export type Endpoint = 'weather' | 'widget';

export interface AccessContext {
  /** Stable id of the key record (not the key). */
  keyId: string;
  /** The key's public prefix, shown by `keys list`. */
  prefix: string;
  plan: Plan;
  kind: KeyKind;
  name?: string;
  /** Widget keys: the origins allowed to embed the widget (widget.php names them in CSP frame-ancestors); absent: any. */
  origins?: readonly string[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set by the access plugin on routes with `config.endpoint`; null elsewhere. */
    access: AccessContext | null;
  }
  interface FastifyContextConfig {
    endpoint?: Endpoint;
  }
  interface FastifyInstance {
    /** Requests refused with 503 because the key store or the quota store did not answer, since start (for /metrics). */
    accessErrors: AccessErrors;
    /** Consume one request of the key's quota; throws ApiError 429 (with Retry-After) when exhausted. Sets rate-limit headers. */
    consumeQuota(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * How a refusal leaves (called by the error handlers): a 429 instead while
     * the flood guard blocks the request's key or address (api/access/plugin.ts).
     */
    refusalGate(request: FastifyRequest, failure: ApiFailure): Promise<ApiFailure>;
  }
}
