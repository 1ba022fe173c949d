/**
 * The reanalysis bench's ingest, in a child process of its own so that its
 * peak resident set (./peak-rss.ts: VmHWM, from this process's exec) is the
 * ingest's alone: `node dist/bench/reanalysis-ingest.js <root> <file>…`
 * runs `meteopunto ingest reanalysis` of the files (runIngest, source ERA5)
 * and prints one JSON line: seconds, CPU seconds (every thread, user and
 * system), the main thread's CPU seconds, peak RSS bytes, steps, variables.
 * On a shared machine the CPU seconds move far less than the wall time; the
 * main thread's are the part no other core can take (their ratio to the
 * whole is the parallelism the ingest could have on an idle machine).
 */
import { fork } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runIngest } from '../ingest/pipeline.js';
import { peakRssBytes } from './peak-rss.js';

export interface IngestFigures {
  seconds: number;
  cpuSeconds: number;
  /** The main thread's user and system seconds (Linux, /proc); null elsewhere. */
  mainThreadCpuSeconds: number | null;
  peakRssBytes: number;
  times: number;
  variables: number;
}

/** Run the ingest of `files` into `root` in a child process; its figures. */
export function ingestInChild(root: string, files: readonly string[]): Promise<IngestFigures> {
  return new Promise((resolve, reject) => {
    const child = fork(fileURLToPath(import.meta.url), [root, ...files], { stdio: ['ignore', 'pipe', 'inherit', 'ipc'] });
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      const line = out.trim().split('\n').pop() ?? '';
      if (code !== 0) reject(new Error(`reanalysis ingest child exited ${code}: ${line}`));
      else resolve(JSON.parse(line) as IngestFigures);
    });
  });
}

/** This process's main thread's CPU seconds: /proc/self/task/<pid>/stat, utime and stime (fields 14, 15) in clock ticks of 1/100 s. */
function mainThreadCpuSeconds(): number | null {
  try {
    const f = readFileSync(`/proc/self/task/${process.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return null;
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, ...files] = process.argv.slice(2);
  const t = performance.now();
  const r = await runIngest({ root: root!, product: 'reanalysis', files, source: { model: 'ERA5' } });
  const cpu = process.cpuUsage();
  const figures: IngestFigures = {
    seconds: (performance.now() - t) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, mainThreadCpuSeconds: mainThreadCpuSeconds(), peakRssBytes: peakRssBytes(), times: r.times, variables: r.variables.length,
  };
  console.log(JSON.stringify(figures));
  // The index threads of the ingest stay idle for a while: leave at once.
  process.exit(0);
}
