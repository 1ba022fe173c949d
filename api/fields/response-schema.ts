/**
 * weather.php's 200 schema, composed from the response builders
 * (./registry.ts): each builder's properties in builder order,
 * then `elapsed_ms`. The base builder's fields are required, the others
 * optional (a plan or `fields=` leaves them out). Listing every field keeps
 * unlisted ones from leaking; the route writes the body with the writer
 * compiled from it here (./response-json.ts), Fastify's fast-json-stringify
 * compiled from the same schema takes what that writer declines.
 */
import { Type, type TSchema } from '@sinclair/typebox';
import type { FieldBuilder } from './contract.js';
import { BUILDERS, ELAPSED_FIELD } from './registry.js';
import { PLAN_LABEL } from '../access/plans.js';
import type { DeveloperFields } from './developer/schema.js';
import { errorResponses } from '../weather/schema.js';
import { WEATHER_EXAMPLE } from '../weather/example.js';
import type { FreeFields } from './base/schema.js';
import { compileResponseJson } from './response-json.js';

export function responseSchema(builders: readonly FieldBuilder[]): TSchema {
  const properties: Record<string, TSchema> = {};
  const required: string[] = [];
  for (const b of builders) {
    for (const [name, schema] of Object.entries(b.properties)) {
      // The plan that gets the field, said in the API document (Fastify's serialiser ignores descriptions).
      const plan = b.minPlan === 'business' ? 'Business plan' : `${PLAN_LABEL[b.minPlan]} plan and above`;
      properties[name] = { ...schema, description: `${schema.description ?? name}. ${plan}` };
      if (b.required.includes(name)) required.push(name);
    }
  }
  properties[ELAPSED_FIELD] = Type.Number({ description: 'server processing time, ms. Free plan and above' });
  required.push(ELAPSED_FIELD);
  return Type.Unsafe({ type: 'object', properties, required });
}

/** The response as the route sees it: the Free fields always, the others when selected. */
export type WeatherResponse = FreeFields & Partial<DeveloperFields> & Record<string, unknown> & { elapsed_ms: number };

const okSchema = responseSchema(BUILDERS);

export const weatherResponses = {
  // The document's example is a real answer (../weather/example.ts), not one generated from the types.
  200: Type.Unsafe<WeatherResponse>({
    ...okSchema,
    description: "the fields of the key's plan (or of `fields=`) at the point, as JSON",
    examples: [WEATHER_EXAMPLE],
  }),
  ...errorResponses,
} as const;

/**
 * The 200 body as JSON, the bytes Fastify's fast-json-stringify would write for `weatherResponses[200]`
 * (./response-json.ts); undefined when a value is not plain, for the route to hand the object to Fastify.
 */
export const weatherJson = compileResponseJson(weatherResponses[200]);
