/** `meteopunto worker` as a real child process (node + tsx, or the built CLI in dist/), with its JSON log lines parsed. */
import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const MAIN = resolve(import.meta.dirname, '../../../cli/main.ts');
const BUILT = resolve(import.meta.dirname, '../../../dist/cli/main.js');

export interface LogLine {
  event?: string;
  jobId?: string;
  queue?: string;
  msg?: string;
  [k: string]: unknown;
}

export interface WorkerProcess {
  child: ChildProcess;
  lines: LogLine[];
  stderr(): string;
  /** Resolves with the first log line (past or future) matching. */
  waitForLine(pred: (l: LogLine) => boolean, timeoutMs?: number): Promise<LogLine>;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export function spawnWorker(env: Record<string, string>, args: string[] = [], opts: { built?: boolean } = {}): WorkerProcess {
  const entry = opts.built ? [BUILT] : ['--import', 'tsx', MAIN];
  const child = spawn(process.execPath, [...entry, 'worker', ...args], {
    env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '/tmp', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: LogLine[] = [];
  const waiters: { pred: (l: LogLine) => boolean; resolve: (l: LogLine) => void }[] = [];
  let buf = '';
  let err = '';
  child.stdout!.setEncoding('utf8').on('data', (s: string) => {
    buf += s;
    let i: number;
    while ((i = buf.indexOf('\n')) >= 0) {
      const text = buf.slice(0, i);
      buf = buf.slice(i + 1);
      let line: LogLine;
      try {
        line = JSON.parse(text) as LogLine;
      } catch {
        line = { msg: text };
      }
      lines.push(line);
      for (const w of [...waiters]) {
        if (w.pred(line)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(line);
        }
      }
    }
  });
  child.stderr!.setEncoding('utf8').on('data', (s: string) => (err += s));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((ok) => child.once('exit', (code, signal) => ok({ code, signal })));
  return {
    child,
    lines,
    stderr: () => err,
    exited,
    waitForLine(pred, timeoutMs = 90_000) {
      const seen = lines.find(pred);
      if (seen) return Promise.resolve(seen);
      return new Promise<LogLine>((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`worker log line not seen within ${timeoutMs} ms; stderr: ${err.slice(-500)}; last lines: ${JSON.stringify(lines.slice(-5))}`)), timeoutMs);
        void exited.then(({ code, signal }) => {
          clearTimeout(timer);
          fail(new Error(`worker exited (${code ?? signal}) before the awaited log line; stderr: ${err.slice(-800)}`));
        });
        waiters.push({
          pred,
          resolve: (l) => {
            clearTimeout(timer);
            ok(l);
          },
        });
      });
    },
  };
}
