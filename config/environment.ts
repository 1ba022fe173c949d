/**
 * Reading the environment: `setting()` gives a variable's value by its
 * canonical name, falling back to its deprecated aliases, so every module
 * reads `METEOPUNTO_*` names whatever the operator set; `checkEnvironment()`
 * validates every declared variable at start-up (cli/main.ts) and says which
 * aliases are in use.
 */
import { domainFromEnv, DomainConfigError } from './domain.js';
import { VARIABLES, variableSpec, type VariableSpec } from './env-variables.js';
import { endpointProblem, tilesProblem } from './tiles-url.js';

export type Environment = Readonly<Record<string, string | undefined>>;

/** A malformed or unknown setting; the message names every variable at fault. */
export class ConfigError extends Error {
  override name = 'ConfigError';
}

const LOG_LEVELS = new Set(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

const present = (v: string | undefined): v is string => v !== undefined && v.trim() !== '';

/**
 * The value of a declared variable: the canonical name when set, else the
 * first alias set; undefined when none is (an empty string counts as unset).
 */
export function setting(env: Environment, name: string): string | undefined {
  const spec = variableSpec(name);
  if (!spec || spec.name !== name) throw new Error(`config: '${name}' is not a declared environment variable (config/env-variables.ts)`);
  if (present(env[name])) return env[name];
  for (const a of spec.aliases ?? []) if (present(env[a])) return env[a];
  return undefined;
}

/** As setting(), with the name the value came from (the canonical name or an alias), for messages. */
export function settingFrom(env: Environment, name: string): { value: string; from: string } | undefined {
  const value = setting(env, name);
  return value === undefined ? undefined : { value, from: sourceName(env, name) };
}

/** An integer setting in its declared range, or `fallback` when unset; ConfigError when malformed. */
export function integerSetting(env: Environment, name: string, fallback: number): number {
  const raw = setting(env, name);
  if (raw === undefined) return fallback;
  const problem = checkValue(variableSpec(name)!, raw);
  if (problem) throw new ConfigError(`${sourceName(env, name)}='${raw}': ${problem}`);
  return Number(raw.trim());
}

/** The name the value of `name` actually came from (canonical or alias), for messages. */
function sourceName(env: Environment, name: string): string {
  if (present(env[name])) return name;
  return variableSpec(name)!.aliases?.find((a) => present(env[a])) ?? name;
}

/** Why `raw` is not a valid value of `spec`, or null. */
function checkValue(spec: VariableSpec, raw: string): string | null {
  const k = spec.kind;
  const v = raw.trim();
  switch (k.type) {
    case 'string':
      return null;
    case 'integer': {
      if (!/^[+-]?\d+$/.test(v)) return `expected an integer${k.max === undefined ? ` ≥ ${k.min}` : ` in ${k.min}..${k.max}`}`;
      const n = Number(v);
      if (n < k.min || (k.max !== undefined && n > k.max)) return `expected an integer${k.max === undefined ? ` ≥ ${k.min}` : ` in ${k.min}..${k.max}`}`;
      return null;
    }
    case 'redis-url':
      return /^rediss?:\/\/\S*$/.test(v) ? null : 'expected a redis:// or rediss:// URL';
    case 'log-level':
      return LOG_LEVELS.has(v) ? null : `expected one of ${[...LOG_LEVELS].join(', ')}`;
    case 'choice':
      return k.values.includes(v) ? null : `expected one of ${k.values.join(', ')}`;
    case 'tiles':
      return tilesProblem(v);
    case 'endpoint-url':
      return endpointProblem(v);
    case 'domain':
      try {
        domainFromEnv({ [spec.name]: v });
        return null;
      } catch (err) {
        if (err instanceof DomainConfigError) return err.message.replace(/^[^:]*: /, '');
        throw err;
      }
  }
}

export interface EnvironmentReport {
  /** One line per deprecated alias in use. */
  notices: string[];
}

/**
 * Validates every declared variable of `env`. Throws one ConfigError listing
 * every malformed value (never a silent default); returns the deprecation
 * notices to log.
 */
export function checkEnvironment(env: Environment): EnvironmentReport {
  const errors: string[] = [];
  const notices: string[] = [];
  for (const spec of VARIABLES) {
    for (const a of spec.aliases ?? []) {
      if (!present(env[a])) continue;
      notices.push(
        present(env[spec.name])
          ? `${a} is deprecated and ignored: ${spec.name} is also set and wins`
          : `${a} is deprecated, use ${spec.name} (the old name will stop working in the next release)`,
      );
    }
    const raw = setting(env, spec.name);
    if (raw === undefined) continue;
    const problem = checkValue(spec, raw);
    if (problem) errors.push(`${sourceName(env, spec.name)}='${raw}': ${problem}`);
  }
  if (errors.length > 0) throw new ConfigError(`invalid configuration: ${errors.join('; ')} (see docs/configuration.md)`);
  return { notices };
}
