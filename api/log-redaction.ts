/**
 * API keys never reach a log line: the request URL (`api_key=`, widget
 * `key=`) and every error message are logged with each key cut to its
 * public prefix (`mp_AbCdEfGh…`), which is enough for an operator to find
 * the key with `meteopunto keys show`. The X-API-Key header is not logged at
 * all (the request serializer below lists what is).
 */
import type { FastifyError, FastifyRequest, FastifyServerOptions } from 'fastify';
import { KEY_TAG, PREFIX_LENGTH } from './access/key-format.js';

/** A key-shaped token anywhere in a text: the tag, the prefix, then anything key-like that follows. */
const KEY_IN_TEXT = new RegExp(`${KEY_TAG}([0-9A-Za-z]{${PREFIX_LENGTH}})[0-9A-Za-z%_-]+`, 'g');
/** The value of a key parameter, whatever it holds (a mistyped key is still most of a key). */
const KEY_PARAM = /([?&](?:api_key|api%5[Ff]key|key)=)([^&#]*)/g;

/** `text` with every key cut to its public prefix. */
export function redactKeys(text: string): string {
  return text
    .replace(KEY_PARAM, (_, name: string, value: string) => name + (value.length > KEY_TAG.length + PREFIX_LENGTH ? `${value.slice(0, KEY_TAG.length + PREFIX_LENGTH)}…` : value))
    .replace(KEY_IN_TEXT, `${KEY_TAG}$1…`);
}

interface LoggedError {
  [key: string]: unknown;
  type: string;
  message: string;
  stack: string;
}

/** pino serializers for Fastify's logger: the request and errors, redacted. */
export const redactingSerializers = {
  req(request: FastifyRequest) {
    return { method: request.method, url: redactKeys(request.url), host: request.hostname, remoteAddress: request.ip, remotePort: request.socket?.remotePort };
  },
  err(err: FastifyError): LoggedError {
    const out: LoggedError = { type: err.name, message: redactKeys(err.message), stack: redactKeys(err.stack ?? '') };
    if (err.code !== undefined) out.code = err.code;
    if (err.statusCode !== undefined) out.statusCode = err.statusCode;
    return out;
  },
};

/** Fastify logger options with the redacting serializers (the caller's own serializers win). */
export function withRedaction(logger: FastifyServerOptions['logger']): FastifyServerOptions['logger'] {
  if (!logger) return false;
  const base = logger === true ? {} : logger;
  return { ...base, serializers: { ...redactingSerializers, ...(base.serializers ?? {}) } };
}
