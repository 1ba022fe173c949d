/**
 * Request timing for `elapsed_ms`: the app's first onRequest hook, the
 * hand-over to the check phase (./batching.ts), stamps the request when it
 * carries on, before every other hook, so the figure covers key checks,
 * validation, quota and computation, up to serialisation. This plugin
 * declares the stamp. (Fastify's reply.elapsedTime only runs with a logger or
 * onResponse hooks.)
 */
import fp from 'fastify-plugin';
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyRequest {
    /** performance.now() at onRequest, ms. */
    startedAtMs: number;
  }
}

/** Marks the start of `request`'s `elapsed_ms` (called by the hand-over hook). */
export function stampRequest(request: FastifyRequest): void {
  request.startedAtMs = performance.now();
}

/** Milliseconds since the request was stamped. */
export function elapsedMs(request: FastifyRequest): number {
  return performance.now() - request.startedAtMs;
}

async function timingPlugin(fastify: FastifyInstance): Promise<void> {
  fastify.decorateRequest('startedAtMs', 0);
}

export default fp(timingPlugin, { name: 'meteopunto-timing', fastify: '5.x' });
