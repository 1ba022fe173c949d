/**
 * `meteopunto jobs <enqueue|status|retry|schedules>`: the operator's view of
 * the ingest queue. Every subcommand needs REDIS_URL.
 */
import { ENQUEUE_USAGE, enqueueCommand } from './commands/enqueue.js';
import { RETRY_USAGE, retryCommand } from './commands/retry.js';
import { schedulesCommand } from './commands/schedules.js';
import { statusCommand } from './commands/status.js';
import { UsageError } from './commands/context.js';

const SUBCOMMANDS: Record<string, (argv: string[]) => Promise<number>> = {
  enqueue: enqueueCommand,
  status: statusCommand,
  retry: retryCommand,
  schedules: schedulesCommand,
};

const USAGE = `usage: meteopunto jobs <command>

  ${ENQUEUE_USAGE}
      queue an ingest of the product's configured source (run default: newest published)
      or of local files; shows progress until it completes (exit 0) or fails (exit 1)
  jobs status [--json]       queue counts, last success and data age per product, recent failures
  ${RETRY_USAGE}   run a failed (or completed) ingest job again
  jobs schedules [--json]    configured schedules and their next run

Needs REDIS_URL. Run times are UTC: 2026-11-21T12, 2026-11-21T12:00Z or 2026112112.`;

/** `jobs <command> --help`: what the command does and its options. */
const HELP: Record<string, string> = {
  enqueue: `usage: meteopunto ${ENQUEUE_USAGE}

Queues an ingest of <product>: of its configured source for a run, or of local files.
Shows progress until the job completes (exit 0) or fails (exit 1).

options:
  --run <time>     the model run, UTC: 2026-11-21T12, 2026-11-21T12:00Z or 2026112112
                   (default: the newest run the source's cycle says is published)
  --file <path>    ingest this file instead (repeatable; the workers must be able to read it)
  --allow <check>  let one ingest gate check through for this job, recorded in the manifest
                   (repeatable; see docs/gate.md)
  --no-wait        return once queued

Needs REDIS_URL.`,
  status: `usage: meteopunto jobs status [--json]

Queue counts, each product's last success and data age, and recent failures with their reasons.

options:
  --json    the same as JSON

Needs REDIS_URL.`,
  retry: `usage: meteopunto ${RETRY_USAGE}

Runs a failed (or completed) ingest job again, by the id jobs status shows.

options:
  --allow <check>  let one ingest gate check through this time, recorded in the manifest
                   (repeatable; see docs/gate.md)
  --no-wait        return once queued

Needs REDIS_URL.`,
  schedules: `usage: meteopunto jobs schedules [--json]

The configured schedules and when each runs next.

options:
  --json    the same as JSON

Needs REDIS_URL.`,
};

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    console.log(USAGE);
    return sub ? 0 : 2;
  }
  const cmd = SUBCOMMANDS[sub];
  if (Object.hasOwn(SUBCOMMANDS, sub) && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(HELP[sub] ?? USAGE);
    return 0;
  }
  if (!cmd) {
    console.error(`meteopunto jobs: unknown command '${sub}'\n\n${USAGE}`);
    return 2;
  }
  try {
    return await cmd(rest);
  } catch (err) {
    const e = err as Error & { code?: string };
    // parseArgs errors (unknown option, missing value) are usage errors too.
    const usage = err instanceof UsageError || (typeof e.code === 'string' && e.code.startsWith('ERR_PARSE_ARGS'));
    console.error(`meteopunto jobs ${sub}: ${e.message}`);
    return usage ? 2 : 1;
  }
}
