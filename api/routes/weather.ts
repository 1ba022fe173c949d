/**
 * GET /api/v1/weather.php: weather at a point, the fields of the key's plan.
 *
 * Request lifecycle, in Fastify hook order:
 *   onRequest      access (api/access/plugin.ts): key → request.access (401), the
 *                  flood guard for refused keys and addresses (429)
 *   preValidation  strict numbers and timestamps (400 naming the parameter)
 *   validation     querystring schema: required, ranges (400 naming the parameter)
 *   handler        plan gating of fields=, time=, San Marino (403), the history's
 *                  start (400), then quota (429), then compute and write the JSON
 *   onSend         access: quota refunded when the answer failed, X-RateLimit-* headers
 * so that refused requests never consume quota (api/access/contract.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { strictQuery, parseUtcDateTime } from '../validation/strict-query.js';
import { WEATHER_NUMBER_PARAMS, WEATHER_TIME_PARAMS, WeatherQuerySchema, type WeatherQuery } from '../weather/schema.js';
import { weatherJson, weatherResponses, type WeatherResponse } from '../fields/response-schema.js';
import type { ObserveRequest } from '../weather/service.js';
import { DECIMALS, roundTo } from '../weather/precision.js';
import { elapsedMs } from '../plugins/timing.js';
import { assertPointAllowed, assertTimeAllowed, resolveFields } from '../access/gating.js';
import { WEATHER_SECURITY } from '../plugins/openapi.js';
import type { Plan } from '../access/contract.js';
import type { FieldGroup } from '../fields/registry.js';
import { ApiError } from '../errors.js';
import { HISTORY_START_ISO, HISTORY_START_MS } from '../../tiles/history-start.js';

export const WEATHER_PATH = '/api/v1/weather.php';

/** What Fastify sets for a JSON body it serialises: the answers serialised here say the same. */
const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

/** The validated query as the service's request. */
export function toObserveRequest(q: WeatherQuery, plan: Plan, groups: ReadonlySet<FieldGroup>): ObserveRequest {
  // Every property always present: one object shape for every request keeps the service's property loads monomorphic.
  return { lat: q.lat, lon: q.lon, altM: q.alt, timeMs: q.time === undefined ? undefined : parseUtcDateTime(q.time), plan, groups, only: undefined };
}

export default async function weatherRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get<{ Querystring: WeatherQuery; Reply: WeatherResponse | Buffer }>(
    WEATHER_PATH,
    {
      schema: {
        tags: ['weather'],
        summary: 'Weather at a point',
        description: "The fields of the key's plan at (lat, lon): Free fields always; Developer indices and air quality with a Developer key; coastal, soil and `time=` with a Business key. Each call uses one request of the key's quota; refused calls use none.",
        security: WEATHER_SECURITY,
        querystring: WeatherQuerySchema,
        response: weatherResponses,
      },
      config: { endpoint: 'weather' },
      // HEAD would compute the answer and spend quota for headers alone: refused (405, api/plugins/errors.ts).
      exposeHeadRoute: false,
      preValidation: strictQuery({ numbers: WEATHER_NUMBER_PARAMS, timestamps: WEATHER_TIME_PARAMS }),
    },
    async function weather(this: FastifyInstance, request: FastifyRequest<{ Querystring: WeatherQuery }>, reply: FastifyReply): Promise<WeatherResponse | Buffer> {
      const q = request.query;
      const { plan } = request.access!;
      const { groups } = resolveFields(plan, q.fields);
      if (q.time !== undefined) assertTimeAllowed(plan);
      assertPointAllowed(plan, q.lat, q.lon);
      const req = toObserveRequest(q, plan, groups);
      if (req.timeMs !== undefined && req.timeMs < HISTORY_START_MS) {
        throw new ApiError('INVALID_PARAMETER', `time: history starts at ${HISTORY_START_ISO} UTC (got ${q.time})`);
      }
      await this.consumeQuota(request, reply);
      const body = (this.weather.tryObserve(req) ?? (await this.weather.observe(req))) as WeatherResponse;
      // The assembled object is ours: extend it rather than copy it (hot path).
      body.elapsed_ms = roundTo(elapsedMs(request), DECIMALS.elapsed_ms);
      // Serialised here with the schema's compiled writer, straight into UTF-8 bytes (the same bytes as Fastify's
      // serialiser and Node's encoding of its text, in less time: api/fields/response-json.ts); a body it does not
      // take goes to Fastify's serialiser as before.
      const bytes = weatherJson(body);
      if (bytes === undefined) return body;
      // type(): the header stored under its lower-case name as header() stores it, without header()'s lower-casing and tests.
      reply.type(JSON_CONTENT_TYPE);
      return bytes;
    },
  );
}
