/**
 * Response headers for the JSON API, as helmet sets them: nosniff, a CSP
 * that allows nothing (a JSON answer loads no resources and is never
 * framed) and X-Frame-Options, no referrer, HSTS, the cross-origin
 * resource and opener policies (helmet's defaults less those only a page
 * uses: HELMET_OPTIONS); and
 * `Cache-Control: no-store` on weather.php, whose URL may carry the key and
 * whose every answer counts against a quota. widget.php (embeddable, its own
 * CSP and caching), the operator dashboard and the API document's page
 * (HTML apps; swagger-ui sets its own CSP) keep their own.
 *
 * Why helmet itself and not @fastify/helmet: the plugin builds a new helmet
 * middleware on every request (two hooks, option merging, a dozen header
 * functions), which measured about 10 % of a weather.php request's server
 * CPU. Our headers never vary (no CSP nonces), so helmet computes them once,
 * here, and each request copies the result.
 *
 * The names are kept in lower case, as Fastify stores and sends them
 * (reply.header lowercases every name): a name already in lower case comes
 * back from toLowerCase as the same constant string, so each of them is
 * stored under a key V8 already knows instead of a new string per request
 * (docs/benchmarks-journal.md, "The HTTP layer's header names").
 */
import fp from 'fastify-plugin';
import helmet, { type HelmetOptions } from 'helmet';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Which headers a request URL gets: `own` for the paths that set their own
 * (widget.php; /admin and /docs with what follows a `/`), `no-store` for
 * weather.php, `json` for the rest. weather.php is asked first: it is
 * nearly every request. Prefix tests and one character, not regular
 * expressions, on every request.
 */
export function headerSetOf(url: string): 'own' | 'no-store' | 'json' {
  if (pathIs(url, '/api/v1/weather.php', false)) return 'no-store';
  if (pathIs(url, '/api/v1/widget.php', false) || pathIs(url, '/admin', true) || pathIs(url, '/docs', true)) return 'own';
  return 'json';
}

/** `url` is `path`, with a query after it or (`orBelow`) a path below it. */
function pathIs(url: string, path: string, orBelow: boolean): boolean {
  if (!url.startsWith(path)) return false;
  if (url.length === path.length) return true;
  const next = url.charCodeAt(path.length);
  return next === QUESTION_MARK || (orBelow && next === SLASH);
}

const QUESTION_MARK = 0x3f;
const SLASH = 0x2f;

/**
 * helmet's defaults with a CSP that allows nothing, less five headers only a
 * browser rendering a page acts on (docs/api.md, "Response headers"): the
 * OWASP REST Security Cheat Sheet ("Security Headers") lists what an API's
 * answers need (Cache-Control: no-store, a CSP with frame-ancestors 'none',
 * Content-Type, Strict-Transport-Security, X-Content-Type-Options: nosniff,
 * X-Frame-Options), and none of these five is among them or protects a JSON
 * answer: Origin-Agent-Cluster (a document's agent cluster),
 * X-DNS-Prefetch-Control (link prefetching in a page), X-Download-Options
 * (Internet Explorer 8's "open" of a download), X-Permitted-Cross-Domain-Policies
 * (Flash and Acrobat policy files) and X-XSS-Protection: 0 (switches off a
 * filter browsers no longer have). Each header costs every answer Fastify's
 * and Node's work per name and about 30 bytes.
 */
export const HELMET_OPTIONS: HelmetOptions = {
  contentSecurityPolicy: { useDefaults: false, directives: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] } },
  originAgentCluster: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
};

/** The headers helmet sets with `options`, collected once from its middleware, names in lower case. */
export function helmetHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const res = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, res as unknown as ServerResponse, (err?: unknown) => (failure = err));
  if (failure) throw failure;
  return headers;
}

async function securityHeaders(fastify: FastifyInstance): Promise<void> {
  const json = helmetHeaders(HELMET_OPTIONS);
  const noStore = { ...json, 'cache-control': 'no-store' };
  fastify.addHook('onRequest', (request: FastifyRequest, reply: FastifyReply, done: () => void) => {
    const set = headerSetOf(request.url);
    if (set !== 'own') reply.headers(set === 'no-store' ? noStore : json);
    done();
  });
}

export default fp(securityHeaders, { name: 'meteopunto-security-headers', fastify: '5.x' });
