/**
 * The one redaction rule for every secret Meteopunto handles. Every log line
 * of the server and the worker (a redacting stream under pino:
 * api/log-redaction.ts, jobs/cli-worker.ts), the CLI's messages
 * (cli/redacted-output.ts), the error bodies and every provider error
 * message (jobs/sources/source-error.ts) pass through `redactSecrets`:
 *
 * - percent-encoded unreserved characters are decoded first, repeatedly
 *   (`%6D` and `%256D` are `m`; RFC 3986 §6.2.2.2 makes them the same
 *   URL), so an encoded name or value reads as what the server decoded;
 * - the value of a secret-named parameter, cookie or JSON property
 *   (`api_key`, `key`, `token`, anything ending in key, token, secret or
 *   password, `mp_admin`, `authorization`), in any case: `[redacted]`, or
 *   the key's public prefix when it holds an API key;
 * - an API key anywhere (`mp_` in any case, the 8-character public prefix,
 *   the secret): cut to `mp_<prefix>…`, which `meteopunto keys show` finds;
 * - the credentials of `Authorization: Bearer|Basic …` and a URL's password;
 * - the secret values the process knows (`secretValues`: the operator token,
 *   provider keys, any credential-named environment variable), raw or
 *   percent-encoded.
 */

/** An API key is `mp_<prefix><secret>` (api/access/key-format.ts). */
export const KEY_TAG = 'mp_';
export const KEY_PREFIX_LENGTH = 8;

const REDACTED = '[redacted]';
/** Shorter values are not treated as secrets by their value alone (they would cut ordinary words). */
const MIN_SECRET_LENGTH = 8;

/** RFC 3986 unreserved characters: encoding them changes nothing for a server, so a log shows them decoded. */
const UNRESERVED = /^[A-Za-z0-9._~-]$/;
/** `%XX`, or `%25XX` (an encoded `%` before XX). */
const ESCAPE = /%(?:25)?([0-9A-Fa-f]{2})/g;

/** `text` with percent-encoded unreserved characters decoded, as often as they nest (at most 4 levels). */
function decodeUnreserved(text: string): string {
  let s = text;
  for (let round = 0; round < 4 && s.includes('%'); round++) {
    const next = s.replace(ESCAPE, (m: string, hex: string) => {
      const c = String.fromCharCode(parseInt(hex, 16));
      if (!UNRESERVED.test(c)) return m;
      return m.length === 3 ? c : `%${hex}`;
    });
    if (next === s) break;
    s = next;
  }
  return s;
}

const KEY_SHAPE = new RegExp(`^${KEY_TAG}([0-9A-Za-z]{${KEY_PREFIX_LENGTH}})`, 'i');
/** A key-shaped token: the tag in any case, the prefix, then at least one more key-like character. */
const KEY_IN_TEXT = new RegExp(`${KEY_TAG}([0-9A-Za-z]{${KEY_PREFIX_LENGTH}})[0-9A-Za-z%_-]+`, 'gi');

/** Whether a parameter, cookie or property name says its value is a secret. */
export function isSecretName(raw: string): boolean {
  let name = raw;
  try {
    name = decodeURIComponent(raw);
  } catch {
    // a stray % in a name: judge it as written
  }
  const n = name.toLowerCase().replace(/[-_.\s]/g, '');
  return /(key|token|secret|password)$/.test(n) || ['mpadmin', 'authorization', 'auth', 'passwd', 'pwd', 'credential', 'credentials'].includes(n);
}

/** What stands for a secret value: an API key keeps its public prefix. */
function replacement(value: string): string {
  const m = KEY_SHAPE.exec(value);
  return m ? `${KEY_TAG}${m[1]}…` : REDACTED;
}

/** `name=value` (query, form, cookie) after a separator, or the start. */
const NAME_EQUALS = /(^|[^A-Za-z0-9_.%-])([A-Za-z0-9_.%-]{1,64})=([^&#;,\s"'<>]*)/g;
/** `"name":"value"` (JSON, pino's objects). */
const JSON_PROPERTY = /"([A-Za-z0-9_.-]{1,64})"(\s*:\s*)"([^"\\]*)"/g;
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]+/gi;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@"']*):([^@/\s"']+)@/gi;

/**
 * `text` with every secret cut (see the file's head). `secrets`: values to
 * remove wherever they appear (`secretValues`); shorter than 8 characters
 * they are ignored.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  let s = decodeUnreserved(text);
  s = s
    .replace(NAME_EQUALS, (m: string, before: string, name: string, value: string) => (value !== '' && value !== REDACTED && isSecretName(name) ? `${before}${name}=${replacement(value)}` : m))
    .replace(JSON_PROPERTY, (m: string, name: string, colon: string, value: string) => (value !== '' && value !== REDACTED && isSecretName(name) ? `"${name}"${colon}"${replacement(value)}"` : m))
    .replace(AUTH_SCHEME, `$1$2${REDACTED}`)
    .replace(URL_PASSWORD, `$1:${REDACTED}@`)
    .replace(KEY_IN_TEXT, (_m: string, prefix: string) => `${KEY_TAG}${prefix}…`);
  for (const secret of secrets) {
    if (secret.length < MIN_SECRET_LENGTH) continue;
    for (const form of new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())])) {
      if (s.includes(form)) s = s.split(form).join(REDACTED);
    }
  }
  return s;
}

/** Environment variable names that hold a credential by convention (ADS_API_KEY, METEOPUNTO_ADMIN_TOKEN, ..._PASSWORD). */
const CREDENTIAL_NAME = /(KEY|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;

/**
 * The secret values in an environment: every credential-named variable,
 * the variables `alsoNames` names (a jobs source's `keyEnv`) and the
 * password of any URL-valued variable (REDIS_URL).
 */
export function secretValues(env: Readonly<Record<string, string | undefined>>, alsoNames: readonly string[] = []): string[] {
  const out = new Set<string>();
  const extra = new Set(alsoNames);
  for (const [name, value] of Object.entries(env)) {
    if (!value) continue;
    if (CREDENTIAL_NAME.test(name) || extra.has(name)) out.add(value);
    const pw = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]*:([^@/\s]+)@/i.exec(value)?.[1];
    if (pw) {
      out.add(pw);
      try {
        out.add(decodeURIComponent(pw));
      } catch {
        // kept as written
      }
    }
  }
  return [...out].filter((v) => v.length >= MIN_SECRET_LENGTH);
}

/** A destination that writes what pino (or anything line-based) gives it with every secret cut. */
export interface LineSink {
  write(chunk: string): unknown;
  flushSync?(): void;
}

/** `inner` behind the redaction rule: for pino's `stream` option, so that every log line passes it. */
export function redactingStream(inner: LineSink, secrets: readonly string[] = []): LineSink {
  const sink: LineSink = { write: (chunk: string) => inner.write(redactSecrets(chunk, secrets)) };
  if (inner.flushSync) sink.flushSync = () => inner.flushSync!();
  return sink;
}
