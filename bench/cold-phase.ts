/**
 * The cold phase, as users meet it: weather.php at random points across
 * Italy right after a server starts and right after a new forecast version
 * is published, against the bare route measured in the same run.
 *
 * 1. The sample dataset (`meteopunto demo`'s, every product) is built in a
 *    temp dir.
 * 2. The bare route is loaded for BENCH_SECONDS (./servers.ts).
 * 3. `meteopunto serve` starts as a child process, as in production (keys and
 *    quotas in Redis with BENCH_REDIS_URL, a Business key, request lines off).
 *    The bench waits for /healthz 200, as a load balancer does, asks one point
 *    (the first answer), then loads random points for BENCH_SECONDS: the
 *    start phase.
 * 4. A copy of the live nwp version is published through the real publish
 *    path (temp dir, rename, current.json), under load: from the publish until
 *    BENCH_SECONDS after /healthz names the new version (which includes the
 *    time the old version answers while the new one warms): the publish
 *    phase.
 * 5. The next BENCH_SECONDS, warm: the reference the two are read against
 *    (on a loaded machine its p99 is no better than theirs).
 * 6. The floor (./floor.ts): the answer at the first point, captured from
 *    the server, which then stops; replayed behind the access layer alone,
 *    in rounds alternating with the same bare route (BENCH_SECONDS each in
 *    all).
 * 7. The same answers computed without HTTP, in a child process
 *    (./answer-in-process.ts): what the answer computes, apart from what
 *    serving it adds.
 *
 * The bare route is loaded again right after the start phase and right
 * after the publish phase (the serve process idle), so each phase is read
 * against the mean of the bare windows just before and just after it: a
 * burst of load from elsewhere on a shared machine then weighs on both sides
 * of its ratio, as the HTTP section's alternating rounds do, instead of on
 * one side only (one bare window before everything, as until 2026-11-27,
 * let one run's start ratio read 0.22 where the next read 0.33).
 *
 * Each phase's p99 and requests/s over the bare route's go to the run's
 * targets (./targets.ts); beside them, the serve process's CPU per request
 * (/proc, ./process-cpu.ts) and the bare route's over it, which a loaded
 * machine moves far less than requests/s (./cold-phase-report.ts). Alone: `BENCH_SECTIONS=cold-phase npm run bench`.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildSampleDataset } from '../ingest/sample/build.js';
import { productDir } from '../config/paths.js';
import { readManifestSync } from '../tiles/manifest-file.js';
import { commitVersion, createTempVersion, newVersionName } from '../tiles/write/publish.js';
import { tileStorage } from '../tiles/storage/open.js';
import { processEnv } from '../config/process-env.js';
import { setting } from '../config/environment.js';
import type { PointQuery } from '../api/weather/service.js';
import { benchAccessEnv, createBenchKey } from './api-key.js';
import { load, measureWith, pathsOf, type HttpBenchOptions } from './http.js';
import { combineRounds, ROUNDS, type LoadResult } from './rounds.js';
import { floorAgainstBare, floorPath, withFloorServer, type FloorResult, type FloorSource, type Running } from './floor.js';
import type { ReplayRoute } from './replay.js';
import { withServer } from './servers.js';
import { cpuPerRequest, processCpu } from './process-cpu.js';
import { measureInChild, type InProcessAnswers } from './answer-in-process.js';

const WEATHER_PATH = '/api/v1/weather.php';
/** A starting server must be ready within this (the sample's warm takes seconds). */
const READY_TIMEOUT_MS = 180_000;

export interface ColdPhase {
  what: string;
  load: LoadResult;
  /** Seconds the phase covered. */
  seconds: number;
  /** The bare route's windows just before and just after the phase: what its ratio is read against. */
  bare: readonly [LoadResult, LoadResult];
}

export interface ColdPhaseResult {
  /** The bare route before the server started. */
  bare: LoadResult;
  /** From spawn: listening (/healthz answers), ready (/healthz 200), ms. */
  listeningMs: number;
  readyMs: number;
  firstAnswerMs: number;
  start: ColdPhase;
  /** From the publish to /healthz naming the new version, ms. */
  switchMs: number;
  publish: ColdPhase;
  /** Right after, warm: the reference. */
  steady: ColdPhase;
  /** After the server stopped: the bare route and the floor (the first point's answer replayed behind the access layer) in alternating rounds. */
  floor: { bare: LoadResult; floor: FloorResult };
  /** The same answers computed without HTTP (in a child process), once the server has stopped. */
  inProcess: InProcessAnswers;
}

function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const s = createServer();
    s.once('error', fail);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => ok(port));
    });
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function health(base: string): Promise<{ status: number; nwpVersion: string | null } | null> {
  try {
    const r = await fetch(`${base}/healthz`, { signal: AbortSignal.timeout(5000) });
    const body = (await r.json()) as { products?: Record<string, { version: string | null }> };
    return { status: r.status, nwpVersion: body.products?.nwp?.version ?? null };
  } catch {
    return null;
  }
}

/** `meteopunto serve` on `port` over `root`, as deployed (request lines off: the bare route logs nothing either). */
function startServe(root: string, port: number): ChildProcess {
  const env: NodeJS.ProcessEnv = { ...processEnv(), ...benchAccessEnv(root), PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', METEOPUNTO_LOG_FORMAT: 'json' };
  // Never the caller's Redis: BENCH_REDIS_URL or none (bench/api-key.ts).
  if (!setting(processEnv(), 'BENCH_REDIS_URL')) delete env.REDIS_URL;
  const main = fileURLToPath(new URL('../cli/main.js', import.meta.url));
  return spawn(process.execPath, [main, 'serve'], { env, stdio: ['ignore', 'inherit', 'inherit'] });
}

/** Publish a copy of the live nwp version through the real path (temp dir, rename, current.json); returns its name. */
async function publishCopy(root: string, prepared: { dir: string; version: string; manifest: NonNullable<ReturnType<typeof readManifestSync>> }): Promise<string> {
  const temp = { dir: prepared.dir, release: () => undefined };
  await commitVersion(tileStorage(root), 'nwp', temp, { ...prepared.manifest, version: prepared.version, published: new Date().toISOString() });
  return prepared.version;
}

/** `run`'s load with the serve process's CPU per answered request over it (/proc; none where there is no /proc). */
async function withCpu(pid: number | undefined, run: () => Promise<LoadResult>): Promise<LoadResult> {
  const before = processCpu(pid);
  const r = await run();
  const cpu = cpuPerRequest(before, processCpu(pid), r.requests + r.errors);
  return cpu ? { ...r, ...cpu } : r;
}

/** The copy is made before the server starts, so the publish itself is only the switch. */
async function prepareCopy(root: string) {
  const dir = productDir(root, 'nwp');
  const m = readManifestSync(dir);
  if (!m) throw new Error(`${dir}: no nwp published`);
  const temp = await createTempVersion(dir);
  temp.release();
  cpSync(join(dir, m.version), temp.dir, { recursive: true });
  return { dir: temp.dir, version: newVersionName(new Date()), manifest: m };
}

/**
 * The bare route and the floor in {@link ROUNDS} alternating windows of
 * `opts.seconds / ROUNDS` s (a warm-up before the first of each): the floor's
 * ratio per round, as the HTTP section takes it (./floor.ts).
 */
async function bareAndFloorRounds(bare: Running, floor: Running, route: ReplayRoute, opts: HttpBenchOptions, apiKey: string): Promise<{ bare: LoadResult; floor: FloorResult }> {
  const win = { ...opts, seconds: opts.seconds / ROUNDS };
  const b: LoadResult[] = [];
  const f: LoadResult[] = [];
  for (let round = 0; round < ROUNDS; round++) {
    const warm = round === 0 ? {} : { warmupMs: 0 };
    b.push(await measureWith('bare', bare.child, bare.base, win, apiKey, warm));
    f.push(await measureWith('floor', floor.child, floor.base, win, apiKey, { ...warm, path: route.path }));
  }
  return { bare: combineRounds(b), floor: floorAgainstBare(f, b, route) };
}

/** SIGTERM to `meteopunto serve`, and its exit. */
async function stopServe(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((r) => child.once('exit', r));
  child.kill('SIGTERM');
  await gone;
}

export async function runColdPhaseBench(opts: { dataDir?: string; seconds: number; connections: number; points: PointQuery[] }): Promise<ColdPhaseResult> {
  const root = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'mp-bench-cold-'));
  let child: ChildProcess | undefined;
  try {
    if (!opts.dataDir) {
      const t = performance.now();
      await buildSampleDataset({ root });
      console.log(`cold phase: sample dataset built in ${((performance.now() - t) / 1000).toFixed(0)} s`);
    }
    const apiKey = await createBenchKey(root, 'business');
    const paths = pathsOf(WEATHER_PATH, opts.points);
    const httpOpts: HttpBenchOptions = { ...opts, dataDir: root, keys: [] };
    // The bare route is up throughout: loaded before the server starts, and in rounds with the floor after it stops.
    return await withServer('bare', root, [], async (bareChild, bareBase) => {
      const bare = await measureWith('bare', bareChild, bareBase, httpOpts, apiKey);
      const prepared = await prepareCopy(root);

      const port = await freePort();
      const base = `http://127.0.0.1:${port}`;
      const t0 = performance.now();
      child = startServe(root, port);
      const exited = new Promise<never>((_ok, fail) => child!.once('exit', (code) => fail(new Error(`meteopunto serve exited with ${code}`))));
      exited.catch(() => undefined);
      let listeningMs = NaN;
      for (;;) {
        if (performance.now() - t0 > READY_TIMEOUT_MS) throw new Error(`cold phase: the server was not ready within ${READY_TIMEOUT_MS / 1000} s`);
        const h = await Promise.race([health(base), exited]);
        if (h && Number.isNaN(listeningMs)) listeningMs = performance.now() - t0;
        if (h?.status === 200) break;
        await sleep(50);
      }
      const readyMs = performance.now() - t0;
      const t1 = performance.now();
      const first = await fetch(`${base}${paths[0]}`, { headers: { 'X-API-Key': apiKey } });
      if (first.status !== 200) throw new Error(`cold phase: first answer ${first.status}: ${await first.text()}`);
      await first.arrayBuffer();
      const firstAnswerMs = performance.now() - t1;
      const pid = child.pid;
      const startLoad = await withCpu(pid, () => load(base, paths, apiKey, opts.connections, { ms: opts.seconds * 1000 }));
      const bareAfterStart = await measureWith('bare', bareChild, bareBase, httpOpts, apiKey, { warmupMs: 0 });

      // The publish, under load: the load runs from the publish until `seconds` after the switch.
      let switchedAt: number | undefined;
      const loadStart = performance.now();
      const publishLoad = withCpu(pid, () => load(base, paths, apiKey, opts.connections, { until: () => switchedAt !== undefined && performance.now() >= switchedAt + opts.seconds * 1000 }));
      await sleep(200);
      const publishedAt = performance.now();
      const version = await publishCopy(root, prepared);
      for (;;) {
        const h = await Promise.race([health(base), exited]);
        if (h?.nwpVersion === version) break;
        if (performance.now() - publishedAt > READY_TIMEOUT_MS) throw new Error(`cold phase: ${version} not live within ${READY_TIMEOUT_MS / 1000} s`);
        await sleep(50);
      }
      switchedAt = performance.now();
      const pub = await publishLoad;
      const bareAfterPublish = await measureWith('bare', bareChild, bareBase, httpOpts, apiKey, { warmupMs: 0 });
      // The same server warm, for reference: what the machine gives now, with nothing left to decode.
      const steady = await withCpu(pid, () => load(base, paths, apiKey, opts.connections, { ms: opts.seconds * 1000 }));
      // The floor: the answer at the first point, captured from the server, replayed behind the access layer once it has stopped.
      const source: FloorSource = { path: floorPath('business'), endpoint: 'weather', from: base, capturePath: paths[0]!, apiKey };
      const floor = await withFloorServer(root, [source], async (f, [route]) => {
        await stopServe(child);
        return bareAndFloorRounds({ child: bareChild, base: bareBase }, f, route!, httpOpts, apiKey);
      });
      const inProcess = await measureInChild(root, opts.points);
      return {
        bare, listeningMs, readyMs, firstAnswerMs,
        start: { what: 'start', load: startLoad, seconds: opts.seconds, bare: [bare, bareAfterStart] },
        switchMs: switchedAt - publishedAt,
        publish: { what: 'publish', load: pub, seconds: (switchedAt - loadStart) / 1000 + opts.seconds, bare: [bareAfterStart, bareAfterPublish] },
        steady: { what: 'steady', load: steady, seconds: opts.seconds, bare: [bareAfterPublish, floor.bare] },
        floor,
        inProcess,
      };
    });
  } finally {
    await stopServe(child);
    if (!opts.dataDir) rmSync(root, { recursive: true, force: true });
  }
}
