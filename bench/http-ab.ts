/**
 * A/B of two builds' HTTP servers on the same data, keys and Redis, in
 * alternating windows (the common brief: A = main's build, B = yours):
 *
 *   node dist/bench/http-ab.js <dataDir> <A dist/bench/servers.js> <B dist/bench/servers.js> [rounds] [seconds]
 *
 * Builds the bench data and one key per plan (Business, Free) into
 * `dataDir` the first time (kept, so later runs skip the 90 s build; the
 * data stay valid for two days), starts each build's `weather` and `access`
 * server (./servers.ts, forked from the file given), then per round loads,
 * in the order A B or B A (swapped every round), the access layer alone,
 * weather.php with each key and widget.php with the Free key, and prints
 * each window's server CPU per request (µs), weather.php's `elapsed_ms`
 * median and the load average. Keys and
 * quotas in Redis with BENCH_REDIS_URL (as the http section); BENCH_AB_WINDOWS
 * (e.g. `business,widget`) measures only those windows, BENCH_PROFILE_DIR
 * writes a CPU profile of each server.
 */
import { fork, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import type { Plan } from '../api/access/contract.js';
import { createBenchKey } from './api-key.js';
import { benchPoints, buildBenchData } from './data.js';
import { elapsedInto, load, measureWith, WIDGET_BENCH_QUERY, type HttpBenchOptions } from './http.js';
import { processCpu } from './process-cpu.js';
import { median } from './rounds.js';
import { ACCESS_PATH, type ServerKind } from './servers.js';
import { processEnv } from '../config/process-env.js';
import { integerSetting, setting } from '../config/environment.js';

const env = processEnv();

interface Server { child: ChildProcess; base: string }

function start(serversJs: string, kind: ServerKind, dataDir: string, opts: HttpBenchOptions): Promise<Server> {
  const profileDir = setting(env, 'BENCH_PROFILE_DIR');
  const execArgv = profileDir ? ['--cpu-prof', `--cpu-prof-dir=${profileDir}`] : [];
  const child = fork(serversJs, ['--bench-server', kind, dataDir], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'], execArgv });
  return new Promise((ok, fail) => {
    child.once('exit', (code) => fail(new Error(`${serversJs} ${kind} exited with ${code}`)));
    child.on('message', (msg: { listening?: string; ready?: string }) => {
      if (msg.listening) child.send({ warm: opts.points });
      if (msg.ready) ok({ child, base: msg.ready });
    });
  });
}

async function main(): Promise<void> {
  const [dataDir, aJs, bJs, roundsArg, secondsArg] = process.argv.slice(2);
  if (!dataDir || !aJs || !bJs) throw new Error('usage: http-ab <dataDir> <A servers.js> <B servers.js> [rounds] [seconds]');
  const rounds = Number(roundsArg ?? 3);
  const seconds = Number(secondsArg ?? 3);
  const keysFile = join(dataDir, 'ab-keys.json');
  if (!existsSync(keysFile)) {
    await buildBenchData(dataDir, Date.now());
    const keys: Record<string, string> = {};
    for (const plan of ['business', 'free'] as Plan[]) keys[plan] = await createBenchKey(dataDir, plan);
    writeFileSync(keysFile, JSON.stringify(keys));
  }
  const keys = JSON.parse(readFileSync(keysFile, 'utf8')) as Record<'business' | 'free', string>;
  const opts: HttpBenchOptions = { dataDir, seconds, connections: integerSetting(env, 'BENCH_CONNECTIONS', 32), points: benchPoints(2000), keys: [] };
  const builds = { A: aJs, B: bJs };
  const servers: Record<string, { weather: Server; access: Server }> = {};
  for (const [name, js] of Object.entries(builds)) {
    servers[name] = { weather: await start(js, 'weather', dataDir, opts), access: await start(js, 'access', dataDir, opts) };
  }
  type Window = { label: string; kind: 'weather' | 'access'; key: string; widget: boolean };
  const all: Window[] = [
    { label: 'access', kind: 'access', key: keys.business, widget: false },
    { label: 'business', kind: 'weather', key: keys.business, widget: false },
    { label: 'free', kind: 'weather', key: keys.free, widget: false },
    { label: 'widget', kind: 'weather', key: keys.free, widget: true },
  ];
  const abWindows = setting(env, 'BENCH_AB_WINDOWS');
  const windows = all.filter((w) => !abWindows || abWindows.split(',').includes(w.label));
  const together = setting(env, 'BENCH_AB_TOGETHER') === '1';
  const cpu = new Map<string, { A: number[]; B: number[] }>(windows.map((w) => [w.label, { A: [], B: [] }]));
  /**
   * BENCH_AB_INTERLEAVE=<ms>: A and B loaded in turns of that many ms for the round's `seconds` each, their CPU
   * read from /proc around every turn (ticks of 10 ms, summed over many turns).
   */
  const interleaveMs = integerSetting(env, 'BENCH_AB_INTERLEAVE', 0);
  const paths = (w: Window) => opts.points.map((p) => `${w.kind === 'access' ? ACCESS_PATH : w.widget ? '/api/v1/widget.php' : '/api/v1/weather.php'}?lat=${p.lat.toFixed(4)}&lon=${p.lon.toFixed(4)}${p.altM !== undefined ? `&alt=${p.altM}` : ''}${w.widget ? `&${WIDGET_BENCH_QUERY}` : ''}`);
  const interleaved = async (w: Window, r: number) => {
    const acc = { A: { us: 0, n: 0 }, B: { us: 0, n: 0 } };
    const turns = Math.max(1, Math.round((seconds * 1000) / interleaveMs));
    for (let t = 0; t < turns; t++) {
      for (const name of t % 2 === 0 ? (['A', 'B'] as const) : (['B', 'A'] as const)) {
        const s = servers[name]![w.kind];
        const c0 = processCpu(s.child.pid)!;
        const res = await load(s.base, paths(w), w.key, opts.connections, { ms: interleaveMs });
        const c1 = processCpu(s.child.pid)!;
        if (res.errors > 0) throw new Error(`${name} ${w.label}: ${res.firstError}`);
        acc[name].us += c1.user + c1.system - c0.user - c0.system;
        acc[name].n += res.requests;
      }
    }
    for (const name of ['A', 'B'] as const) {
      const us = acc[name].us / acc[name].n;
      cpu.get(w.label)![name].push(us);
      console.log(`round ${r + 1} ${w.label.padEnd(8)} ${name}: ${us.toFixed(1)} µs over ${acc[name].n} requests in ${turns} turns, load ${loadavg()[0]!.toFixed(1)}`);
    }
  };
  try {
    for (let r = 0; r < rounds; r++) {
      const order = r % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      for (const w of windows) {
        // BENCH_AB_TOGETHER=1: A and B loaded at once, each with half the connections, so that the load from
        // elsewhere on a shared machine weighs on both figures of a round alike.
        const one = async (name: string, o: HttpBenchOptions) => {
          const s = servers[name]![w.kind];
          const elapsed: number[] = [];
          const res = await measureWith(w.kind, s.child, s.base, o, w.key, {
            widget: w.widget, warmupMs: r === 0 ? 1000 : 300, ...(w.widget ? {} : { onBody: elapsedInto(elapsed) }),
          });
          cpu.get(w.label)![name as 'A' | 'B'].push(res.cpuUsPerRequest!);
          console.log(`round ${r + 1} ${w.label.padEnd(8)} ${name}: ${res.cpuUsPerRequest!.toFixed(1)} µs (sys ${res.sysUsPerRequest!.toFixed(1)}), ${res.rps.toFixed(0)} req/s, elapsed_ms median ${elapsed.length ? median(elapsed).toFixed(3) : '-'}, load ${loadavg()[0]!.toFixed(1)}`);
        };
        if (interleaveMs > 0) await interleaved(w, r);
        else if (together) await Promise.all(order.map((name) => one(name, { ...opts, connections: opts.connections / 2 })));
        else for (const name of order) await one(name, opts);
      }
    }
    // Per round, B's figure over A's in the same minutes: the median of these is the change.
    for (const [label, { A, B }] of cpu) {
      const ratios = A.map((a, i) => B[i]! / a);
      console.log(`${label.padEnd(8)} A median ${median(A).toFixed(1)} µs, B median ${median(B).toFixed(1)} µs, B/A per round ${ratios.map((x) => x.toFixed(2)).join(' ')}, median ${median(ratios).toFixed(3)}`);
    }
  } finally {
    for (const s of Object.values(servers)) for (const { child } of [s.weather, s.access]) {
      child.removeAllListeners('exit');
      child.send({ stop: true });
    }
  }
}

await main();
