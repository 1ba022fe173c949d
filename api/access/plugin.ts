/**
 * The access plugin (contract.ts): on routes with `config.endpoint` it
 * authenticates in onRequest and sets `request.access`; it decorates
 * `fastify.consumeQuota(request, reply)`, which routes call after validation
 * and plan checks; in onSend it sets the rate-limit headers on every response
 * after authentication, gives back the request of a response that failed
 * after consuming, and counts refused requests for the flood guard.
 *
 * Rate-limit headers report the window closest to exhaustion (quota.ts,
 * bindingWindow): X-RateLimit-Limit (requests in that window),
 * X-RateLimit-Remaining, X-RateLimit-Reset (seconds until it resets).
 */
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import { ApiError } from '../errors.js';
import type { Endpoint } from './contract.js';
import { KEY_PARAM, originAllowed, presentedKey, requestOrigin, verifyKey } from './authenticate.js';
import { prefixOf } from './key-format.js';
import { KeyStoreUnavailableError } from './key-store.js';
import { PLAN_LABEL } from './plans.js';
import { bindingWindow, type QuotaSnapshot, type QuotaTicket } from './quota.js';
import { createAccessServices, type AccessServices, type AccessServicesOptions } from './services.js';
import type { AccessErrors } from './contract.js';

export interface AccessPluginOptions extends AccessServicesOptions {
  /** Prebuilt services (the caller closes them); otherwise built from `env` and closed with the app. */
  services?: AccessServices;
}

/** Per-request state of keyed routes. */
interface AccessState {
  endpoint: Endpoint;
  /** Whom refusals count against: `key:<prefix>` or `ip:<address>`. */
  floodId: string;
  ticket: QuotaTicket | null;
  snapshot: QuotaSnapshot | null;
}

const UNAVAILABLE_RETRY_S = 5;

const accessPlugin: FastifyPluginAsync<AccessPluginOptions> = async (fastify, opts) => {
  const services = opts.services ?? (await createAccessServices({ env: opts.env, config: opts.config, log: opts.log ?? fastify.log, cacheKeys: true }));
  if (!opts.services) fastify.addHook('onClose', async () => services.close());
  fastify.log.info(services.startupMessage);
  const { keys, quota, flood } = services;
  const states = new WeakMap<FastifyRequest, AccessState>();

  fastify.decorateRequest('access', null);
  const errors: AccessErrors = { keyStore: 0, quotaStore: 0 };
  fastify.decorate('accessErrors', errors);

  const refuseIfFlooding = async (id: string) => {
    const waitMs = await flood.blockedForMs(id);
    if (waitMs > 0) {
      const s = Math.ceil(waitMs / 1000);
      throw new ApiError('TOO_MANY_REQUESTS', `too many refused requests; retry in ${s} s`, { 'Retry-After': s });
    }
  };

  fastify.addHook('onRequest', async (request) => {
    const endpoint = request.routeOptions.config?.endpoint;
    if (!endpoint) return;
    const state: AccessState = { endpoint, floodId: `ip:${request.ip}`, ticket: null, snapshot: null };
    states.set(request, state);

    const presented = presentedKey(request, endpoint);
    if (!presented) {
      await refuseIfFlooding(state.floodId);
      throw new ApiError('MISSING_KEY', `API key missing: pass ${KEY_PARAM[endpoint]}=<key> or the X-API-Key header`);
    }
    const prefix = prefixOf(presented);
    let verification;
    let keyBlockedMs = 0;
    try {
      [verification, keyBlockedMs] = await Promise.all([verifyKey(keys, presented), prefix ? flood.blockedForMs(`key:${prefix}`) : 0]);
    } catch (err) {
      if (!(err instanceof KeyStoreUnavailableError)) throw err;
      errors.keyStore++;
      request.log.debug({ err }, 'access: key store unavailable'); // the outage itself is logged once, by redis-connection.ts
      throw new ApiError('SERVICE_UNAVAILABLE', 'key store unavailable; retry shortly', { 'Retry-After': UNAVAILABLE_RETRY_S });
    }
    if (!verification.ok) {
      await refuseIfFlooding(state.floodId);
      throw new ApiError('INVALID_KEY', verification.reason === 'revoked' ? 'API key revoked' : 'API key not valid');
    }
    const record = verification.record;
    state.floodId = `key:${record.prefix}`;
    request.access = { keyId: record.prefix, prefix: record.prefix, plan: record.plan, kind: record.kind, name: record.name };
    if (record.origins && record.origins.length > 0) request.access.origins = record.origins;
    if (keyBlockedMs > 0) {
      const s = Math.ceil(keyBlockedMs / 1000);
      throw new ApiError('TOO_MANY_REQUESTS', `too many refused requests with this key; retry in ${s} s`, { 'Retry-After': s });
    }
    if (record.kind === 'widget' && endpoint !== 'widget') {
      throw new ApiError('KEY_NOT_ALLOWED', 'this is a widget key: it works on widget.php only');
    }
    if (record.kind === 'widget' && !originAllowed(record, requestOrigin(request))) {
      throw new ApiError('KEY_NOT_ALLOWED', 'this widget key is not allowed on this site (origin not registered for the key)');
    }
  });

  fastify.decorate('consumeQuota', async (request: FastifyRequest, reply: FastifyReply) => {
    const state = states.get(request);
    const access = request.access;
    if (!state || !access) throw new Error('consumeQuota: route has no config.endpoint, or the request was not authenticated');
    if (state.ticket) return; // one served response, one request
    let decision;
    try {
      decision = await quota.consume(access.keyId, access.plan);
    } catch (err) {
      errors.quotaStore++;
      request.log.error({ err }, 'access: quota store failed');
      throw new ApiError('SERVICE_UNAVAILABLE', 'quota store unavailable; retry shortly', { 'Retry-After': UNAVAILABLE_RETRY_S });
    }
    state.snapshot = decision.snapshot;
    setRateLimitHeaders(reply, decision.snapshot);
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
  });

  fastify.addHook('onSend', async (request, reply, payload) => {
    const state = states.get(request);
    if (!state) return payload;
    const status = reply.statusCode;
    try {
      if (state.ticket && status >= 400) {
        // Failed after consuming (no data for that time, a 5xx): not a served response.
        await quota.refund(state.ticket);
        state.ticket = null;
        state.snapshot = null;
      }
      if (status >= 400 && status < 500 && status !== 429) await flood.countRefusal(state.floodId);
      if (request.access) setRateLimitHeaders(reply, state.snapshot ?? (await quota.peek(request.access.keyId, request.access.plan)));
    } catch (err) {
      request.log.warn({ err }, 'access: rate-limit bookkeeping failed');
    }
    return payload;
  });
};

function setRateLimitHeaders(reply: FastifyReply, snapshot: QuotaSnapshot): void {
  const w = bindingWindow(snapshot);
  reply.header('X-RateLimit-Limit', w.limit);
  reply.header('X-RateLimit-Remaining', w.remaining);
  reply.header('X-RateLimit-Reset', Math.ceil(w.resetMs / 1000));
}

export default fp(accessPlugin, { name: 'meteopunto-access', fastify: '5.x' });
export { accessPlugin };
