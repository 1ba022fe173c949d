/**
 * The reanalysis bench's ingest, in a child process of its own so that its
 * peak resident set (./peak-rss.ts: VmHWM, from this process's exec) is the
 * ingest's alone: `node dist/bench/reanalysis-ingest.js <root> <file>…`
 * runs `meteopunto ingest reanalysis` of the files (runIngest, source ERA5)
 * and prints one JSON line: seconds, CPU seconds (every thread, user and
 * system), peak RSS bytes, steps, variables. On a shared machine the CPU
 * seconds move far less than the wall time.
 */
import { fork } from 'node:child_process';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { runIngest } from '../ingest/pipeline.js';
import { peakRssBytes } from './peak-rss.js';

export interface IngestFigures {
  seconds: number;
  cpuSeconds: number;
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

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const [root, ...files] = process.argv.slice(2);
  const t = performance.now();
  const r = await runIngest({ root: root!, product: 'reanalysis', files, source: { model: 'ERA5' } });
  const cpu = process.cpuUsage();
  const figures: IngestFigures = {
    seconds: (performance.now() - t) / 1000, cpuSeconds: (cpu.user + cpu.system) / 1e6, peakRssBytes: peakRssBytes(), times: r.times, variables: r.variables.length,
  };
  console.log(JSON.stringify(figures));
  // The index threads of the ingest stay idle for a while: leave at once.
  process.exit(0);
}
