/**
 * `meteopunto worker [--concurrency <n>] [--name <label>]`: runs the ingest
 * and schedule workers until SIGTERM/SIGINT. On the first signal it stops
 * taking jobs and waits for the running ones (up to the configured shutdown
 * grace, then hands them back to the queue); a second signal hands them back
 * at once. Exits 0 after a clean shutdown.
 */
import { hostname } from 'node:os';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { dataDir } from '../config/paths.js';
import { queuePrefix } from '../config/queues.js';
import { runIngest } from '../ingest/pipeline.js';
import { announcePublished, publishedStores } from '../tiles/publish-channel.js';
import { credentialEnvNames, loadJobsConfig } from './config.js';
import { redactingStream, secretValues } from '../config/redaction.js';
import { checkRedis, requireRedisUrl } from './connection.js';
import { SHUTDOWN_REASON } from './job-types.js';
import { startWorkers } from './worker.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';

const USAGE = `usage: meteopunto worker [--concurrency <n>] [--name <label>]

Runs BullMQ ingest workers and the product schedules. Needs REDIS_URL.
  --concurrency <n>  ingest jobs run at once by this process (default 1, env METEOPUNTO_WORKER_CONCURRENCY)
  --name <label>     worker name shown in the dashboard (default <host>:<pid>)
Configuration: $METEOPUNTO_DATA/jobs.json or METEOPUNTO_JOBS_CONFIG (docs/jobs.md).`;

export async function run(argv: string[]): Promise<number> {
  let values: { concurrency?: string; name?: string; help?: boolean };
  try {
    ({ values } = parseArgs({
      args: argv,
      options: { concurrency: { type: 'string' }, name: { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (err) {
    console.error(`meteopunto worker: ${(err as Error).message}\n\n${USAGE}`);
    return 2;
  }
  if (values.help) {
    console.log(USAGE);
    return 0;
  }
  const rawConcurrency = values.concurrency ?? setting(processEnv(), 'METEOPUNTO_WORKER_CONCURRENCY') ?? '1';
  const concurrency = Number(rawConcurrency);
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 64) {
    console.error(`meteopunto worker: --concurrency must be an integer 1..64, got '${rawConcurrency}'`);
    return 2;
  }

  let redisUrl: string;
  try {
    redisUrl = requireRedisUrl();
    await checkRedis(redisUrl);
  } catch (err) {
    console.error(`meteopunto worker: ${(err as Error).message}`);
    return 1;
  }
  const root = dataDir();
  const config = await loadJobsConfig(root).catch((err: Error) => err);
  if (config instanceof Error) {
    console.error(`meteopunto worker: ${config.message}`);
    return 1;
  }
  // Every log line passes the redaction rule, with the environment's credentials and the sources' keys removed.
  const log = pino({ name: 'meteopunto-worker' }, redactingStream(pino.destination(1), secretValues(processEnv(), credentialEnvNames(config))));

  const workers = await startWorkers({
    redisUrl,
    prefix: queuePrefix(),
    root,
    config,
    concurrency,
    name: values.name ?? `${hostname()}:${process.pid}`,
    // Each publish is announced to the API servers (tiles/publish-channel.ts); a failure only delays them.
    runIngest: async (req) => {
      const report = await runIngest(req);
      await announcePublished(redisUrl, publishedStores(report)).catch((err: Error) =>
        log.warn({ event: 'announce-failed', product: report.product, err: err.message }, `published ${report.product}, but the announcement failed: the API servers find it at their next manifest check`));
      return report;
    },
    logger: log,
  });

  return new Promise<number>((resolveExit) => {
    let signals = 0;
    const onSignal = (sig: NodeJS.Signals) => {
      signals++;
      if (signals === 1) {
        log.info({ event: 'shutdown', signal: sig }, `${sig}: no new jobs; waiting for running jobs (up to ${config.worker.shutdownGraceMs / 1000} s)`);
        workers.close().then(
          () => {
            log.info({ event: 'stopped' }, 'worker stopped');
            resolveExit(0);
          },
          (err: Error) => {
            log.error({ event: 'stopped', err: err.message }, `shutdown failed: ${err.message}`);
            resolveExit(1);
          },
        );
      } else {
        log.warn({ event: 'shutdown-cancel', signal: sig }, `${sig} again: handing running jobs back now`);
        workers.ingest.cancelAllJobs(SHUTDOWN_REASON);
        workers.schedule.cancelAllJobs(SHUTDOWN_REASON);
      }
    };
    process.on('SIGTERM', onSignal);
    process.on('SIGINT', onSignal);
  });
}
