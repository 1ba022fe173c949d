/**
 * Strict reading of numeric and timestamp query parameters, run as a
 * preValidation hook before the schema's own checks.
 *
 * Why: Fastify's Ajv coerces query strings with JavaScript's Number(), which
 * accepts '0x1f', ' 42 ', 'Infinity' and '1e999' (→ Infinity). A weather API
 * should take plain decimal numbers only, so this hook rejects anything else
 * with a 400 naming the parameter; the schema then coerces and range-checks.
 * A parameter given twice is refused too (which value would win is arbitrary).
 */
import type { FastifyRequest, preValidationHookHandler } from 'fastify';
import { ApiError } from '../errors.js';

/** Plain decimal with optional sign, fraction and exponent: "45", "-3.5", ".5", "4.5e1". */
const DECIMAL = /^[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?$/;

/**
 * ISO 8601 date and time of day, UTC implied; seconds, fraction and a
 * trailing Z optional. Each field within its range, so that the API
 * document's pattern says what is accepted (a day past the month's end is
 * the one thing left to parseUtcDateTime).
 */
export const ISO_DATETIME_PATTERN = '^\\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\\d|3[01])T(?:[01]\\d|2[0-3]):[0-5]\\d(?::[0-5]\\d(?:\\.\\d{1,9})?)?Z?$';
const ISO_DATETIME = new RegExp(ISO_DATETIME_PATTERN);

/** Longest raw value echoed back in a message. */
const ECHO_MAX = 32;

export interface StrictQuerySpec {
  /** Parameters that must be plain finite decimal numbers when present. */
  numbers?: readonly string[];
  /** Parameters that must be ISO 8601 date-times (UTC) naming a real instant when present. */
  timestamps?: readonly string[];
}

/** Quote a raw value for an error message, shortened. */
export function echo(raw: unknown): string {
  const s = String(raw);
  return JSON.stringify(s.length > ECHO_MAX ? `${s.slice(0, ECHO_MAX)}…` : s);
}

function invalid(name: string, reason: string): ApiError {
  return new ApiError('INVALID_PARAMETER', `Invalid parameter '${name}': ${reason}`);
}

/** Check one raw value as a decimal number; returns the error or null. */
export function checkDecimal(name: string, raw: unknown): ApiError | null {
  if (Array.isArray(raw)) return invalid(name, 'given more than once');
  if (typeof raw !== 'string') return invalid(name, 'must be a number');
  if (raw === '') return invalid(name, 'empty; a decimal number is required');
  if (!DECIMAL.test(raw)) {
    const hint = /^[+-]?\d+,\d+$/.test(raw) ? ' (use a dot as the decimal separator)' : '';
    return invalid(name, `${echo(raw)} is not a decimal number${hint}`);
  }
  if (!Number.isFinite(Number(raw))) return invalid(name, `${echo(raw)} is not a finite number`);
  return null;
}

/** 10^k for k = 0…22: the powers of ten a double holds exactly. */
const EXACT_POWERS: readonly number[] = Array.from({ length: 23 }, (_, k) => 10 ** k);
/** Largest integer every smaller one of which a double holds exactly (2^53). */
const EXACT_INTEGERS = 2 ** 53;
/** String.prototype.charCodeAt called as the builtin (why: api/fields/string-bytes.ts). */
const charCode = String.prototype.charCodeAt;

/**
 * Number(raw) when `raw` is a plain decimal ({@link DECIMAL}'s grammar, scanned here by hand), else NaN. Digits
 * with at most 22 decimals, 15 significant digits and no exponent (every coordinate a client sends) are read as
 * integer / 10^k, which IEEE division rounds correctly since both are exact doubles (Clinger's fast path, W. D.
 * Clinger, "How to read floating point numbers accurately", PLDI 1990): the same double as Number(raw), without
 * its runtime call. Anything else in the grammar goes to Number(raw).
 */
export function decimalValue(raw: string): number {
  const n = raw.length;
  let i = 0;
  let c = n > 0 ? charCode.call(raw, 0) : -1;
  const negative = c === 0x2d;
  if (c === 0x2b || c === 0x2d) c = ++i < n ? charCode.call(raw, i) : -1;
  let m = 0;
  let digits = 0;
  let decimals = 0;
  while (c >= 0x30 && c <= 0x39) {
    m = m * 10 + (c - 0x30);
    digits++;
    c = ++i < n ? charCode.call(raw, i) : -1;
  }
  if (c === 0x2e) {
    c = ++i < n ? charCode.call(raw, i) : -1;
    while (c >= 0x30 && c <= 0x39) {
      m = m * 10 + (c - 0x30);
      digits++;
      decimals++;
      c = ++i < n ? charCode.call(raw, i) : -1;
    }
  }
  if (digits === 0) return NaN;
  if (c === 0x65 || c === 0x45) {
    c = ++i < n ? charCode.call(raw, i) : -1;
    if (c === 0x2b || c === 0x2d) c = ++i < n ? charCode.call(raw, i) : -1;
    if (!(c >= 0x30 && c <= 0x39)) return NaN;
    while (c >= 0x30 && c <= 0x39) c = ++i < n ? charCode.call(raw, i) : -1;
    return i === n ? Number(raw) : NaN;
  }
  if (i !== n) return NaN;
  // m is exact while below 2^53 (15 digits always are).
  if (digits > 15 || decimals > 22 || m >= EXACT_INTEGERS) return Number(raw);
  const v = m / EXACT_POWERS[decimals]!;
  return negative ? -v : v;
}

/** Milliseconds since the epoch of a validated ISO date-time (UTC when no Z), or NaN when it names no real instant (2023-02-30). */
export function parseUtcDateTime(raw: string): number {
  if (!ISO_DATETIME.test(raw)) return NaN;
  const iso = raw.endsWith('Z') ? raw : `${raw}Z`;
  const ms = Date.parse(iso);
  if (!Number.isFinite(ms)) return NaN;
  // Date.parse rolls 2023-02-30 over to March: require the fields to survive.
  return new Date(ms).toISOString().slice(0, 16) === iso.slice(0, 16) ? ms : NaN;
}

/** Check one raw value as a timestamp; returns the error or null. */
export function checkTimestamp(name: string, raw: unknown): ApiError | null {
  if (Array.isArray(raw)) return invalid(name, 'given more than once');
  if (typeof raw !== 'string' || Number.isNaN(parseUtcDateTime(raw))) {
    return invalid(name, `${echo(raw)} is not an ISO 8601 date and time in UTC, e.g. 2024-07-01T12:00`);
  }
  return null;
}

/** A preValidation hook enforcing the spec on the raw query string values. */
export function strictQuery(spec: StrictQuerySpec): preValidationHookHandler {
  const numbers = spec.numbers ?? [];
  const timestamps = spec.timestamps ?? [];
  return function strictQueryHook(request: FastifyRequest, _reply, done) {
    const q = request.query as Record<string, unknown> | undefined;
    if (q) {
      for (const name of numbers) {
        const raw = q[name];
        if (raw === undefined) continue;
        // The usual value, read once: stored as the number the schema's coercion would make of it (Number(raw)),
        // which then has nothing to coerce (it converted each value three more times). Anything else: the checks.
        const v = typeof raw === 'string' ? decimalValue(raw) : NaN;
        if (v - v === 0) {
          q[name] = v;
          continue;
        }
        const err = checkDecimal(name, raw);
        if (err) return done(err);
      }
      for (const name of timestamps) {
        if (q[name] === undefined) continue;
        const err = checkTimestamp(name, q[name]);
        if (err) return done(err);
      }
    }
    done();
  };
}
