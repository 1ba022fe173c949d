/**
 * HTTP basic authentication for sources behind a login (EUMETSAT LSA SAF's
 * data server, as its own download examples use it: `wget --user --password`,
 * `requests` with HTTPBasicAuth). The configuration and the job data name
 * only the environment variables; the worker reads them when the job runs
 * and sends them in the Authorization header (RFC 7617), never in a URL, a
 * log line or an error.
 */
import { processEnv } from '../../config/process-env.js';
import type { HttpFetchOptions } from '../job-types.js';
import { SourceError } from './source-error.js';

/** The Authorization header for `auth`, or none; NO_CREDENTIALS (permanent) naming the variable that is not set. */
export function basicAuthHeaders(auth: HttpFetchOptions['basicAuth'], env: NodeJS.ProcessEnv = processEnv()): Record<string, string> | undefined {
  if (!auth) return undefined;
  const user = env[auth.userEnv];
  const password = env[auth.passwordEnv];
  for (const [name, value] of [[auth.userEnv, user], [auth.passwordEnv, password]] as const) {
    if (!value) throw new SourceError('NO_CREDENTIALS', `environment variable ${name} (the data server's login) is not set on this worker`, false);
  }
  return { authorization: `Basic ${Buffer.from(`${user}:${password}`, 'utf8').toString('base64')}` };
}
