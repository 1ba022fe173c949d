/**
 * The ingest crop domain: products crop their grids to it, plus a margin of
 * a few cells so that bilinear interpolation at the edge still has
 * neighbours. Configured by METEOPUNTO_DOMAIN (config/domain.ts); the default
 * is the box weather.php accepts (docs/api.md, parameters).
 */
import { DEFAULT_DOMAIN, domainFromEnv, type Domain } from '../../config/domain.js';
import { processEnv } from '../../config/process-env.js';
import { type Environment } from '../../config/environment.js';

export type { Domain } from '../../config/domain.js';

/** The interface's box (lat 35..48, lon 5..20.5): the default crop domain. */
export const SERVICE_DOMAIN: Readonly<Domain> = DEFAULT_DOMAIN;

/** The crop domain of this process (METEOPUNTO_DOMAIN, default SERVICE_DOMAIN). */
export function ingestDomain(env: Environment = processEnv()): Domain {
  return domainFromEnv(env);
}

/** Cells kept beyond the domain edge on every side. */
export const CROP_MARGIN_CELLS = 2;
