/**
 * A many-machines deployment started by a test, every part a real process or
 * server: the MeteoHub emulator serving ICON-2I runs (ecCodes' grib_filter
 * from the real ICON-2I orography), s3rver as the bucket, the suite's Redis,
 * and `meteopunto worker` / `meteopunto serve` from dist/ as child processes.
 * Each "machine" (worker or API replica) gets its own empty METEOPUNTO_DATA
 * (a replica, its own METEOPUNTO_CACHE_DIR in it):
 * what they share is Redis (one queue prefix per deployment) and the bucket.
 *
 * Run k's 2 m temperature and dew point are k K above run 0's at every
 * valid time (./run-values.ts), so an answer's temperature tells which run
 * it came from.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { METEOHUB_DATASET, METEOHUB_DIRECTORY, startMeteohubEmulator, type MeteohubEmulator, type MeteohubRun } from '../../support/emulators/meteohub.js';
import { orographyHeights } from '../../support/icon-grib.js';
import { waitForListening } from '../../support/listening.js';
import { startS3Server, type S3TestServer } from '../../support/s3-server.js';
import { spawnWorker, type WorkerProcess } from '../../jobs/support/worker-process.js';
import { tempRoot, uniquePrefix } from '../../jobs/support/harness.js';

const CLI = resolve(import.meta.dirname, '../../../dist/cli/main.js');
const FEED = resolve(import.meta.dirname, 'children/feed-run.ts');
export const H = 3_600_000;
/** Land nodes of the ICON-2I test grid, in Italy: Po plain, Milan, Bologna, Turin, Bolzano. */
export const POINTS = [
  { lat: 45.1, lon: 9.5 }, { lat: 45.46, lon: 9.19 }, { lat: 44.49, lon: 11.34 }, { lat: 45.07, lon: 7.69 }, { lat: 46.5, lon: 11.35 },
];


/** Steps (h) of `run` covering `from` − 3 h (the trend) to `to` + 1 h. */
export function stepsCovering(run: Date, from: number, to: number): number[] {
  const first = Math.max(0, Math.floor((from - run.getTime()) / H) - 3);
  const last = Math.floor((to - run.getTime()) / H) + 1;
  return Array.from({ length: last - first + 1 }, (_, i) => first + i);
}

export interface Replica {
  name: string;
  url: string;
  child: ChildProcess;
  output(): string;
  stop(): Promise<void>;
}

/** `meteopunto serve` from dist/ on a free port; resolves once it listens. */
export async function startReplica(name: string, env: Record<string, string>): Promise<Replica> {
  const child = spawn(process.execPath, [CLI, 'serve', '--port', '0', '--host', '127.0.0.1'], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  // The request log of a long run: its end is enough for a failure message.
  const { url, output } = await waitForListening(child, `replica ${name}`, { timeoutMs: 60_000, keepChars: 20_000 });
  return {
    name, url, child, output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGTERM');
      // A replica still answering a client's open connections gets 10 s, then the kill.
      const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** `meteopunto <args>` from dist/, to completion. */
export function runCli(args: string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  return runChild(CLI, args, env);
}

/** `node <script> <args>` (a .ts script through tsx), to completion. */
function runChild(script: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; stdout: string; stderr: string }> {
  const loader = script.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...loader, script, ...args], { env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (b: Buffer) => (stdout += b.toString()));
  child.stderr.on('data', (b: Buffer) => (stderr += b.toString()));
  return new Promise((ok) => child.once('exit', (code) => ok({ code: code ?? -1, stdout, stderr })));
}

/** The nwp product of italy.jobs.json on the emulator, ticking every `tickSeconds`, without the ICON-EU fallback (and with only `variables`, given). */
function jobsConfig(hub: MeteohubEmulator, tickSeconds: number, lateAfterHours: number, variables?: string[]): object {
  const file = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../../jobs/examples/italy.jobs.json'), 'utf8'));
  const { fallback: _, ...nwp } = file.products.nwp;
  if (variables) {
    nwp.source.variables = variables;
    nwp.source.optionalVariables = [];
  }
  nwp.schedule = { everySeconds: tickSeconds };
  nwp.source = { ...nwp.source, root: hub.origin, dataset: METEOHUB_DATASET, directory: METEOHUB_DIRECTORY, lateAfterHours, maxWaitSeconds: 20, retryInPlace: { firstDelaySeconds: 0.05, maxDelaySeconds: 0.5 } };
  return { products: { nwp }, retry: { attempts: 3, backoffSeconds: 0.5 }, worker: { lockSeconds: 20, stalledCheckSeconds: 1, shutdownGraceSeconds: 2 } };
}

export interface Deployment {
  dir: string;
  hub: MeteohubEmulator;
  s3: S3TestServer;
  redisUrl: string;
  /** The bucket prefix of the tiles. */
  tiles: string;
  /** The environment every process of the bucket deployment shares (Redis, queue prefix, bucket, jobs config). */
  shared: Record<string, string>;
  heights: Float64Array;
  /** Writes run `k` (at `run`, the given steps) in a child process (./children/feed-run.ts), then serves it from the emulator. */
  publishRun(run: Date, k: number, steps: number[]): Promise<MeteohubRun>;
  worker(name: string, env?: Record<string, string>): WorkerProcess;
  replica(name: string, env?: Record<string, string>): Promise<Replica>;
  /** A new empty directory: one machine's METEOPUNTO_DATA. */
  machineDir(name: string): string;
  close(): Promise<void>;
}

export async function startDeployment(redisUrl: string, opts: { tickSeconds: number; lateAfterHours?: number; variables?: string[]; quotaEnv?: Record<string, string> }): Promise<Deployment> {
  const dir = tempRoot('machines');
  const heights = orographyHeights();
  const hub = await startMeteohubEmulator({ runs: [] });
  const s3 = await startS3Server();
  const tiles = `d-${uniquePrefix()}`;
  const configPath = join(dir, 'jobs.json');
  writeFileSync(configPath, JSON.stringify(jobsConfig(hub, opts.tickSeconds, opts.lateAfterHours ?? 24, opts.variables), null, 2));
  const shared = {
    REDIS_URL: redisUrl, METEOPUNTO_QUEUE_PREFIX: uniquePrefix(), METEOPUNTO_JOBS_CONFIG: configPath,
    ...s3.env(tiles), ...(opts.quotaEnv ?? {}),
  };
  const workers: WorkerProcess[] = [];
  const replicas: Replica[] = [];
  const dirs: string[] = [dir];
  let n = 0;
  const machineDir = (name: string) => {
    const d = tempRoot(`machine-${name}-${n++}`);
    dirs.push(d);
    return d;
  };
  return {
    dir, hub, s3, redisUrl, tiles, shared, heights, machineDir,
    async publishRun(run, k, steps) {
      const args = [join(dir, `k${k}`), run.toISOString(), String(k), steps.join(','), (opts.variables ?? []).join(',')];
      const out = await runChild(FEED, args);
      if (out.code !== 0) throw new Error(`feed-run ${k}: exit ${out.code}: ${out.stderr.slice(-2000)}`);
      const r = JSON.parse(out.stdout) as MeteohubRun;
      hub.publish({ ...r, run: new Date(r.run) });
      return r;
    },
    worker(name, env = {}) {
      const w = spawnWorker({ ...shared, METEOPUNTO_DATA: machineDir(name), ...env }, ['--name', name], { built: true });
      workers.push(w);
      return w;
    },
    async replica(name, env = {}) {
      // Its own data directory and its own (empty) disk cache of the bucket's objects.
      const data = machineDir(name);
      const r = await startReplica(name, { ...shared, METEOPUNTO_DATA: data, METEOPUNTO_CACHE_DIR: join(data, 'bucket-cache'), ...env });
      replicas.push(r);
      return r;
    },
    async close() {
      for (const w of workers) if (w.child.exitCode === null && w.child.signalCode === null) w.child.kill('SIGKILL');
      await Promise.all(workers.map((w) => w.exited));
      await Promise.all(replicas.map((r) => r.stop()));
      await hub.close();
      await s3.close();
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
    },
  };
}
