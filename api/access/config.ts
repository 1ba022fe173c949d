/**
 * Access configuration: quotas per plan and the flood guard, read from the
 * environment. The TypeBox schema is the one source of the type, the defaults
 * and the variable names: each leaf `a.bC` is read from `METEOPUNTO_A_B_C`
 * (e.g. quota.free.day ← METEOPUNTO_QUOTA_FREE_DAY; the `MP_` names are
 * deprecated aliases, config/env-variables.ts).
 */
import { Type, type Static, type TObject, type TSchema } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import { processEnv } from '../../config/process-env.js';
import { settingFrom, type Environment } from '../../config/environment.js';

const limits = (day: number, minute: number) =>
  Type.Object({
    day: Type.Integer({ minimum: 1, default: day, description: 'requests per UTC day (resets 00:00 UTC)' }),
    minute: Type.Integer({ minimum: 1, default: minute, description: 'requests per minute (a 60 s window from the first request)' }),
  });

export const AccessConfigSchema = Type.Object({
  quota: Type.Object({
    free: limits(50, 2),
    developer: limits(10_000, 60),
    business: limits(200_000, 600),
  }),
  flood: Type.Object({
    refusedPerMinute: Type.Integer({
      minimum: 1,
      default: 30,
      description: 'refused requests (4xx other than 429) per minute per key, or per IP without a valid key, before 429 TOO_MANY_REQUESTS',
    }),
  }),
  keys: Type.Object({
    staleIfErrorS: Type.Integer({
      minimum: 0,
      default: 300,
      description: 'with Redis unreachable, a key verified within this many seconds is still accepted (0: refuse with 503)',
    }),
  }),
});

export type AccessConfig = Static<typeof AccessConfigSchema>;
export type QuotaLimits = AccessConfig['quota']['free'];

function envName(path: string[]): string {
  return ['METEOPUNTO', ...path.map((p) => p.replace(/[A-Z]/g, (c) => `_${c}`))].join('_').toUpperCase();
}

/** Reads the configuration from `env`; throws naming the variable when a value is not a valid integer in range. */
export function loadAccessConfig(env: Environment = processEnv()): AccessConfig {
  const errors: string[] = [];
  const read = (schema: TSchema, path: string[]): unknown => {
    if (schema.type === 'object') {
      return Object.fromEntries(Object.entries((schema as TObject).properties).map(([k, s]) => [k, read(s, [...path, k])]));
    }
    const name = envName(path);
    const got = settingFrom(env, name);
    if (got === undefined) return schema.default;
    const n = Number(got.value.trim());
    if (!Value.Check(schema, n)) errors.push(`${got.from}=${got.value}: expected an integer ≥ ${schema.minimum}`);
    return n;
  };
  const config = read(AccessConfigSchema, []);
  if (errors.length > 0) throw new Error(`invalid access configuration: ${errors.join('; ')}`);
  return Value.Decode(AccessConfigSchema, config);
}
