/**
 * The API's single error handler and not-found handler: every failure leaves
 * as `{"error": {"code", "message"}}` (api/errors.ts).
 *
 * - ApiError: its own status, code, message and headers (Retry-After, ...).
 * - Schema validation: 400 INVALID_PARAMETER naming the parameter.
 * - TileError reaching here (routes normally map it themselves, with context):
 *   PRODUCT_NOT_PUBLISHED → 503 DATA_NOT_AVAILABLE, OUTSIDE_GRID and
 *   TIME_OUT_OF_RANGE → 404 NOT_FOUND.
 * - Other client errors raised by Fastify (malformed URL, body too large, ...):
 *   their 4xx status, code INVALID_PARAMETER (NOT_FOUND for 404).
 * - Anything else: logged with its stack, answered 500 INTERNAL with no detail.
 * - Unknown routes: 404 NOT_FOUND naming method and path; HEAD on a GET
 *   route that does not answer HEAD (weather.php): 405 METHOD_NOT_ALLOWED, Allow: GET.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ApiErrorCode, type ErrorBody } from '../errors.js';
import { TileError } from '../../tiles/types.js';
import { validationMessage } from '../validation/messages.js';
import { redactKeys } from '../logging/redact-keys.js';

/** The body for a status and code. */
export function errorBody(code: ApiErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

/** A TileError as the API's error, without request context (see api/weather/tile-errors.ts for the route's own mapping). */
function fromTileError(err: TileError): ApiError {
  if (err.code === 'PRODUCT_NOT_PUBLISHED') return new ApiError('DATA_NOT_AVAILABLE', err.message);
  return new ApiError('NOT_FOUND', err.message);
}

function send(reply: FastifyReply, status: number, code: ApiErrorCode, message: string): FastifyReply {
  return reply.code(status).type('application/json; charset=utf-8').send(errorBody(code, redactKeys(message)));
}

async function errorsPlugin(fastify: FastifyInstance): Promise<void> {
  fastify.setErrorHandler(function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
    const err = error instanceof TileError ? fromTileError(error) : error;
    if (err instanceof ApiError) {
      for (const [name, value] of Object.entries(err.headers)) reply.header(name, value);
      if (err.status >= 500) request.log.warn({ code: err.code }, err.message);
      return send(reply, err.status, err.code, err.message);
    }
    const fe = err as FastifyError;
    if (fe.validation) {
      return send(reply, 400, 'INVALID_PARAMETER', validationMessage(fe.validation, fe.validationContext));
    }
    const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
    if (status >= 400 && status < 500) {
      return send(reply, status, status === 404 ? 'NOT_FOUND' : 'INVALID_PARAMETER', fe.message);
    }
    request.log.error({ err }, 'unhandled error');
    return send(reply, 500, 'INTERNAL', 'Internal error');
  });

  fastify.setNotFoundHandler(function notFound(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? request.url;
    if (request.method === 'HEAD' && this.hasRoute({ method: 'GET', url: path })) {
      reply.header('Allow', 'GET');
      return send(reply, 405, 'METHOD_NOT_ALLOWED', `HEAD is not answered on ${path.slice(0, 200)} (it would compute and spend quota): use GET`);
    }
    return send(reply, 404, 'NOT_FOUND', `No such endpoint: ${request.method} ${path.slice(0, 200)}`);
  });
}

export default fp(errorsPlugin, { name: 'meteopunto-errors', fastify: '5.x' });
