/**
 * GET /api/v1/weather.php: current conditions (Free fields) at a point.
 *
 * Request lifecycle, in Fastify hook order:
 *   onRequest      access (api/access): key → request.access (401)
 *   preValidation  strict numbers and timestamps (400 naming the parameter)
 *   validation     querystring schema: required, ranges (400 naming the parameter)
 *   preHandler     access: plan gating of fields=, time=, San Marino (403)
 *   handler        quota (429), then compute; nothing is computed for a refused request
 * so that refused requests never consume quota (api/access/contract.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { strictQuery, parseUtcDateTime } from '../validation/strict-query.js';
import { WEATHER_NUMBER_PARAMS, WEATHER_TIME_PARAMS, WeatherQuerySchema, weatherResponses, type WeatherQuery, type WeatherResponse } from '../weather/schema.js';
import type { PointQuery } from '../weather/observe.js';
import { DECIMALS, roundTo } from '../weather/precision.js';
import { elapsedMs } from '../plugins/timing.js';
import { assertPointAllowed, assertTimeAllowed, resolveFields } from '../access/gating.js';
import { planAtLeast } from '../access/plans.js';
import { observeDeveloper, tryObserveDeveloper } from '../weather/observe-developer.js';

export const WEATHER_PATH = '/api/v1/weather.php';

/** The validated query as the service's point request. */
export function toPointQuery(q: WeatherQuery): PointQuery {
  const p: PointQuery = { lat: q.lat, lon: q.lon };
  if (q.alt !== undefined) p.altM = q.alt;
  if (q.time !== undefined) p.timeMs = parseUtcDateTime(q.time);
  return p;
}

export default async function weatherRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get<{ Querystring: WeatherQuery; Reply: WeatherResponse }>(
    WEATHER_PATH,
    {
      schema: { querystring: WeatherQuerySchema, response: weatherResponses },
      config: { endpoint: 'weather' },
      preValidation: strictQuery({ numbers: WEATHER_NUMBER_PARAMS, timestamps: WEATHER_TIME_PARAMS }),
    },
    async function weather(this: FastifyInstance, request: FastifyRequest<{ Querystring: WeatherQuery }>, reply: FastifyReply): Promise<WeatherResponse> {
      const q = request.query;
      const { plan } = request.access!;
      const { groups } = resolveFields(plan, q.fields);
      if (q.time !== undefined) assertTimeAllowed(plan);
      assertPointAllowed(plan, q.lat, q.lon);
      const point = toPointQuery(q);
      await this.consumeQuota(request, reply);
      const body = (this.weather.tryObserve(point) ?? (await this.weather.observe(point))) as WeatherResponse;
      if (planAtLeast(plan, 'developer')) {
        // Same point, same valid time, same altitude correction as the Free fields (observe-developer.ts).
        const dq = { lat: q.lat, lon: q.lon, altM: q.alt, timeMs: point.timeMs ?? Date.parse(body.valid_time) };
        const tiles = this.tiles;
        Object.assign(body, tryObserveDeveloper(tiles, dq, groups) ?? (await observeDeveloper(tiles, dq, groups)));
      }
      // The assembled object is ours: extend it rather than copy it (hot path).
      body.elapsed_ms = roundTo(elapsedMs(request), DECIMALS.elapsed_ms);
      return body;
    },
  );
}
