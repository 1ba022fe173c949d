/**
 * Response headers for the JSON API (@fastify/helmet): nosniff, a CSP that
 * allows nothing (a JSON answer loads no resources and is never framed),
 * no referrer, HSTS, and the rest of helmet's defaults; and
 * `Cache-Control: no-store` on weather.php, whose URL may carry the key and
 * whose every answer counts against a quota. widget.php (embeddable, its own
 * CSP and caching) and the operator dashboard (an HTML app) keep their own.
 */
import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** Paths that set their own headers. */
const OWN_HEADERS = [/^\/api\/v1\/widget\.php(\?|$)/, /^\/admin(\/|\?|$)/];
const NO_STORE = /^\/api\/v1\/weather\.php(\?|$)/;

async function securityHeaders(fastify: FastifyInstance): Promise<void> {
  await fastify.register(helmet, {
    global: false,
    contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  });
  fastify.addHook('onRequest', async (request: FastifyRequest, reply: FastifyReply) => {
    if (OWN_HEADERS.some((p) => p.test(request.url))) return;
    await reply.helmet();
    if (NO_STORE.test(request.url)) reply.header('Cache-Control', 'no-store');
  });
}

export default fp(securityHeaders, { name: 'meteopunto-security-headers', fastify: '5.x' });
