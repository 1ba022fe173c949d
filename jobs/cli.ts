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

export async function run(argv: string[]): Promise<number> {
  const [sub, ...rest] = argv;
  if (!sub || sub === '--help' || sub === '-h' || sub === 'help') {
    console.log(USAGE);
    return sub ? 0 : 2;
  }
  const cmd = SUBCOMMANDS[sub];
  // `<command> --help`: the usage lists every command's options.
  if (Object.hasOwn(SUBCOMMANDS, sub) && (rest.includes('--help') || rest.includes('-h'))) {
    console.log(USAGE);
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
