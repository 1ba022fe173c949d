/**
 * The server log's format: `pretty` for a person at a terminal (one readable
 * line per event), `json` for everything else (a supervisor, a container,
 * a log shipper: pino's JSON lines). METEOPUNTO_LOG_FORMAT forces either;
 * unset, the format follows whether stdout is a terminal.
 */
import { setting, type Environment } from './environment.js';

export type LogFormat = 'pretty' | 'json';

export function logFormat(env: Environment, stdoutIsTty: boolean): LogFormat {
  const forced = setting(env, 'METEOPUNTO_LOG_FORMAT')?.trim();
  if (forced === 'pretty' || forced === 'json') return forced;
  return stdoutIsTty ? 'pretty' : 'json';
}
