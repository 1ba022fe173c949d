/**
 * GET /api/v1/widget.php: the embeddable weather box (interface spec 2.2,
 * 4.2; docs/widget.md).
 *
 * The same request lifecycle as weather.php (api/routes/weather.ts): access
 * in onRequest (key, widget-key origin), strict numbers and the schema
 * (weather.php's lat/lon/alt), the San Marino plan rule, then the quota,
 * then the base builder through the shared WeatherService, so the box shows
 * the very values weather.php returns for the same point, plan and instant.
 *
 * Refusals and failures are rendered as a box with the reason in Italian,
 * by this plugin's own error handler, with the HTTP status of the error.
 * One exception, because browsers do not run a script served with an error
 * status: in js mode, when the browser says it is loading a script
 * (`Sec-Fetch-Dest: script`), the refusal is sent as 200 with the real status
 * in `X-Meteopunto-Status` (and the code in `X-Meteopunto-Error`). The
 * access layer's bookkeeping (refunds, flood guard) runs before that switch
 * and sees the real status.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { assertPointAllowed } from '../access/gating.js';
import { toGatedFailure } from '../plugins/errors.js';
import { strictQuery } from '../validation/strict-query.js';
import { WEATHER_NUMBER_PARAMS } from '../weather/schema.js';
import type { FreeFields } from '../fields/base/schema.js';
import { WIDGET_SECURITY } from '../plugins/openapi.js';
import { CONTENT_TYPE, renderRefusal } from '../widget/render.js';
import { servedBody } from '../widget/body.js';
import { refusalReason } from '../widget/refusal.js';
import { presentationOf, WidgetHeadersSchema, WidgetQuerySchema, type Presentation, type WidgetQuery } from '../widget/schema.js';
import { iframeCsp } from '../widget/documents.js';
import { widgetResponses } from '../widget/responses.js';
import { widgetView } from '../widget/view.js';
import { toObserveRequest } from './weather.js';
import { route } from '../router/route.js';

export const WIDGET_PATH = '/api/v1/widget.php';

/**
 * How long browsers keep a served box, s. The values are interpolated
 * linearly in time between hourly model steps and the box shows the time to
 * the minute: ten minutes keeps a reload within a sixth of a step. A load
 * answered from the browser's cache never reaches the server and uses no
 * quota. `private`: a shared cache could not apply a widget key's origin rule.
 */
export const WIDGET_MAX_AGE_S = 600;

/** Cache-Control of a served box (one string for every answer). */
const SERVED_CACHE_CONTROL = `private, max-age=${WIDGET_MAX_AGE_S}`;

const NO_GROUPS: ReadonlySet<never> = new Set();
/** The base builder alone (one constant array: the service caches its selection by identity). */
const ONLY_BASE: readonly string[] = ['base'];

function fetchDest(request: FastifyRequest): string | undefined {
  const d = request.headers['sec-fetch-dest'];
  return typeof d === 'string' ? d : undefined;
}

/**
 * Headers every widget answer carries. Names in lower case, as Fastify stores
 * and sends them: no new string per header and answer (api/plugins/security-headers.ts).
 */
function commonHeaders(reply: FastifyReply, p: Presentation): void {
  reply.header('content-type', CONTENT_TYPE[p.mode]);
  reply.header('x-content-type-options', 'nosniff');
  // The body depends on the mode, which may come from Sec-Fetch-Dest.
  reply.header('vary', 'Sec-Fetch-Dest, X-API-Key');
  if (p.mode === 'js') reply.header('cross-origin-resource-policy', 'cross-origin');
}

/**
 * The run time of the forecast answering the base fields at the point, as
 * its manifest records it (null when it records none). Routed again, by the
 * same rules as the service; a version published in between would give a
 * run at most one publication newer than the values.
 */
function baseRun(app: FastifyInstance, lat: number, lon: number, timeMs: number): string | null {
  return route(app.products, app.tiles, 'base', lat, lon, timeMs).vs?.manifest.source.run ?? null;
}

export default async function widgetRoutes(fastify: FastifyInstance): Promise<void> {
  /** Requests whose refusal is sent as 200 (js mode to a browser's script loader). */
  const scriptRefusals = new WeakSet<FastifyRequest>();

  fastify.setErrorHandler(async function widgetError(error: FastifyError | Error, request: FastifyRequest, reply: FastifyReply) {
    const f = await toGatedFailure(error, request);
    const p = presentationOf(request.query, fetchDest(request));
    for (const [name, value] of Object.entries(f.headers)) reply.header(name, value);
    commonHeaders(reply, p);
    reply.header('Cache-Control', 'no-store');
    reply.header('X-Meteopunto-Error', f.code);
    // Refusals hold no data: any page may show them, so the reason is seen even where the origin is not allowed.
    if (p.mode === 'iframe') reply.header('Content-Security-Policy', iframeCsp(p, undefined));
    if (p.mode === 'js' && fetchDest(request) === 'script') scriptRefusals.add(request);
    const body = renderRefusal({ status: f.status, code: f.code, message: f.message, reason: refusalReason(f) }, p);
    reply.code(f.status);
    return body;
  });

  // Runs after the access plugin's onSend (parent hooks first), which must see the real status.
  fastify.addHook('onSend', (request: FastifyRequest, reply: FastifyReply, payload: unknown, done: (err: null, payload: unknown) => void) => {
    if (scriptRefusals.has(request)) {
      reply.header('X-Meteopunto-Status', reply.statusCode);
      reply.code(200);
    }
    done(null, payload);
  });

  fastify.get<{ Querystring: WidgetQuery }>(
    WIDGET_PATH,
    {
      schema: {
        tags: ['widget'],
        summary: 'The embeddable weather box',
        description: 'An HTML page (mode=iframe) or a script drawing the box where its tag stands (mode=js), in Italian, self-contained. One load uses one request of the key\'s quota. Refusals are drawn in the box with their status (docs/widget.md).',
        security: WIDGET_SECURITY,
        querystring: WidgetQuerySchema,
        headers: WidgetHeadersSchema,
        response: widgetResponses,
      },
      config: { endpoint: 'widget' },
      // HEAD would draw the box and spend quota for headers alone (browsers load scripts and frames with GET): 405, as weather.php.
      exposeHeadRoute: false,
      preValidation: strictQuery({ numbers: WEATHER_NUMBER_PARAMS }),
    },
    async function widget(this: FastifyInstance, request: FastifyRequest<{ Querystring: WidgetQuery }>, reply: FastifyReply): Promise<Buffer> {
      const q = request.query;
      const access = request.access!;
      assertPointAllowed(access.plan, q.lat, q.lon);
      const req = toObserveRequest(q, access.plan, NO_GROUPS);
      req.only = ONLY_BASE;
      await this.consumeQuota(request, reply);
      const fields = (this.weather.tryObserve(req) ?? (await this.weather.observe(req))) as FreeFields;
      const runIso = baseRun(this, q.lat, q.lon, Date.parse(fields.valid_time));
      const p = presentationOf(q, fetchDest(request));
      commonHeaders(reply, p);
      reply.header('cache-control', SERVED_CACHE_CONTROL);
      if (p.mode === 'iframe') reply.header('content-security-policy', iframeCsp(p, access.origins));
      return servedBody(widgetView(fields, { lat: q.lat, lon: q.lon, name: q.name, runIso }), p);
    },
  );
}
