/**
 * The operator token guarding /admin/*: `METEOPUNTO_ADMIN_TOKEN`. Accepted as
 * `Authorization: Bearer <token>` (scripts), or — for browsers — once as
 * `?token=<token>`, which sets an HttpOnly cookie scoped to the dashboard and
 * redirects to the same URL without the token. The cookie holds a digest of
 * the token, not the token. Comparisons are constant-time.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { ErrorBody } from '../errors.js';

export const COOKIE_NAME = 'mp_admin';
/** Browser sessions last 12 hours. */
const COOKIE_MAX_AGE_S = 12 * 3600;
export const MIN_TOKEN_LENGTH = 16;

function digest(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/** Constant-time equality of two strings (compared through fixed-length digests). */
function sameSecret(a: string, b: string): boolean {
  return timingSafeEqual(digest(a), digest(b));
}

export function cookieValue(token: string): string {
  return createHash('sha256').update(`meteopunto-admin-cookie:${token}`).digest('hex');
}

/** A cookie's value as sent: ours is hex, so nothing is decoded (a stray `%` is just a wrong value). */
function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i > 0 && part.slice(0, i).trim() === name) return part.slice(i + 1).trim();
  }
  return undefined;
}

/**
 * Where the login redirect goes: the URL asked for without its token, when
 * it resolves inside the dashboard; else the dashboard's own page. A URL
 * parser resolves dot segments (`static/../../..//evil.example`), and a
 * path starting `//` would send the browser to another host.
 */
function loginRedirect(url: URL, basePath: string): string {
  url.searchParams.delete('token');
  const inside = url.pathname === basePath || url.pathname.startsWith(`${basePath}/`);
  return inside ? url.pathname + url.search : basePath + url.search;
}

function unauthorized(reply: FastifyReply, code: 'MISSING_KEY' | 'INVALID_KEY', message: string): FastifyReply {
  const body: ErrorBody = { error: { code, message } };
  return reply.code(401).header('www-authenticate', 'Bearer realm="meteopunto-admin"').header('cache-control', 'no-store').type('application/json; charset=utf-8').send(body);
}

/** An onRequest hook that lets only the operator through. */
export function operatorGuard(token: string, basePath: string) {
  const expectedCookie = cookieValue(token);
  return async function guard(request: FastifyRequest, reply: FastifyReply): Promise<void> {
    const auth = request.headers.authorization;
    if (auth !== undefined) {
      const m = /^Bearer\s+(.+)$/i.exec(auth.trim());
      if (m && sameSecret(m[1]!, token)) return;
      unauthorized(reply, 'INVALID_KEY', 'operator token is wrong (Authorization: Bearer <METEOPUNTO_ADMIN_TOKEN>)');
      return reply;
    }
    const cookie = readCookie(request.headers.cookie, COOKIE_NAME);
    if (cookie !== undefined && sameSecret(cookie, expectedCookie)) return;

    const url = new URL(request.url, 'http://placeholder');
    const given = url.searchParams.get('token');
    if (given !== null) {
      if (!sameSecret(given, token)) {
        unauthorized(reply, 'INVALID_KEY', 'operator token is wrong');
        return reply;
      }
      const secure = request.protocol === 'https' ? '; Secure' : '';
      reply
        .header('set-cookie', `${COOKIE_NAME}=${expectedCookie}; Path=${basePath}; HttpOnly; SameSite=Strict; Max-Age=${COOKIE_MAX_AGE_S}${secure}`)
        .header('cache-control', 'no-store')
        .redirect(loginRedirect(url, basePath), 303);
      return reply;
    }
    unauthorized(
      reply,
      cookie === undefined ? 'MISSING_KEY' : 'INVALID_KEY',
      cookie === undefined
        ? `operator token required: send Authorization: Bearer <METEOPUNTO_ADMIN_TOKEN>, or open ${basePath}?token=<METEOPUNTO_ADMIN_TOKEN> once in a browser`
        : 'dashboard session expired or token changed: open the dashboard with ?token= again',
    );
    return reply;
  };
}
