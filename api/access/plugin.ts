/**
 * The access plugin (contract.ts): on routes with `config.endpoint` it
 * authenticates in onRequest and sets `request.access`; it decorates
 * `fastify.consumeQuota(request, reply)`, which routes call after validation
 * and plan checks; in onSend it sets the rate-limit headers on every response
 * after authentication, gives back the request of a response that failed
 * after consuming, and counts refused requests for the flood guard.
 *
 * The flood guard (flood-guard.ts) is asked once per request, never in a
 * round trip of its own for a served one: a request that reaches the quota
 * learns in the quota's round trip (quota-script.ts) whether its key is
 * blocked; a request refused before that (401, 400, 403) is asked by the
 * refusal gate (`fastify.refusalGate`, called by the error handlers) on its
 * way out, and answered 429 instead while the key or address is blocked.
 *
 * Rate-limit headers report the window closest to exhaustion (quota.ts,
 * bindingWindow): X-RateLimit-Limit (requests in that window),
 * X-RateLimit-Remaining, X-RateLimit-Reset (seconds until it resets).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';
import type { Endpoint } from './contract.js';
import { KEY_PARAM, knownKey, originAllowed, presentedKey, requestOrigin, verifyKey } from './authenticate.js';
import { generateKey, hashMatches, prefixOf } from './key-format.js';
import { KeyStoreUnavailableError, type KeyRecord } from './key-store.js';
import { PLAN_LABEL } from './plans.js';
import { bindingWindow, type QuotaDecision, type QuotaSnapshot, type QuotaTicket } from './quota.js';
import { createAccessServices, type AccessServices, type AccessServicesOptions } from './services.js';
import type { AccessContext, AccessErrors, Plan } from './contract.js';
import { toApiFailure, type ApiFailure } from '../plugins/errors.js';

export interface AccessPluginOptions extends AccessServicesOptions {
  /** Prebuilt services (the caller closes them); otherwise built from `env` and closed with the app. */
  services?: AccessServices;
}

/** Per-request state of keyed routes (the request's `accessState`; null on other routes). */
interface AccessState {
  endpoint: Endpoint;
  /** Whom refusals count against: `key:<prefix>` once a key is admitted, else (null) `ip:<address>` (floodIdOf). */
  floodId: string | null;
  /** The flood guard was asked for this request (at most once). */
  floodChecked: boolean;
  ticket: QuotaTicket | null;
  snapshot: QuotaSnapshot | null;
}

/** The start warm-up's key (`fastify.warmUpKey`). */
export interface WarmUpKey {
  /** The key, sent as X-API-Key. */
  key: string;
  /** Requests its plan's minute quota lets it make. */
  perMinute: number;
  /** No longer admitted from now. */
  end(): void;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The access plugin's state of a request to a keyed route; null elsewhere. */
    accessState: AccessState | null;
  }
  interface FastifyInstance {
    /**
     * A new random key of `plan` for a starting server's own requests to itself (api/weather/start-warm.ts), so
     * that the key check, the quota call and the keyed routes are compiled before the first client: in this
     * process's memory only (no store holds it), admitted until `end()` or the next call. Its requests are
     * checked and counted as any key's (its quota counters under its random prefix expire as any key's).
     */
    warmUpKey(plan: Plan): WarmUpKey;
  }
}

const UNAVAILABLE_RETRY_S = 5;

const accessPlugin: FastifyPluginAsync<AccessPluginOptions> = async (fastify, opts) => {
  const services = opts.services ?? (await createAccessServices({ env: opts.env, config: opts.config, log: opts.log ?? fastify.log, cacheKeys: true }));
  if (!opts.services) fastify.addHook('onClose', async () => services.close());
  fastify.log.info(services.startupMessage);
  for (const notice of services.notices) fastify.log.warn(notice);
  const { keys, quota, flood } = services;

  fastify.decorateRequest('accessState', null);
  fastify.decorateRequest('access', null);
  const errors: AccessErrors = { keyStore: 0, quotaStore: 0 };
  fastify.decorate('accessErrors', errors);

  // The start warm-up's key, while one is out: asked only when knownKey misses (a key's first request), so the
  // usual request costs nothing more; its hash is compared in constant time, as a stored key's.
  let warmUp: KeyRecord | null = null;
  const warmUpRecord = (presented: string): KeyRecord | undefined =>
    warmUp !== null && prefixOf(presented) === warmUp.prefix && hashMatches(presented, warmUp.hash) ? warmUp : undefined;
  fastify.decorate('warmUpKey', (plan: Plan): WarmUpKey => {
    const { key, prefix, hash } = generateKey();
    const record: KeyRecord = { prefix, hash, plan, kind: 'api', name: 'start warm-up', created: new Date().toISOString() };
    warmUp = record;
    return {
      key,
      perMinute: services.config.quota[plan].minute,
      end: () => {
        if (warmUp === record) warmUp = null;
      },
    };
  });

  const refuseIfFlooding = async (request: FastifyRequest, state: AccessState) => {
    state.floodChecked = true;
    const waitMs = await flood.blockedForMs(floodIdOf(request, state));
    if (waitMs > 0) throw floodError(request, state, waitMs);
  };

  // Keyed routes (config.endpoint) get the key check as a route hook, after the app's onRequest
  // hooks as before: the route is known when it is registered, not looked up on every request.
  fastify.addHook('onRoute', (route) => {
    const endpoint = route.config?.endpoint;
    if (!endpoint) return;
    const own = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [...own, authenticateFor(endpoint)];
  });

  // The usual request, a key this process holds and has checked before, is admitted without a promise;
  // anything else (no key, a key to fetch or hash, a refusal) takes checkKey's path.
  const authenticateFor = (endpoint: Endpoint) =>
    function authenticate(request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void {
      const state: AccessState = { endpoint, floodId: null, floodChecked: false, ticket: null, snapshot: null };
      request.accessState = state;
      const presented = presentedKey(request, endpoint);
      const known = presented ? (knownKey(keys, presented) ?? warmUpRecord(presented)) : undefined;
      if (!known) return void checkKey(request, state, presented).then(() => done(), done);
      admit(request, state, known);
      done();
    };

  const checkKey = async (request: FastifyRequest, state: AccessState, presented: string | undefined): Promise<void> => {
    if (!presented) {
      await refuseIfFlooding(request, state);
      throw new ApiError('MISSING_KEY', `API key missing: pass ${KEY_PARAM[state.endpoint]}=<key> or the X-API-Key header`);
    }
    let verification;
    try {
      verification = await verifyKey(keys, presented);
    } catch (err) {
      if (!(err instanceof KeyStoreUnavailableError)) throw err;
      errors.keyStore++;
      request.log.debug({ err }, 'access: key store unavailable'); // the outage itself is logged once, by redis-connection.ts
      throw new ApiError('SERVICE_UNAVAILABLE', 'key store unavailable; retry shortly', { 'Retry-After': UNAVAILABLE_RETRY_S });
    }
    if (!verification.ok) {
      await refuseIfFlooding(request, state);
      throw new ApiError('INVALID_KEY', verification.reason === 'revoked' ? 'API key revoked' : 'API key not valid');
    }
    admit(request, state, verification.record);
  };

  /** A valid key: `request.access` set; a widget key refused off widget.php or off its origins. */
  const admit = (request: FastifyRequest, state: AccessState, record: KeyRecord): void => {
    state.floodId = `key:${record.prefix}`;
    request.access = { keyId: record.prefix, prefix: record.prefix, plan: record.plan, kind: record.kind, name: record.name };
    if (record.origins && record.origins.length > 0) request.access.origins = record.origins;
    if (record.kind === 'widget' && state.endpoint !== 'widget') {
      throw new ApiError('KEY_NOT_ALLOWED', 'this is a widget key: it works on widget.php only');
    }
    if (record.kind === 'widget' && !originAllowed(record, requestOrigin(request))) {
      throw new ApiError('KEY_NOT_ALLOWED', 'this widget key is not allowed on this site (origin not registered for the key)');
    }
  };

  // A plain function returning the decision's promise: the route's await is the one promise of its own.
  fastify.decorate('consumeQuota', (request: FastifyRequest, reply: FastifyReply): Promise<void> => {
    const state = request.accessState;
    const access = request.access;
    if (!state || !access) return Promise.reject(new Error('consumeQuota: route has no config.endpoint, or the request was not authenticated'));
    if (state.ticket) return Promise.resolve(); // one served response, one request
    return quota.consume(access.keyId, access.plan, undefined, { guard: flood, id: floodIdOf(request, state) }).then(
      (decision) => settle(request, reply, state, access, decision),
      (err: unknown) => {
        errors.quotaStore++;
        request.log.error({ err }, 'access: quota store failed');
        throw new ApiError('SERVICE_UNAVAILABLE', 'quota store unavailable; retry shortly', { 'Retry-After': UNAVAILABLE_RETRY_S });
      },
    );
  });

  /** The request served (its ticket kept), or its 429. */
  const settle = (request: FastifyRequest, reply: FastifyReply, state: AccessState, access: AccessContext, decision: QuotaDecision): void => {
    state.floodChecked = true;
    // The rate-limit headers are set from it in onSend (below), on every answer, this one's 429 too.
    state.snapshot = decision.snapshot;
    if (!decision.allowed && decision.refusedBy === 'flood') throw floodError(request, state, decision.retryAfterMs);
    if (!decision.allowed) {
      const s = Math.max(1, Math.ceil(decision.retryAfterMs / 1000));
      reply.header('Retry-After', s);
      const w = decision.snapshot[decision.refusedBy];
      const per = decision.refusedBy === 'day' ? 'per day (resets 00:00 UTC)' : 'per minute';
      throw new ApiError('QUOTA_EXCEEDED', `quota exceeded: ${w.limit} requests ${per} on the ${PLAN_LABEL[access.plan]} plan; retry in ${s} s`, {
        'Retry-After': s,
      });
    }
    state.ticket = decision.ticket;
  };

  // A refusal (4xx other than 429) of a request the guard was not asked about yet: 429 while blocked.
  fastify.decorate('refusalGate', async (request: FastifyRequest, failure: ApiFailure): Promise<ApiFailure> => {
    const state = request.accessState;
    if (!state || state.floodChecked || failure.status < 400 || failure.status >= 500 || failure.status === 429) return failure;
    state.floodChecked = true;
    try {
      const waitMs = await flood.blockedForMs(floodIdOf(request, state));
      return waitMs > 0 ? toApiFailure(floodError(request, state, waitMs), request) : failure;
    } catch (err) {
      request.log.warn({ err }, 'access: flood guard unavailable; refusal answered as it is');
      return failure;
    }
  });

  // A served answer (the common case) is handled here without a promise; a failed one needs Redis.
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    const state = request.accessState;
    if (state === null) return done(null, payload);
    if (reply.statusCode < 400 && (!request.access || state.snapshot)) {
      if (request.access) setRateLimitHeaders(reply, state.snapshot!);
      return done(null, payload);
    }
    void afterFailure(request, reply, state).then(() => done(null, payload));
  });

  /** A failed answer: its request given back if it was taken, a refusal counted, the headers from the windows as they now stand. */
  const afterFailure = async (request: FastifyRequest, reply: FastifyReply, state: AccessState): Promise<void> => {
    const status = reply.statusCode;
    try {
      if (state.ticket && status >= 400) {
        // Failed after consuming (no data for that time, a 5xx): not a served response.
        await quota.refund(state.ticket);
        state.ticket = null;
        state.snapshot = null;
      }
      if (status >= 400 && status < 500 && status !== 429) await flood.countRefusal(floodIdOf(request, state));
      if (request.access) setRateLimitHeaders(reply, state.snapshot ?? (await quota.peek(request.access.keyId, request.access.plan)));
    } catch (err) {
      request.log.warn({ err }, 'access: rate-limit bookkeeping failed');
    }
  };
};

/** Whom the request's refusals count against: its admitted key, else its address. */
function floodIdOf(request: FastifyRequest, state: AccessState): string {
  return (state.floodId ??= `ip:${request.ip}`);
}

/** The 429 of a key or address the flood guard blocks for `waitMs`. */
function floodError(request: FastifyRequest, state: AccessState, waitMs: number): ApiError {
  const s = Math.max(1, Math.ceil(waitMs / 1000));
  const whose = floodIdOf(request, state).startsWith('key:') ? ' with this key' : '';
  return new ApiError('TOO_MANY_REQUESTS', `too many refused requests${whose}; retry in ${s} s`, { 'Retry-After': s });
}

/** Names in lower case, as Fastify sends them: no new string per header and request (api/plugins/security-headers.ts). */
function setRateLimitHeaders(reply: FastifyReply, snapshot: QuotaSnapshot): void {
  const w = bindingWindow(snapshot);
  reply.header('x-ratelimit-limit', w.limit);
  reply.header('x-ratelimit-remaining', w.remaining);
  reply.header('x-ratelimit-reset', Math.ceil(w.resetMs / 1000));
}

export default fp(accessPlugin, { name: 'meteopunto-access', fastify: '5.x' });
export { accessPlugin };
