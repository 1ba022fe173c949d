/**
 * Measures a switch's warm on a bucket across a network (docs/benchmarks-journal.md): not a test (no
 * assertions), a harness on the suite's servers. This process runs s3rver and a delay proxy
 * (./latency-proxy.ts) in front of it, uploads the sample's nwp store (built beforehand in `<root>` by
 * `meteopunto demo`'s builder, nwp alone) and then, for each `warmGets` value in the order given, starts a
 * replica in a child process: a TileStore on the bucket through the proxy with the server's warm plan, warmed
 * at start; then a copy of the version is published and the child loads the old version with lookups at
 * random points (one every 2 ms, each one's latency counted from when it was due) until it switches.
 *
 *   node --import tsx test/support/bucket-switch-bench.ts <root> <delayMs> 0,8,0,8
 *
 * Prints one JSON line per run: the start's and the switch's warm (blocks, ms), the process's and its main
 * thread's CPU during the switch, the lookups' latency percentiles, and the proxy's most GETs at once.
 */
import { spawn } from 'node:child_process';
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { startS3Server } from './s3-server.js';
import { startLatencyProxy } from './latency-proxy.js';
import { S3Storage } from '../../tiles/storage/s3.js';
import { forEachLimit } from '../../tiles/write/durable-fs.js';

const PREFIX = 'bench';

interface Access { endpoint: string; direct: string; bucket: string; credentials: { accessKeyId: string; secretAccessKey: string } }

function storageOf(a: Access, endpoint: string, warmGets?: number): S3Storage {
  return new S3Storage({
    bucket: a.bucket, prefix: PREFIX, endpoint, region: 'us-east-1', forcePathStyle: true, credentials: a.credentials,
    timeoutMs: 20_000, pollMs: 1000, stagingDir: '/nonexistent', ...(warmGets === undefined ? {} : { warmGets }),
  });
}

function files(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true }).filter((e) => e.isFile()).map((e) => relative(dir, join(e.parentPath, e.name)).split(sep).join('/'));
}

/** Main-thread CPU of this process, ms (/proc: utime + stime of the task whose id is the pid). */
function mainThreadCpuMs(): number {
  const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

async function driver(root: string, delayMs: number, aheads: number[]): Promise<void> {
  const s3 = await startS3Server();
  const proxy = await startLatencyProxy(s3.endpoint, { delayMs, count: (p) => p.includes('.zarr/') && !p.endsWith('/.zmetadata') });
  const access: Access = { endpoint: proxy.endpoint, direct: s3.endpoint, bucket: s3.bucket, credentials: s3.credentials };
  const direct = storageOf(access, s3.endpoint);
  const nwp = join(root, 'tiles', 'nwp');
  const manifest = JSON.parse(readFileSync(join(nwp, 'current.json'), 'utf8')) as { version: string };
  const objects = files(join(nwp, manifest.version));
  const upload = (version: string) => forEachLimit(objects, 16, async (f) => direct.put(`nwp/${version}/${f}`, readFileSync(join(nwp, manifest.version, f))));
  let t = performance.now();
  await upload(manifest.version);
  await direct.put('nwp/current.json', JSON.stringify(manifest));
  console.error(`uploaded ${objects.length} objects in ${((performance.now() - t) / 1000).toFixed(1)} s`);
  for (const [k, ahead] of aheads.entries()) {
    // Each run starts on version A and switches to a copy of it, uploaded beforehand (not timed).
    const copy = manifest.version.replace(/-[0-9a-f]+\.zarr$/, `-b${k}0000.zarr`);
    t = performance.now();
    await upload(copy);
    await direct.put('nwp/current.json', JSON.stringify(manifest));
    console.error(`run ${k}: copy uploaded in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, 'replica', JSON.stringify(access), String(ahead)], { stdio: ['pipe', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.includes('ready\n')) {
        out = out.replace('ready\n', '');
        proxy.resetCounts();
        void direct.put('nwp/current.json', JSON.stringify({ ...manifest, version: copy, published: new Date().toISOString() })).then(() => child.stdin.write('published\n'));
      }
    });
    const code = await new Promise((ok) => child.on('close', ok));
    const line = out.trim().split('\n').at(-1) ?? '';
    console.log(JSON.stringify({ run: k, ahead, code, ...(line.startsWith('{') ? JSON.parse(line) : { out }), maxGetsInFlight: proxy.maxGetsInFlight, gets: proxy.gets }));
    await direct.deletePrefix(`nwp/${copy}/`);
  }
  direct.close();
  await proxy.close();
  await s3.close();
}

async function replica(access: Access, ahead: number): Promise<void> {
  const { TileStore } = await import('../../tiles/read/reader.js');
  const { defaultReadPlan } = await import('../../api/weather/warm-plan.js');
  const { benchPoints } = await import('../../bench/data.js');
  const reports: Array<{ version: string; blocks: number; total: number; ms: number; switched: boolean; stopped?: string }> = [];
  const plan = defaultReadPlan();
  const tiles = new TileStore(storageOf(access, access.endpoint, ahead), { cacheBytes: 1400 << 20, warm: plan, onWarm: (r) => reports.push(r) });
  await tiles.readyAll();
  const [start] = await tiles.warmLive(['nwp']);
  const old = tiles.pin('nwp')!.version;
  const names = plan(tiles.manifest('nwp')!)!;
  const points = benchPoints(20_000);
  await new Promise<void>((ok) => {
    process.stdin.on('data', (d: Buffer) => d.toString().includes('published') && ok());
    process.stdout.write('ready\n');
  });
  // The switch: from the refresh (what the Redis announcement triggers) to the report.
  const cpu0 = process.cpuUsage();
  const main0 = mainThreadCpuMs();
  const t0 = performance.now();
  const delay = monitorEventLoopDelay({ resolution: 1 });
  delay.enable();
  tiles.refresh(['nwp']);
  const lat: number[] = [];
  let due = performance.now();
  let i = 0;
  let wrong = 0;
  while (!reports.some((r) => r.switched)) {
    await new Promise((r) => setTimeout(r, 1));
    for (; due <= performance.now(); due += 2) {
      const p = points[i++ % points.length]!;
      const vs = tiles.pin('nwp')!;
      if (vs.version !== old) wrong++;
      await tiles.sampleIn(vs, p.lat, p.lon, Date.now(), names);
      lat.push(performance.now() - due);
    }
  }
  delay.disable();
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const sw = reports.find((r) => r.switched)!;
  lat.sort((a, b) => a - b);
  const q = (f: number) => Number(lat[Math.min(lat.length - 1, Math.floor(f * lat.length))]!.toFixed(2));
  console.log(JSON.stringify({
    start: { blocks: start?.blocks, total: start?.total, s: Number(((start?.ms ?? 0) / 1000).toFixed(2)) },
    switch: { blocks: sw.blocks, total: sw.total, warmS: Number((sw.ms / 1000).toFixed(2)), toSwitchS: Number((ms / 1000).toFixed(2)), stopped: sw.stopped },
    cpuS: Number(((cpu.user + cpu.system) / 1e6).toFixed(2)), mainCpuS: Number(((mainThreadCpuMs() - main0) / 1000).toFixed(2)),
    lookups: { n: lat.length, p50: q(0.5), p99: q(0.99), max: q(1), notOld: wrong },
    loopDelayP99Ms: Number((delay.percentile(99) / 1e6).toFixed(1)),
  }));
  process.exit(0);
}

const [mode, ...args] = process.argv.slice(2);
if (mode === 'replica') await replica(JSON.parse(args[0]!) as Access, Number(args[1]));
else await driver(mode!, Number(args[0] ?? 30), (args[1] ?? '0,8').split(',').map(Number));
