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
        if (q[name] === undefined) continue;
        const err = checkDecimal(name, q[name]);
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
