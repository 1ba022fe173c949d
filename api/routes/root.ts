/**
 * GET /: where to go from here. Someone who opens the server's address in a
 * browser, or curls it, learns the endpoints and where the manual is (the
 * API document's page, the OpenAPI document, /healthz) instead of a bare
 * 404. The answer is a constant: paths and the interface version only,
 * nothing about the data, the host or the software's versions.
 */
import { Type, type Static } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { API_VERSION } from '../plugins/api-version.js';
import { DOCS_PATH, OPENAPI_PATH } from '../plugins/openapi.js';
import { HEALTH_PATH } from './health.js';
import { WEATHER_PATH } from './weather.js';
import { WIDGET_PATH } from './widget.js';

export const ROOT_PATH = '/';

export const IndexSchema = Type.Object({
  service: Type.String(),
  description: Type.String(),
  api_version: Type.String({ description: 'the interface version, as X-API-Version' }),
  docs: Type.String({ description: 'the API document as a page' }),
  openapi: Type.String({ description: 'the API document, OpenAPI 3.1 JSON' }),
  health: Type.String({ description: 'health and the age of each product' }),
  endpoints: Type.Object({
    weather: Type.String({ description: 'JSON: the weather at a point (API key)' }),
    widget: Type.String({ description: 'the embeddable box (API or widget key)' }),
  }),
});
export type Index = Static<typeof IndexSchema>;

export const INDEX: Readonly<Index> = Object.freeze({
  service: 'Meteopunto',
  description: 'Point weather for Italy. Every endpoint but this one, /healthz and the API document needs an API key (api_key=, key= or the X-API-Key header).',
  api_version: API_VERSION,
  docs: DOCS_PATH,
  openapi: OPENAPI_PATH,
  health: HEALTH_PATH,
  endpoints: { weather: WEATHER_PATH, widget: WIDGET_PATH },
});

export default async function rootRoutes(fastify: FastifyInstance): Promise<void> {
  fastify.get<{ Reply: Index }>(
    ROOT_PATH,
    { schema: { tags: ['service'], summary: 'Where the endpoints and the API document are', response: { 200: { ...IndexSchema, description: 'the service, its endpoints and where its API document is' } } } },
    async () => INDEX,
  );
}
