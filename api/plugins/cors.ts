/**
 * CORS for the JSON API (@fastify/cors): web pages on the origins the
 * operator lists in METEOPUNTO_CORS_ORIGINS may call weather.php (and read
 * the API document) from the browser. Unset: no CORS headers, so browsers
 * keep other sites' scripts from reading the answers; server-side clients
 * are unaffected either way.
 *
 * Why configuration and not per-key origins: a preflight (OPTIONS) carries
 * no X-API-Key, so the answer to it cannot depend on the key. A browser app
 * that must hide its key should call through its own backend anyway; one that
 * cannot uses a key whose quota the operator accepts exposing. widget.php
 * needs no CORS (a script tag or an iframe) and keeps its origin rules per
 * widget key (docs/access.md).
 *
 * A preflight is answered here (204) before any key check: it uses no quota.
 */
import cors from '@fastify/cors';
import type { FastifyInstance, FastifyRequest } from 'fastify';

/** Paths a browser may call cross-origin. */
const CORS_PATHS = /^\/api\/v1\/(weather\.php|openapi\.json)(\?|$)/;

/** The allowed origins from METEOPUNTO_CORS_ORIGINS: `*`, or comma-separated `scheme://host[:port]`; throws naming a bad one. */
export function parseCorsOrigins(raw: string | undefined): '*' | string[] {
  const list = (raw ?? '').split(',').map((s) => s.trim()).filter((s) => s !== '');
  if (list.length === 1 && list[0] === '*') return '*';
  for (const o of list) {
    let ok = false;
    try {
      const u = new URL(o);
      ok = (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === o;
    } catch {
      ok = false;
    }
    if (!ok) throw new Error(`METEOPUNTO_CORS_ORIGINS: '${o}' is not an origin (scheme://host[:port], no path or trailing slash), nor '*'`);
  }
  return list;
}

export async function registerCors(app: FastifyInstance, origins: '*' | string[]): Promise<void> {
  if (origins !== '*' && origins.length === 0) return;
  const allowed = origins === '*' ? null : new Set(origins);
  await app.register(cors, {
    delegator: (request: FastifyRequest, callback) => {
      const origin = request.headers.origin;
      const permitted = CORS_PATHS.test(request.url) && origin !== undefined && (allowed === null || allowed.has(origin));
      callback(null, {
        origin: permitted ? (allowed === null ? '*' : origin) : false,
        methods: ['GET'],
        allowedHeaders: ['X-API-Key'],
        exposedHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset', 'X-API-Version'],
        maxAge: 600,
      });
    },
  });
}
