/**
 * The interface version (interface spec section 9): every response under
 * /api/ carries `X-API-Version: 2.0`.
 */
import type { FastifyInstance } from 'fastify';

export const API_VERSION = '2.0';

export function registerApiVersion(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    if (request.url.startsWith('/api/')) reply.header('x-api-version', API_VERSION);
    return payload;
  });
}
