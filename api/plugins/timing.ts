/**
 * Request timing for `elapsed_ms`: this plugin's onRequest hook, which the
 * app registers right after the hand-over to the check phase (./batching.ts)
 * and the Host check, before every other, stamps the request, so the figure
 * covers key checks, validation, quota and computation, up to serialisation.
 * (Fastify's reply.elapsedTime only runs with a logger or onResponse hooks.)
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() at onRequest, ms. */
    startedAtMs: number;
  }
}

/** Milliseconds since the request's onRequest. */
export function elapsedMs(request: FastifyRequest): number {
  return performance.now() - request.startedAtMs;
}

async function timingPlugin(fastify: FastifyInstance): Promise<void> {
  fastify.decorateRequest('startedAtMs', 0);
  fastify.addHook('onRequest', function stamp(request: FastifyRequest, _reply: FastifyReply, done: () => void) {
    request.startedAtMs = performance.now();
    done();
  });
}

export default fp(timingPlugin, { name: 'meteopunto-timing', fastify: '5.x' });
