/**
 * API keys never reach a log line or an error message in clear (issue 16):
 * the public prefix stays (`mp_AbCd1234…`) so operators can still trace a key;
 * the secret is dropped. Values of `api_key` / `key` that are not well-formed
 * keys are dropped whole (a mistyped key is still most of a secret).
 */
const KEY_PARAM = /([?&;])((?:api(?:_|%5[fF])key|key)=)([^&#\s"']*)/g;
// A key anywhere in free text (messages, stacks): tag, 8-char public prefix, rest of the secret.
const BARE_KEY = /mp_([0-9A-Za-z]{8})[0-9A-Za-z]+/g;
const REDACTED = '…';

function safeDecode(v: string): string {
  try {
    return decodeURIComponent(v);
  } catch {
    return v;
  }
}

/** A key parameter's value as it may be logged: the public prefix of a key, else nothing. */
export function redactKeyValue(value: string): string {
  const m = /^mp_([0-9A-Za-z]{8})/.exec(safeDecode(value));
  return m ? `mp_${m[1]}${REDACTED}` : REDACTED;
}

/** Text (a URL, a message, a stack) with every key reduced to its public prefix. */
export function redactKeys(text: string): string {
  return text
    .replace(KEY_PARAM, (_all, sep: string, name: string, value: string) => `${sep}${name}${redactKeyValue(value)}`)
    .replace(BARE_KEY, (_all, prefix: string) => `mp_${prefix}${REDACTED}`);
}

interface LoggedRequest {
  method?: string;
  url?: string;
  host?: string;
  hostname?: string;
  ip?: string;
  socket?: { remotePort?: number };
}

interface LoggedError {
  name?: string;
  message?: string;
  stack?: string;
  code?: unknown;
  statusCode?: unknown;
}

/**
 * pino serializers for Fastify's logger: the request line carries the URL
 * redacted (no headers are logged, so `X-API-Key` never is), errors their
 * message and stack redacted.
 */
export const redactingSerializers = {
  req(req: LoggedRequest) {
    return {
      method: req.method,
      url: redactKeys(req.url ?? ''),
      host: req.host ?? req.hostname,
      remoteAddress: req.ip,
      remotePort: req.socket?.remotePort,
    };
  },
  err(err: LoggedError) {
    if (!err || typeof err !== 'object') return err;
    return {
      type: err.name ?? 'Error',
      message: redactKeys(String(err.message ?? '')),
      stack: redactKeys(String(err.stack ?? '')),
      ...(err.code !== undefined ? { code: err.code } : {}),
      ...(err.statusCode !== undefined ? { statusCode: err.statusCode } : {}),
    };
  },
};
