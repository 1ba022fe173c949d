/**
 * `meteopunto sources check [--json] [--at <time>]`: one line per configured source (and
 * fallback): reachable or not, and whether it returns what the product
 * expects (jobs/sources/source-check.ts). Exit 0 when every source passes,
 * 1 when one fails, 2 on wrong usage. Needs no Redis: it reads the jobs
 * configuration the workers read.
 */
import { parseArgs } from 'node:util';
import { dataDir } from '../config/paths.js';
import { processEnv } from '../config/process-env.js';
import { loadJobsConfig } from './config.js';
import { checkSources, formatChecks } from './sources/source-check.js';

const USAGE = `usage: meteopunto sources check [--json] [--at <time>]

  check each configured source: reachable, and returning what its product expects
  (the jobs configuration: METEOPUNTO_JOBS_CONFIG, else $METEOPUNTO_DATA/jobs.json)
  --at <time>  check the runs a schedule tick at that ISO 8601 time would fetch (default now)`;

/** \`sources check --help\`: what it does and its options. */
const CHECK_HELP = `usage: meteopunto sources check [--json] [--at <time>]

Checks each configured source (and fallback): reachable, and returning what its product expects.
Exit 0 when every source passes, 1 when one fails.

options:
  --json         the checks as JSON
  --at <time>    check the runs a schedule tick at that ISO 8601 time would fetch (default: now)

The jobs configuration: METEOPUNTO_JOBS_CONFIG, else $METEOPUNTO_DATA/jobs.json. Needs no Redis.`;

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (sub === '--help' || sub === '-h' || sub === 'help') {
    console.log(USAGE);
    return 0;
  }
  if (sub !== 'check') {
    console.error(USAGE);
    return 2;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    console.log(CHECK_HELP);
    return 0;
  }
  let json = false;
  let now = new Date();
  try {
    const { values } = parseArgs({ args: rest, options: { json: { type: 'boolean' }, at: { type: 'string' } }, strict: true });
    json = values.json === true;
    if (values.at !== undefined) {
      // A full date and time with its zone: a bare date would be read as UTC midnight without saying so.
      if (!/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/.test(values.at) || Number.isNaN(Date.parse(values.at))) {
        throw new Error(`--at: '${values.at}' is not an ISO 8601 time with its zone, e.g. 2026-11-26T10:30Z`);
      }
      now = new Date(values.at);
    }
  } catch (err) {
    console.error(`meteopunto sources check: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  const env = processEnv();
  const root = dataDir(env);
  let config;
  try {
    config = await loadJobsConfig(root, env);
  } catch (err) {
    console.error(`meteopunto sources check: ${(err as Error).message}`);
    return 1;
  }
  const checks = await checkSources(config, { root, now, env });
  const failed = checks.filter((c) => !c.ok).length;
  if (json) console.log(JSON.stringify({ config: config.path ?? 'built-in defaults', checks }, null, 2));
  else {
    console.log(`sources in ${config.path ?? 'the built-in defaults (inbox folders)'}:`);
    console.log(formatChecks(checks));
    console.log(failed ? `${failed} of ${checks.length} source(s) failed` : `all ${checks.length} source(s) ok`);
  }
  return failed ? 1 : 0;
}
