/**
 * The interface version (interface spec section 9): every response under
 * /api/ carries `X-API-Version: 2.0`.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

export const API_VERSION = '2.0';

export function registerApiVersion(app: FastifyInstance): void {
  // Callback style: no promise per response.
  app.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (request.url.startsWith('/api/')) reply.header('x-api-version', API_VERSION);
    done(null, payload);
  });
}
