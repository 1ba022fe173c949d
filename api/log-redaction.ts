/**
 * No secret reaches a server log line: every line pino writes passes the one
 * redaction rule (config/redaction.ts) on its way to the destination, so a
 * key, the operator token or a provider credential is cut whatever field,
 * message or error stack carries it and however it was encoded. The
 * serializers below keep what a request line holds to method, URL, host and
 * address: no header (X-API-Key, Authorization, Cookie) is logged at all.
 */
import pino from 'pino';
import type { FastifyError, FastifyRequest, FastifyServerOptions } from 'fastify';
import { redactingStream, redactSecrets, type LineSink } from '../config/redaction.js';

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** pino serializers for Fastify's logger: the request without its headers, errors with their code. */
export const redactingSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactSecrets(request.url), host: request.hostname, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
  },
  // Any value may be logged under `err` (a message string, a non-Error rejection): a serializer that throws kills the process.
  err(value: unknown): LoggedError {
    if (typeof value !== 'object' || value === null) return { type: typeof value, message: redactSecrets(String(value)), stack: '' };
    const err = value as Partial<FastifyError>;
    const out: LoggedError = { type: String(err.name ?? 'Error'), message: redactSecrets(String(err.message ?? '')), stack: redactSecrets(String(err.stack ?? '')) };
    if (err.code !== undefined) out.code = err.code;
    if (err.statusCode !== undefined) out.statusCode = err.statusCode;
    return out;
  },
};

/**
 * Fastify logger options whose every line passes the redaction rule, with
 * `secrets` (config/redaction.ts `secretValues`) removed wherever they
 * appear; the caller's own serializers win. Without a stream, lines go to
 * stdout as pino's default does.
 */
export function withRedaction(logger: FastifyServerOptions['logger'], secrets: readonly string[] = []): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = (logger === true ? {} : logger) as Exclude<FastifyServerOptions['logger'], boolean | undefined> & { stream?: LineSink };
  const stream = redactingStream(base.stream ?? pino.destination(1), secrets);
  return { ...base, stream, serializers: { ...redactingSerializers, ...(base.serializers ?? {}) } } as FastifyServerOptions['logger'];
}
