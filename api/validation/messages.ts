/**
 * Turn a schema validation failure (Ajv error objects, Fastify `error.validation`)
 * into the one-line message of a 400 INVALID_PARAMETER that names the
 * parameter and the rule it broke. Needs Ajv's `verbose` option (set in
 * api/app.ts) for the schema bounds and the offending value.
 */
import type { FastifySchemaValidationError } from 'fastify';
import { echo } from './strict-query.js';

interface VerboseError extends FastifySchemaValidationError {
  parentSchema?: { minimum?: number; maximum?: number; description?: string; enum?: unknown[] };
  data?: unknown;
}

/** The parameter an Ajv error is about: '/lat' → 'lat', required → the missing name. */
export function parameterOf(err: FastifySchemaValidationError): string {
  const missing = (err.params as { missingProperty?: string }).missingProperty;
  if (err.keyword === 'required' && missing) return missing;
  const path = err.instancePath.replace(/^\//, '').split('/')[0];
  return path ? decodeURIComponent(path.replace(/~1/g, '/').replace(/~0/g, '~')) : '(query)';
}

/** A message naming the parameter and the rule. */
export function validationMessage(errors: FastifySchemaValidationError[], context: string | undefined): string {
  const err = errors[0] as VerboseError | undefined;
  if (!err) return 'Invalid request';
  const name = parameterOf(err);
  const where = context === 'querystring' || context === undefined ? 'parameter' : `${context} field`;
  if (err.keyword === 'required') return `Missing required ${where} '${name}'`;
  if (err.keyword === 'type' && Array.isArray(err.data)) return `Invalid ${where} '${name}': given more than once`;
  const ps = err.parentSchema;
  let rule: string;
  if ((err.keyword === 'minimum' || err.keyword === 'maximum') && ps?.minimum !== undefined && ps.maximum !== undefined) {
    rule = `must be between ${ps.minimum} and ${ps.maximum}`;
  } else if (err.keyword === 'enum' && ps?.enum) {
    rule = `must be one of ${ps.enum.map(String).join(', ')}`;
  } else {
    rule = err.message ?? 'is invalid';
  }
  const got = err.data !== undefined && typeof err.data !== 'object' ? `, got ${echo(err.data)}` : '';
  const what = ps?.description ? ` (${ps.description})` : '';
  return `Invalid ${where} '${name}': ${rule}${what}${got}`;
}
