/**
 * The API's single error handler and not-found handler: every failure leaves
 * as `{"error": {"code", "message"}}` (api/errors.ts).
 *
 * - ApiError: its own status, code, message and headers (Retry-After, ...).
 * - Schema validation: 400 INVALID_PARAMETER naming the parameter.
 * - TileError reaching here (routes normally map it themselves, with context):
 *   the one mapping (api/tile-errors.ts), a time taken as asked.
 * - Other client errors raised by Fastify (malformed URL, body too large, ...):
 *   their 4xx status, code INVALID_PARAMETER (NOT_FOUND for 404).
 * - Anything else: logged with its stack, answered 500 INTERNAL with no detail.
 * - A refusal (4xx other than 429) then passes the access layer's refusal
 *   gate: 429 TOO_MANY_REQUESTS instead while the flood guard blocks the
 *   key or address (api/access/plugin.ts).
 * - Unknown routes: 404 NOT_FOUND naming method and path; a known path
 *   asked with a method it does not answer (POST, HEAD on weather.php and
 *   widget.php, ...): 405 METHOD_NOT_ALLOWED with `Allow` listing the ones it does.
 */
import fp from 'fastify-plugin';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ApiError, type ApiErrorCode, type ErrorBody } from '../errors.js';
import { TileError } from '../../tiles/errors.js';
import { tileErrorToApi } from '../tile-errors.js';
import { validationMessage } from '../validation/messages.js';
import { redactSecrets } from '../../config/redaction.js';

/** The body for a status and code. */
export function errorBody(code: ApiErrorCode, message: string): ErrorBody {
  return { error: { code, message } };
}

/** Sets the status and type of an error answer; returns its body (keys in the message cut to their prefix). */
function errorReply(reply: FastifyReply, status: number, code: ApiErrorCode, message: string): ErrorBody {
  reply.code(status).type('application/json; charset=utf-8');
  return errorBody(code, redactSecrets(message));
}

function send(reply: FastifyReply, status: number, code: ApiErrorCode, message: string): FastifyReply {
  return reply.send(errorReply(reply, status, code, message));
}

/** An error as the client receives it. */
export interface ApiFailure {
  status: number;
  code: ApiErrorCode;
  message: string;
  headers: Readonly<Record<string, string | number>>;
}

/** Any error as the client receives it, by the rules above (nothing logged: see toApiFailure). */
export function failureOf(error: FastifyError | Error): ApiFailure {
  const err = error instanceof TileError ? tileErrorToApi(error) : error;
  if (err instanceof ApiError) return { status: err.status, code: err.code, message: err.message, headers: err.headers };
  const fe = err as FastifyError;
  if (fe.validation) return { status: 400, code: 'INVALID_PARAMETER', message: validationMessage(fe.validation, fe.validationContext), headers: {} };
  const status = typeof fe.statusCode === 'number' ? fe.statusCode : 500;
  if (status >= 400 && status < 500) return { status, code: status === 404 ? 'NOT_FOUND' : 'INVALID_PARAMETER', message: fe.message, headers: {} };
  return { status: 500, code: 'INTERNAL', message: 'Internal error', headers: {} };
}

/** Logs what the client of a failure is not told: a 5xx refusal's reason, an unexpected error with its stack. */
export function logFailure(error: FastifyError | Error, failure: ApiFailure, request: FastifyRequest): void {
  if (failure.code === 'INTERNAL') request.log.error({ err: error }, 'unhandled error');
  // A bucket that did not answer: the client gets a generic 503, the log names the bucket and the cause.
  else if (failure.status >= 500) request.log.warn({ code: failure.code, ...(error instanceof TileError && error.code === 'STORAGE_UNAVAILABLE' ? { storage: error.message } : {}) }, failure.message);
}

/**
 * Any error as the client receives it, by the rules above; logs what the
 * client is not told. Shared with routes that render errors in their own
 * form (widget.php).
 */
export function toApiFailure(error: FastifyError | Error, request: FastifyRequest): ApiFailure {
  const f = failureOf(error);
  logFailure(error, f, request);
  return f;
}

/**
 * toApiFailure, then the access layer's refusal gate where it is registered
 * (api/access/plugin.ts): a refusal from a key or address the flood guard
 * blocks leaves as 429 TOO_MANY_REQUESTS.
 */
export async function toGatedFailure(error: FastifyError | Error, request: FastifyRequest): Promise<ApiFailure> {
  const f = toApiFailure(error, request);
  return typeof request.server.refusalGate === 'function' ? request.server.refusalGate(request, f) : f;
}

/** Methods a route may answer, for `Allow`. */
const ROUTE_METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'] as const;

async function errorsPlugin(fastify: FastifyInstance): Promise<void> {
  // Async: the refusal gate may ask Redis. The body is returned, not sent (Fastify sends what an async handler returns).
  fastify.setErrorHandler(async function handleError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
    const f = await toGatedFailure(error, request);
    for (const [name, value] of Object.entries(f.headers)) reply.header(name, value);
    return errorReply(reply, f.status, f.code, f.message);
  });

  fastify.setNotFoundHandler(function notFound(request: FastifyRequest, reply: FastifyReply) {
    const path = request.url.split('?')[0] ?? request.url;
    const allow = ROUTE_METHODS.filter((method) => this.hasRoute({ method, url: path }));
    if (allow.length > 0) {
      reply.header('Allow', allow.join(', '));
      const why = request.method === 'HEAD' ? ' (it would compute and spend quota)' : '';
      return send(reply, 405, 'METHOD_NOT_ALLOWED', `${request.method} is not answered on ${path.slice(0, 200)}${why}: use ${allow.join(' or ')}`);
    }
    return send(reply, 404, 'NOT_FOUND', `No such endpoint: ${request.method} ${path.slice(0, 200)}`);
  });
}

export default fp(errorsPlugin, { name: 'meteopunto-errors', fastify: '5.x' });
