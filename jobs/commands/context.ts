/** What every `meteopunto jobs ...` command opens: Redis (checked), configuration, queue handles. */
import { dataDir } from '../../config/paths.js';
import { queuePrefix } from '../../config/queues.js';
import { loadJobsConfig, type JobsConfig } from '../config.js';
import { checkRedis, requireRedisUrl } from '../connection.js';
import { openQueues, type Queues } from '../queues.js';
import { processEnv } from '../../config/process-env.js';
import { CHECK_NAMES, isCheckName } from '../../ingest/gate/check.js';

export interface CommandContext {
  redisUrl: string;
  prefix: string;
  root: string;
  config: JobsConfig;
  queues: Queues;
  close(): Promise<void>;
}

export async function openContext(env: NodeJS.ProcessEnv = processEnv()): Promise<CommandContext> {
  const redisUrl = requireRedisUrl(env);
  await checkRedis(redisUrl);
  const root = dataDir(env);
  const config = await loadJobsConfig(root, env);
  const prefix = queuePrefix(env);
  const queues = openQueues(redisUrl, prefix);
  return { redisUrl, prefix, root, config, queues, close: () => queues.close() };
}

/** '35 min ago', '2 h 5 min ago', '3 d ago' (negative: 'in ...'). */
export function ago(fromMs: number, nowMs = Date.now()): string {
  const s = Math.round((nowMs - fromMs) / 1000);
  const a = Math.abs(s);
  const text = a < 90 ? `${a} s` : a < 5400 ? `${Math.round(a / 60)} min` : a < 172_800 ? `${Math.floor(a / 3600)} h ${Math.round((a % 3600) / 60)} min` : `${Math.round(a / 86_400)} d`;
  return s >= 0 ? `${text} ago` : `in ${text}`;
}

/** Wrong arguments: the CLI prints the message and exits 2. */
export class UsageError extends Error {}

/** `--allow` values: ingest gate check names (ingest/gate/check.ts); an unknown one is a UsageError naming the known ones. */
export function allowedChecksOrUsage(names: readonly string[] | undefined): string[] {
  const unknown = (names ?? []).filter((n) => !isCheckName(n));
  if (unknown.length > 0) throw new UsageError(`--allow ${unknown[0]}: no such gate check (checks: ${CHECK_NAMES.join(', ')})`);
  return [...new Set(names ?? [])];
}
