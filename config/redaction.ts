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
 *   provider keys, any credential-named environment variable), and every
 *   value the rules above find in the text read fully percent-decoded (a
 *   `?token%3D…` or `https%3A%2F%2Fuser%3Apass%40…` inside another URL, the
 *   password inside Basic credentials), in any encoding a line may give
 *   them: raw, percent-encoded, base64 (standard or URL-safe) at any
 *   alignment (the password inside `base64(user:password)`).
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

/**
 * isSecretName's answers by name: a server log line asks it for each of its
 * JSON properties (`"hostname"`, `"reqId"`, `"msg"`, ...), which are few, on
 * every line. Bounded, since names also come from the URLs clients send.
 */
const secretNameMemo = new Map<string, boolean>();
const SECRET_NAME_MEMO_SIZE = 1024;

/** Whether a parameter, cookie or property name says its value is a secret. */
export function isSecretName(raw: string): boolean {
  let answer = secretNameMemo.get(raw);
  if (answer === undefined) {
    answer = judgeName(raw);
    if (secretNameMemo.size >= SECRET_NAME_MEMO_SIZE) secretNameMemo.clear();
    secretNameMemo.set(raw, answer);
  }
  return answer;
}

function judgeName(raw: string): boolean {
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
/** NAME_EQUALS matching inside another one's value too (`next=/w?token=…`): the value is looked at, not consumed. */
const NAME_EQUALS_NESTED = /(?<=^|[^A-Za-z0-9_.%-])([A-Za-z0-9_.%-]{1,64})=(?=([^&#;,\s"'<>]*))/g;
/** `"name":"value"` (JSON, pino's objects). */
const JSON_PROPERTY = /"([A-Za-z0-9_.-]{1,64})"(\s*:\s*)"([^"\\]*)"/g;
const AUTH_SCHEME = /\b(Bearer|Basic)(\s+)[A-Za-z0-9._~+/=-]+/gi;
const URL_PASSWORD = /\b([a-z][a-z0-9+.-]*:\/\/[^/\s:@"']*):([^@/\s"']+)@/gi;

/** Escapes, a URL's userinfo, credentials: what secretsFound looks into. */
const MAY_HIDE = /%[0-9A-Fa-f]{2}|@|\b(?:basic|bearer)\s/i;

/** Secret-named parameters cut, also inside another parameter's value (`next=/w?token=…`). */
function redactParameters(text: string): string {
  return text.replace(NAME_EQUALS, (m: string, before: string, name: string, value: string) => {
    if (value === '' || value === REDACTED) return m;
    if (isSecretName(name)) return `${before}${name}=${replacement(value)}`;
    return value.includes('=') ? `${before}${name}=${redactParameters(value)}` : m;
  });
}

/** `text` with every `%XX` decoded once; a run that is not UTF-8 is read as Latin-1. */
function decodeOnce(text: string): string {
  return text.replace(/(?:%[0-9A-Fa-f]{2})+/g, (run) => {
    try {
      return decodeURIComponent(run);
    } catch {
      return Buffer.from(run.replace(/%/g, ''), 'hex').toString('latin1');
    }
  });
}

/**
 * The secret values the rules find in `text` and in each level of its
 * percent-decoding (at most 4: a URL inside a parameter, its password
 * encoded once more), so that they can be cut in whatever form the line
 * holds them: secret-named parameters and properties (also nested inside
 * another parameter), URL passwords, Bearer tokens, Basic credentials and
 * the password inside them. Each value as found and fully decoded.
 */
function secretsFound(text: string): string[] {
  const found = new Set<string>();
  const add = (v: string) => {
    found.add(v);
    let d = v;
    for (let round = 0; round < 4 && d.includes('%'); round++) found.add((d = decodeOnce(d)));
  };
  let t = text;
  for (let level = 0; level < 5; level++) {
    for (const m of t.matchAll(NAME_EQUALS_NESTED)) if (isSecretName(m[1]!)) add(m[2]!);
    for (const m of t.matchAll(JSON_PROPERTY)) if (isSecretName(m[1]!)) add(m[3]!);
    for (const m of t.matchAll(URL_PASSWORD)) add(m[2]!);
    for (const m of t.matchAll(AUTH_SCHEME)) {
      const credentials = m[0].slice(m[1]!.length + m[2]!.length);
      add(credentials);
      if (m[1]!.toLowerCase() === 'basic') {
        const plain = Buffer.from(credentials, 'base64').toString('utf8');
        const colon = plain.indexOf(':');
        if (colon >= 0) add(plain.slice(colon + 1));
      }
    }
    if (!t.includes('%')) break;
    const next = decodeOnce(t);
    if (next === t) break;
    t = next;
  }
  // API keys are cut to their prefix by KEY_IN_TEXT in every form that rule reads.
  return [...found].filter((v) => v.length >= MIN_SECRET_LENGTH && !v.includes(REDACTED) && !KEY_SHAPE.test(v));
}

/**
 * Every form of `secret` a line may hold: as written; percent-encoded (as
 * encodeURIComponent does, lower-case hex, every byte); and the part of its
 * base64 (standard, URL-safe, percent-encoded) that does not depend on the
 * bytes around it, at each of the three alignments, so that it is cut even
 * inside `base64(user:secret)`. Those leave at most two bytes at each end.
 */
function formsOf(secret: string): string[] {
  const bytes = Buffer.from(secret);
  const forms = new Set([secret, encodeURIComponent(secret), encodeURIComponent(secret).replace(/%[0-9A-F]{2}/g, (e) => e.toLowerCase())]);
  const every = [...bytes].map((b) => `%${b.toString(16).padStart(2, '0')}`).join('');
  forms.add(every).add(every.toUpperCase());
  for (let skip = 0; skip < 3; skip++) {
    const whole = Math.floor((bytes.length - skip) / 3) * 3;
    if (whole < 6) continue; // fewer than two groups would match ordinary text
    const b64 = bytes.subarray(skip, skip + whole).toString('base64');
    for (const f of [b64, b64.replace(/\+/g, '-').replace(/\//g, '_')]) forms.add(f).add(encodeURIComponent(f));
  }
  return [...forms];
}

/** The forms of each list of known secrets, computed once per list (a log stream passes the same list with every line). */
const formsCache = new WeakMap<readonly string[], string[]>();
function formsOfAll(secrets: readonly string[]): string[] {
  let forms = formsCache.get(secrets);
  if (!forms) {
    forms = secrets.filter((v) => v.length >= MIN_SECRET_LENGTH).flatMap(formsOf);
    formsCache.set(secrets, forms);
  }
  return forms;
}

/**
 * `text` with every secret cut (see the file's head). `secrets`: values to
 * remove wherever they appear (`secretValues`); shorter than 8 characters
 * they are ignored.
 */
export function redactSecrets(text: string, secrets: readonly string[] = []): string {
  // Only a line with an escape, an '@' or credentials can hide a secret the rules below do not cut where it stands.
  const found = MAY_HIDE.test(text) ? secretsFound(text) : [];
  let s = decodeUnreserved(text);
  // Each rule is skipped where the character its every match needs is absent: the same result, without the
  // regular expression's scan of the line (most server log lines have no '=' and no '@').
  if (s.includes('=')) s = redactParameters(s);
  s = s
    .replace(JSON_PROPERTY, (m: string, name: string, colon: string, value: string) => (value !== '' && value !== REDACTED && isSecretName(name) ? `"${name}"${colon}"${replacement(value)}"` : m))
    .replace(AUTH_SCHEME, `$1$2${REDACTED}`);
  if (s.includes('@')) s = s.replace(URL_PASSWORD, `$1:${REDACTED}@`);
  s = s.replace(KEY_IN_TEXT, (_m: string, prefix: string) => `${KEY_TAG}${prefix}…`);
  for (const form of [...formsOfAll(secrets), ...found.flatMap(formsOf)]) {
    if (s.includes(form)) s = s.split(form).join(REDACTED);
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
