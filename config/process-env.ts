/**
 * The process environment: the one module that touches `process.env`.
 * Everything else receives an `Environment` (tests pass their own).
 */
import type { Environment } from './environment.js';

export function processEnv(): Environment {
  return process.env;
}
