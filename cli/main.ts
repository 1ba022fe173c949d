#!/usr/bin/env node
/**
 * `meteopunto <command> ...`: the single CLI entry point. Each command lives
 * beside the module it drives and is loaded only when called, so `serve`
 * never loads BullMQ and `tiles point` never loads Fastify.
 */
import { checkEnvironment, ConfigError } from '../config/environment.js';
import { processEnv } from '../config/process-env.js';
import { secretValues } from '../config/redaction.js';
import { redactCliOutput } from './redacted-output.js';
import { existsSync, readFileSync } from 'node:fs';
import { joinNegativeValues } from './argv.js';

type CommandModule = { run(argv: string[]): Promise<number> };

const COMMANDS: Record<string, { summary: string; load: () => Promise<CommandModule> }> = {
  start: { summary: 'build sample data when ./data has no tiles, then serve (what `npm start` runs)', load: () => import('./start.js') },
  serve: { summary: 'serve the API: serve [--port <n>] [--host <h>]', load: () => import('../api/cli.js') },
  ingest: { summary: 'ingest files inline: ingest <product> <file>...', load: () => import('../ingest/cli.js') },
  demo: { summary: 'build the labelled sample dataset through the real ingest path', load: () => import('../ingest/sample/cli.js') },
  tiles: { summary: 'inspect tiles: tiles point|info|ls|verify|gc|render ...', load: () => import('../tiles/ops/cli.js') },
  keys: { summary: 'manage API keys: keys create|list|show|revoke|set-plan|import', load: () => import('../api/access/cli.js') },
  worker: { summary: 'run BullMQ ingest workers (needs REDIS_URL)', load: () => import('../jobs/cli-worker.js') },
  jobs: { summary: 'operate the ingest queue: jobs enqueue|status|retry|schedules', load: () => import('../jobs/cli.js') },
  sources: { summary: 'check each configured source: sources check [--json] [--at <time>]', load: () => import('../jobs/sources-cli.js') },
  backfill: { summary: 'reanalysis history by year: backfill reanalysis --from <y> --to <y> | backfill status', load: () => import('../jobs/backfill/cli.js') },
};

function usage(): string {
  const lines = Object.entries(COMMANDS).map(([name, c]) => `  ${name.padEnd(8)} ${c.summary}`);
  return `usage: meteopunto <command> [options]\n\ncommands:\n${lines.join('\n')}\n\n\`meteopunto <command> --help\` and \`meteopunto <command> <subcommand> --help\` say more; --version prints the version.\n\nenvironment: METEOPUNTO_DATA (data directory, default ./data), REDIS_URL, PORT, ... (docs/configuration.md)`;
}

/** package.json's version: one level up from cli/main.ts, two from dist/cli/main.js. */
function version(): string {
  const near = new URL('../package.json', import.meta.url);
  const file = existsSync(near) ? near : new URL('../../package.json', import.meta.url);
  return (JSON.parse(readFileSync(file, 'utf8')) as { version: string }).version;
}

async function main(argv: string[]): Promise<number> {
  const [name, ...rest] = joinNegativeValues(argv);
  // Before anything is written: every message passes the redaction rule (./redacted-output.ts).
  redactCliOutput(name ?? '', secretValues(processEnv()));
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    console.log(usage());
    return name ? 0 : 2;
  }
  if (name === '--version' || name === '-V' || name === 'version') {
    console.log(`meteopunto ${version()}`);
    return 0;
  }
  const cmd = COMMANDS[name];
  if (!cmd) {
    console.error(`meteopunto: unknown command '${name}'\n\n${usage()}`);
    return 2;
  }
  // Every environment variable is checked once, here, before any command runs.
  try {
    for (const notice of checkEnvironment(processEnv()).notices) console.error(`meteopunto: warning: ${notice}`);
  } catch (err) {
    if (!(err instanceof ConfigError)) throw err;
    console.error(`meteopunto: ${err.message}`);
    return 2;
  }
  const mod = await cmd.load();
  return mod.run(rest);
}

main(process.argv.slice(2)).then(
  (code) => {
    if (code !== 0) process.exitCode = code;
  },
  (err: unknown) => {
    console.error(`meteopunto: ${err instanceof Error ? err.message : String(err)}`);
    process.exitCode = 1;
  },
);
