/**
 * weather.php's query schema and error responses: the single source of their
 * types (TypeBox → JSON Schema for Fastify's validator and serialiser). Its
 * 200 schema is composed from the field groups (api/fields/response-schema.ts).
 */
import { Type, type Static } from '@sinclair/typebox';
import { errorResponseSchema } from '../errors.js';
import { ISO_DATETIME_PATTERN } from '../validation/strict-query.js';
import { FIELD_GROUPS } from '../fields/registry.js';

/** Geographic bounds the spec gives for weather.php, degrees. */
export const LAT_RANGE = { min: 35, max: 48 } as const;
export const LON_RANGE = { min: 5, max: 20.5 } as const;
/**
 * `alt` bounds, m. Italy spans −3.4 m (Jolanda di Savoia) to 4808 m (Mont
 * Blanc); the margin admits any place on land in Europe and refuses values
 * that are obviously feet or a typo.
 */
export const ALT_RANGE = { min: -500, max: 5000 } as const;

/** Numeric query parameters read strictly (api/validation/strict-query.ts). */
export const WEATHER_NUMBER_PARAMS = ['lat', 'lon', 'alt'] as const;
export const WEATHER_TIME_PARAMS = ['time'] as const;

export const WeatherQuerySchema = Type.Object({
  lat: Type.Number({ minimum: LAT_RANGE.min, maximum: LAT_RANGE.max, description: 'latitude, degrees north' }),
  lon: Type.Number({ minimum: LON_RANGE.min, maximum: LON_RANGE.max, description: 'longitude, degrees east' }),
  alt: Type.Optional(Type.Number({ minimum: ALT_RANGE.min, maximum: ALT_RANGE.max, description: 'altitude of the point, metres above sea level' })),
  time: Type.Optional(Type.String({ pattern: ISO_DATETIME_PATTERN, description: 'valid time, ISO 8601 UTC (Business plan)' })),
  // Read by the access layer (api/access): declared so their types are known.
  fields: Type.Optional(Type.String({ maxLength: 200, description: `comma-separated field groups: ${FIELD_GROUPS.join(', ')}` })),
  api_key: Type.Optional(Type.String({ maxLength: 200, description: 'API key' })),
});
export type WeatherQuery = Static<typeof WeatherQuerySchema>;

const errorSchema = (status: number) => Type.Unsafe<{ error: { code: string; message: string } }>(errorResponseSchema(status));

/** Error responses the weather routes can answer, one schema per status (codes and examples: api/errors.ts). */
export const errorResponses = {
  400: errorSchema(400),
  401: errorSchema(401),
  403: errorSchema(403),
  404: errorSchema(404),
  405: methodNotAllowedResponse(),
  429: errorSchema(429),
  500: errorSchema(500),
  503: errorSchema(503),
} as const;

/** 405, for a method the path does not answer (HEAD, POST, ...): the error, and `Allow` naming the methods it does. */
export function methodNotAllowedResponse() {
  return Type.Unsafe<{ error: { code: string; message: string } }>({
    ...errorResponseSchema(405),
    description: 'METHOD_NOT_ALLOWED: the path asked with a method it does not answer (HEAD, POST, ...; this operation is GET)',
    headers: { Allow: { type: 'string', description: 'the methods the path answers: GET' } },
  });
}
