/**
 * Finding and checking the key a request presents (interface spec 5):
 * `api_key` (weather.php) or `key` (widget.php) in the query, else the
 * X-API-Key header. Widget keys with origins only load on pages of those
 * origins (the Origin header, else the origin of the Referer).
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../errors.js';
import type { Endpoint } from './contract.js';
import { prefixOf } from './key-format.js';
import { processKeyMemo, type KeyHashMemo } from './key-memo.js';
import type { KeyRecord, KeyStore } from './key-store.js';

/** Query parameter carrying the key on each endpoint. */
export const KEY_PARAM: Record<Endpoint, string> = { weather: 'api_key', widget: 'key' };

function first(v: unknown): string | undefined {
  const s = Array.isArray(v) ? v[0] : v;
  return typeof s === 'string' && s.trim() !== '' ? s.trim() : undefined;
}

/**
 * The key the request presents, or undefined; the query parameter wins over
 * the header. A repeated key parameter is refused whatever the order of its
 * values (one rule: 400 naming it, before any key is checked).
 */
export function presentedKey(request: FastifyRequest, endpoint: Endpoint): string | undefined {
  const query = request.query as Record<string, unknown> | undefined;
  const param = KEY_PARAM[endpoint];
  if (Array.isArray(query?.[param])) throw new ApiError('INVALID_PARAMETER', `${param} given more than once: pass one key`);
  return first(query?.[param]) ?? first(request.headers['x-api-key']);
}

export type Verification = { ok: true; record: KeyRecord } | { ok: false; reason: 'unknown' | 'revoked' };

/**
 * Checks a presented key against the store: well-formed, known prefix,
 * matching hash (constant time, or remembered from an earlier request by
 * `memo`, ./key-memo.ts), not revoked. Throws KeyStoreUnavailableError when
 * the store cannot answer.
 */
export async function verifyKey(store: KeyStore, presented: string, memo: KeyHashMemo = processKeyMemo): Promise<Verification> {
  const prefix = prefixOf(presented);
  if (!prefix) return { ok: false, reason: 'unknown' };
  const record = await store.get(prefix);
  if (!record || !memo.matches(presented, record.hash)) return { ok: false, reason: 'unknown' };
  if (record.revoked) return { ok: false, reason: 'revoked' };
  return { ok: true, record };
}

/**
 * The record of `presented` when verifyKey would accept it and nothing needs
 * I/O or a hash: the store holds the record ({@link KeyStore.cached}), the
 * memo remembers this key matching its hash, and it is not revoked; otherwise
 * undefined, and verifyKey decides. Lets the access plugin check the usual
 * request without a promise.
 */
export function knownKey(store: KeyStore, presented: string, memo: KeyHashMemo = processKeyMemo): KeyRecord | undefined {
  const prefix = prefixOf(presented);
  const record = prefix ? store.cached?.(prefix) : undefined;
  return record && !record.revoked && memo.remembers(presented, record.hash) ? record : undefined;
}

/** The origin of the embedding page, from Origin or Referer; undefined when neither is usable. */
export function requestOrigin(request: FastifyRequest): string | undefined {
  for (const h of [request.headers.origin, request.headers.referer]) {
    if (typeof h !== 'string' || h === 'null') continue;
    const origin = parseOrigin(h);
    if (origin) return origin;
  }
  return undefined;
}

/** `scheme://host[:port]` of a URL, lower-cased, or undefined. */
export function parseOrigin(url: string): string | undefined {
  try {
    const u = new URL(url);
    return u.protocol === 'http:' || u.protocol === 'https:' ? u.origin : undefined;
  } catch {
    return undefined;
  }
}

/** True when the record allows embedding from `origin` (records without origins allow any). */
export function originAllowed(record: KeyRecord, origin: string | undefined): boolean {
  if (!record.origins || record.origins.length === 0) return true;
  return origin !== undefined && record.origins.includes(origin);
}
